import "server-only";
import { type Principal, canReadPassage, egressAllowedSql, passageScopeSql } from "../../acl";
import type { SqlExecutor } from "../../db/sql-executor";
import type { SearchRequest } from "./search-request";

/**
 * The gate every search candidate passes before a score, a title or a word of text leaves search:
 * its details are read again under the ACL predicate, then checked against the principal and the
 * requested scopes.
 */
export type DetailRow = {
  id: string;
  record_id: string;
  project_id: string;
  section_id: string;
  contributing_project_ids: string[];
  contributing_record_ids: string[] | null;
  text: string;
  translated_text: string | null;
  language: string;
  heading_path: string[];
  page: number | null;
  page_end: number | null;
  time_start: number | null;
  time_end: number | null;
  start_offset: number;
  end_offset: number;
  record_title: string;
  section_slug: string;
  section_name: string;
  group_label: string;
  external_ok: boolean;
};

export async function passageDetails(sql: SqlExecutor, principal: Principal, spaceId: string, chunkIds: string[]): Promise<Map<string, DetailRow>> {
  if (chunkIds.length === 0) return new Map();
  const params: unknown[] = [chunkIds, spaceId];
  const externalAllowed = egressAllowedSql({ policy: "s.egress_policy", contributingSectionIds: "c.contributing_section_ids" }, params);
  const scope = passageScopeSql(principal, "c", params);
  const rows = await sql.query<DetailRow>(
    `SELECT c.id, c.record_id, c.project_id, c.section_id, c.contributing_project_ids, c.contributing_record_ids, c.text, c.translated_text,
            c.language, c.heading_path, c.page, c.page_end, c.time_start, c.time_end, c.start_offset, c.end_offset,
            r.title AS record_title, s.slug AS section_slug, s.name AS section_name, g.label AS group_label,
            ${externalAllowed} AS external_ok
       FROM chunks c
       JOIN records r ON r.id = c.record_id
       JOIN sections s ON s.id = c.section_id
       JOIN embed_groups g ON g.id = c.embed_group_id
      WHERE c.id = ANY($1::text[]) AND c.index_space_id = $2 AND ${scope}`,
    params,
  );
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * A candidate leaves only if the principal may read its record's project and every project whose
 * text it contains, and it lies inside the requested section, project and record scope.
 */
export function passesGate(principal: Principal, request: Pick<SearchRequest, "sectionIds" | "projectIds" | "recordIds">, row: DetailRow): boolean {
  if (!canReadPassage(principal, { projectId: row.project_id, contributingProjectIds: row.contributing_project_ids })) return false;
  if (request.sectionIds?.length && !request.sectionIds.includes(row.section_id)) return false;
  if (request.projectIds?.length && !request.projectIds.includes(row.project_id)) return false;
  if (request.recordIds && !request.recordIds.includes(row.record_id)) return false;
  return true;
}
