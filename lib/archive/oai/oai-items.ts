import "server-only";
import { type Principal, projectScopeSql } from "../../acl";
import type { SqlExecutor } from "../../db/sql-executor";
import type { SetSpec } from "./oai-request";

/**
 * What OAI-PMH lists: the records of the projects the reader may read (the public projects: the
 * caller passes the public reader) and the tombstones of records that were served and no longer
 * are (oai_tombstones, written by triggers). One item per record id: a tombstone whose record
 * is readable again is not listed. An item's datestamp is the later of its record's last change
 * and the moment its project became public, to the second, so a project published today is
 * harvested by a harvester asking for changes since yesterday.
 */
export interface OaiItem {
  id: string;
  /** `YYYY-MM-DD HH:MM:SS`, UTC. */
  datestamp: string;
  deleted: boolean;
  sectionSlug: string;
  projectSlug: string;
}

export interface ItemFilter {
  from?: string;
  until?: string;
  set?: SetSpec;
  /** Keyset: items strictly after this (datestamp, id). */
  after?: { datestamp: string; id: string };
  /** One record's item (GetRecord, ListMetadataFormats). */
  id?: string;
}

const stamp = `'YYYY-MM-DD HH24:MI:SS'`;

/** The items' SQL, with the filter's conditions bound into `params`. */
function itemsSql(reader: Principal, filter: ItemFilter, params: unknown[]): string {
  const live = projectScopeSql(reader, "r.project_id", params);
  const servedAgain = projectScopeSql(reader, "again.project_id", params);
  const conditions: string[] = [];
  if (filter.from !== undefined) {
    params.push(filter.from);
    conditions.push(`i.datestamp >= $${params.length}::timestamp`);
  }
  if (filter.until !== undefined) {
    params.push(filter.until);
    conditions.push(`i.datestamp <= $${params.length}::timestamp`);
  }
  if (filter.set) {
    params.push(filter.set.slug);
    conditions.push(`${filter.set.kind === "section" ? "s.slug" : "p.slug"} = $${params.length}`);
  }
  if (filter.after) {
    params.push(filter.after.datestamp, filter.after.id);
    conditions.push(`(i.datestamp, i.id) > ($${params.length - 1}::timestamp, $${params.length})`);
  }
  if (filter.id !== undefined) {
    params.push(filter.id);
    conditions.push(`i.id = $${params.length}`);
  }
  return `
    WITH items AS (
      SELECT r.id, date_trunc('second', GREATEST(r.updated_at, COALESCE(rp.public_since, r.updated_at))) AS datestamp, false AS deleted, r.project_id, r.section_id
        FROM records r JOIN projects rp ON rp.id = r.project_id
       WHERE ${live}
      UNION ALL
      SELECT t.record_id, date_trunc('second', t.deleted_at), true, t.project_id, t.section_id
        FROM oai_tombstones t
       WHERE NOT EXISTS (SELECT 1 FROM records again WHERE again.id = t.record_id AND ${servedAgain})
    )
    SELECT i.id, to_char(i.datestamp, ${stamp}) AS datestamp, i.deleted, s.slug AS section_slug, p.slug AS project_slug
      FROM items i JOIN sections s ON s.id = i.section_id JOIN projects p ON p.id = i.project_id
     ${conditions.length ? `WHERE ${conditions.join(" AND ")}` : ""}`;
}

type Row = { id: string; datestamp: string; deleted: boolean; section_slug: string; project_slug: string };

const toItem = (row: Row): OaiItem => ({
  id: row.id,
  datestamp: row.datestamp,
  deleted: row.deleted,
  sectionSlug: row.section_slug,
  projectSlug: row.project_slug,
});

/** A page of items in (datestamp, id) order. */
export async function listOaiItems(sql: SqlExecutor, reader: Principal, filter: ItemFilter, limit: number): Promise<OaiItem[]> {
  const params: unknown[] = [];
  const query = itemsSql(reader, filter, params);
  params.push(limit);
  const rows = await sql.query<Row>(`${query} ORDER BY i.datestamp, i.id LIMIT $${params.length}`, params);
  return rows.map(toItem);
}

/** How many items the filter matches (the list's completeListSize). */
export async function countOaiItems(sql: SqlExecutor, reader: Principal, filter: ItemFilter): Promise<number> {
  const params: unknown[] = [];
  const [row] = await sql.query<{ count: number }>(`SELECT count(*)::int AS count FROM (${itemsSql(reader, filter, params)}) counted`, params);
  return row?.count ?? 0;
}

/** The earliest datestamp of any item (Identify's earliestDatestamp), or null when there is none. */
export async function earliestOaiDatestamp(sql: SqlExecutor, reader: Principal): Promise<string | null> {
  const params: unknown[] = [];
  const [row] = await sql.query<{ earliest: string | null }>(`SELECT min(datestamp) AS earliest FROM (${itemsSql(reader, {}, params)}) listed`, params);
  return row?.earliest ?? null;
}

/** The sections that have at least one item (ListSets names no section with nothing to harvest). */
export async function sectionsWithItems(sql: SqlExecutor, reader: Principal): Promise<{ slug: string; name: string; description: string }[]> {
  const params: unknown[] = [];
  return sql.query(
    `SELECT s.slug, s.name, s.description FROM sections s WHERE s.slug IN (SELECT listed.section_slug FROM (${itemsSql(reader, {}, params)}) listed) ORDER BY s.position, s.name`,
    params,
  );
}
