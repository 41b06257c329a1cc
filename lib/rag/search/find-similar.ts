import "server-only";
import { type Principal, canRead, canReadPassage, passageScopeSql, projectScopeSql } from "../../acl";
import { isUuid } from "../../ids";
import type { SqlExecutor } from "../../db/sql-executor";
import { AppError, notFound } from "../../errors";
import type { IndexSpace } from "../index/index-spaces";
import { snippet, type Snippet } from "./highlight";
import { denseLeg } from "./retrieve-passages";
import { denseEfSearch } from "./search-archive";
import { passageDetails } from "./search-gate";
import { maxSearchLimit } from "./search-request";
import { whereEquals } from "../../db/sql-where";

/**
 * Records nearest to one record, from the vectors already stored for it: the mean of its
 * passages (all of them, or one embed group's, e.g. "profession") is the query, so nothing is
 * re-embedded. Only passages the principal may read form that mean, so text from a project
 * they cannot see never steers the result. The record itself is left out; a record the
 * principal may not read is not found, exactly like one that does not exist.
 */
export interface SimilarRecord {
  recordId: string;
  recordTitle: string;
  sectionSlug: string;
  sectionName: string;
  projectId: string;
  similarity: number;
  /** The passage that came closest, and which group it belongs to. */
  passage: { chunkId: string; groupLabel: string; snippet: Snippet; timeStart: number | null; page: number | null };
}

export interface FindSimilarOptions {
  embedGroupId?: string;
  limit?: number;
}

export async function findSimilarRecords(
  sql: SqlExecutor,
  principal: Principal,
  space: IndexSpace | null,
  recordId: string,
  options: FindSimilarOptions = {},
): Promise<SimilarRecord[]> {
  if (!isUuid(recordId)) throw notFound();
  // Access in the SQL (an unreadable record reads as no row, like a missing one) and again here.
  const lookup: unknown[] = [recordId];
  const [record] = await sql.query<{ project_id: string }>(
    `SELECT project_id FROM records WHERE id = $1 AND ${projectScopeSql(principal, "project_id", lookup)}`,
    lookup,
  );
  if (!record || !canRead(principal, { projectId: record.project_id })) throw notFound();
  if (options.embedGroupId !== undefined && !isUuid(options.embedGroupId)) throw new AppError("bad_request", "Unknown embed group.");
  if (!space) return [];
  const limit = Math.max(1, Math.min(maxSearchLimit, Math.trunc(options.limit ?? 10)));
  if (!Number.isInteger(space.dimension)) throw new Error("bad dimension");

  const params: unknown[] = [recordId, space.id];
  const where = [`c.record_id = $1`, `c.index_space_id = $2`, `c.embedding IS NOT NULL`, passageScopeSql(principal, "c", params)];
  whereEquals(where, params, "c.embed_group_id", options.embedGroupId);
  const [centroid] = await sql.query<{ mean: string | null; passages: number }>(
    `SELECT avg(c.embedding::vector(${space.dimension}))::text AS mean, count(*)::int AS passages FROM chunks c WHERE ${where.join(" AND ")}`,
    params,
  );
  if (!centroid?.mean || centroid.passages === 0) return [];
  const vector = (JSON.parse(centroid.mean) as number[]).map(Number);

  // Several passages per neighbour: look deep enough to fill the page with distinct records.
  const depth = Math.min(200, limit * 5 + 20);
  const hits = await denseLeg(sql, principal, vector, {
    space,
    limit: depth,
    embedGroupId: options.embedGroupId,
    excludeRecordId: recordId,
    efSearch: denseEfSearch(),
  });
  const bestByRecord = new Map<string, (typeof hits)[number]>();
  for (const hit of hits) if (!bestByRecord.has(hit.recordId)) bestByRecord.set(hit.recordId, hit);
  const top = [...bestByRecord.values()].slice(0, limit);
  const details = await passageDetails(
    sql,
    principal,
    space.id,
    top.map((hit) => hit.chunkId),
  );
  return top.flatMap((hit): SimilarRecord[] => {
    const row = details.get(hit.chunkId);
    if (!row || row.record_id === recordId) return [];
    if (!canReadPassage(principal, { projectId: row.project_id, contributingProjectIds: row.contributing_project_ids })) return [];
    return [
      {
        recordId: row.record_id,
        recordTitle: row.record_title,
        sectionSlug: row.section_slug,
        sectionName: row.section_name,
        projectId: row.project_id,
        similarity: hit.score,
        passage: { chunkId: row.id, groupLabel: row.group_label, snippet: snippet(row.text, [], 200), timeStart: row.time_start, page: row.page },
      },
    ];
  });
}

/** The embed groups a record has passages in (for the "similar by" choice). */
export async function similarityFacets(sql: SqlExecutor, principal: Principal, space: IndexSpace | null, recordId: string) {
  if (!space || !isUuid(recordId)) return [];
  const params: unknown[] = [recordId, space.id];
  const scope = passageScopeSql(principal, "c", params);
  return sql.query<{ id: string; label: string; slug: string }>(
    `SELECT DISTINCT g.id, g.label, g.slug
       FROM chunks c JOIN embed_groups g ON g.id = c.embed_group_id
      WHERE c.record_id = $1 AND c.index_space_id = $2 AND ${scope}
      ORDER BY g.label`,
    params,
  );
}
