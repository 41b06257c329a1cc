import "server-only";
import { type Principal, passageScopeSql } from "../../acl";
import { isUuid } from "../../ids";
import type { SqlExecutor } from "../../db/sql-executor";

export interface CitedPassage {
  chunkId: string;
  text: string;
  location: string;
  page: number | null;
  pageEnd: number | null;
  timeStart: number | null;
  timeEnd: number | null;
}

/**
 * The passage a citation points at, for the record page to show highlighted: only a passage of
 * this record that the principal may read (host and contributing projects); anything else is
 * simply not shown.
 */
export async function getCitedPassage(sql: SqlExecutor, principal: Principal, recordId: string, chunkId: string): Promise<CitedPassage | undefined> {
  if (!isUuid(recordId) || !isUuid(chunkId)) return undefined;
  const params: unknown[] = [chunkId, recordId];
  const scope = passageScopeSql(principal, "c", params);
  const [row] = await sql.query<{
    id: string;
    text: string;
    group_label: string;
    heading_path: string[];
    page: number | null;
    page_end: number | null;
    time_start: number | null;
    time_end: number | null;
  }>(
    `SELECT c.id, c.text, g.label AS group_label, c.heading_path, c.page, c.page_end, c.time_start, c.time_end
       FROM chunks c JOIN embed_groups g ON g.id = c.embed_group_id
      WHERE c.id = $1 AND c.record_id = $2 AND ${scope}`,
    params,
  );
  if (!row) return undefined;
  return {
    chunkId: row.id,
    text: row.text,
    location: [row.group_label, ...row.heading_path.filter((heading) => heading !== row.group_label)].join(" › "),
    page: row.page,
    pageEnd: row.page_end,
    timeStart: row.time_start,
    timeEnd: row.time_end,
  };
}
