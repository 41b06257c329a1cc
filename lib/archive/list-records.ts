import "server-only";
import { z } from "zod";
import { type Principal, projectScopeSql } from "../acl";
import type { SqlExecutor } from "../db/sql-executor";
import { storableTextIssues } from "../storable-text";
import { maxFilterTextLength } from "../query-length";
import { whereEquals } from "../db/sql-where";

export const recordSorts = ["relevance", "title", "-title", "updated", "-updated", "date", "-date"] as const;
export type RecordSort = (typeof recordSorts)[number];

const optionalText = (max: number) =>
  z.preprocess((value) => (typeof value === "string" && value.trim() === "" ? undefined : value), z.string().trim().max(max).optional());
const optionalYear = z.preprocess(
  (value) => (value === "" || value === null ? undefined : value),
  z.coerce.number({ error: "must be a year" }).int("must be a whole year").min(-10_000).max(3_000).optional(),
);

/** The record list's whole state, as it travels in the URL. */
export const listRecordsQuerySchema = z
  .object({
    section: optionalText(64),
    project: optionalText(64),
    field: optionalText(64),
    text: optionalText(maxFilterTextLength),
    from: optionalYear,
    to: optionalYear,
    sort: z.enum(recordSorts).catch("title"),
    page: z.coerce.number().int().min(1).max(100_000).catch(1),
    pageSize: z.coerce.number().int().min(1).max(100).catch(25),
  })
  .refine((query) => query.from === undefined || query.to === undefined || query.from <= query.to, {
    message: "The start year must not be after the end year.",
    path: ["from"],
  })
  .superRefine(storableTextIssues);

export type ListRecordsQuery = z.infer<typeof listRecordsQuerySchema>;

export interface RecordListItem {
  id: string;
  title: string;
  projectId: string;
  projectName: string;
  sectionSlug: string;
  sectionName: string;
  dateFrom: number | null;
  dateTo: number | null;
  updatedAt: Date;
  /** Field values for the columns; relation fields left out (`listedValuesSql`). */
  values: Record<string, unknown>;
}

export interface RecordListPage {
  items: RecordListItem[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
}

const orderBy: Record<Exclude<RecordSort, "relevance">, string> = {
  title: "lower(r.title) ASC",
  "-title": "lower(r.title) DESC",
  updated: "r.updated_at ASC",
  "-updated": "r.updated_at DESC",
  date: "r.date_from ASC NULLS LAST",
  "-date": "r.date_to DESC NULLS LAST",
};

/**
 * A record's values without its relation fields, for the text filters and the list's columns.
 * A relation value is another record's id: matched as text, a filter would spell out, a few
 * characters at a time, the id of a linked record the reader cannot read. The list shows no
 * relation, so none leaves here, readable or not.
 */
const listedValuesSql = `(r."values" - ARRAY(SELECT f->>'key' FROM jsonb_array_elements(s.fields) f WHERE f->>'type' = 'relation'))`;

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

type ListFilter = "section" | "project" | "years";

/**
 * The list's WHERE clause: readable projects first (so every count is over readable records
 * only), a search's pinned hits, then the structured filters, less any named in `omit` (a facet
 * counts its own dimension under every other filter). Appends to `params`.
 */
function listWhere(
  principal: Principal,
  query: ListRecordsQuery,
  params: unknown[],
  options: { pinnedIds?: readonly string[]; omit?: readonly ListFilter[] } = {},
): { where: string[]; pinned?: string } {
  const omit = new Set(options.omit ?? []);
  const where = [projectScopeSql(principal, "r.project_id", params)];
  let pinned: string | undefined;
  if (options.pinnedIds) {
    params.push([...options.pinnedIds]);
    pinned = `$${params.length}::text[]`;
    where.push(`r.id = ANY(${pinned})`);
  }
  if (!omit.has("section")) whereEquals(where, params, "s.slug", query.section);
  if (!omit.has("project")) whereEquals(where, params, "r.project_id", query.project);
  if (query.text) {
    params.push(likePattern(query.text));
    const pattern = `unaccent($${params.length})`;
    if (query.field) {
      params.push(query.field);
      where.push(`unaccent(coalesce((${listedValuesSql} -> $${params.length})::text, '')) ILIKE ${pattern}`);
    } else {
      where.push(`unaccent(r.title || ' ' || ${listedValuesSql}::text) ILIKE ${pattern}`);
    }
  }
  if (!omit.has("years") && query.from !== undefined) {
    params.push(query.from);
    where.push(`r.date_to >= $${params.length}`);
  }
  if (!omit.has("years") && query.to !== undefined) {
    params.push(query.to);
    where.push(`r.date_from <= $${params.length}`);
  }
  return { where, pinned };
}

/**
 * One page of the records the principal may read, filtered and sorted. Access is part of the
 * WHERE clause, so the total and every page are counted over readable records only.
 * `section` is a section slug (validated by the caller), `project` a project id.
 *
 * `pinnedIds` (a search's ranked hits) becomes a filter and, with sort "relevance", the order:
 * the structured filters, the count and pagination then work on the hits as on any list.
 */
export async function listRecords(
  sql: SqlExecutor,
  principal: Principal,
  query: ListRecordsQuery,
  options: { pinnedIds?: readonly string[] } = {},
): Promise<RecordListPage> {
  const params: unknown[] = [];
  const { where, pinned } = listWhere(principal, query, params, options);
  let order = query.sort === "relevance" ? orderBy.title : orderBy[query.sort];
  if (pinned && query.sort === "relevance") order = `array_position(${pinned}, r.id)`;
  params.push(query.pageSize, (query.page - 1) * query.pageSize);
  const rows = await sql.query<{
    id: string;
    title: string;
    project_id: string;
    project_name: string;
    section_slug: string;
    section_name: string;
    date_from: number | null;
    date_to: number | null;
    updated_at: Date;
    values: Record<string, unknown>;
    total: number;
  }>(
    `SELECT r.id, r.title, r.project_id, p.name AS project_name, s.slug AS section_slug,
            s.name AS section_name, r.date_from, r.date_to, r.updated_at, ${listedValuesSql} AS "values",
            count(*) OVER ()::int AS total
       FROM records r
       JOIN sections s ON s.id = r.section_id
       JOIN projects p ON p.id = r.project_id
      WHERE ${where.join(" AND ")}
      ORDER BY ${order}, r.id
      LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && query.page > 1) {
    // Past the last page: count separately so the UI can offer the way back.
    const countParams = params.slice(0, -2);
    const [count] = await sql.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM records r JOIN sections s ON s.id = r.section_id WHERE ${where.join(" AND ")}`,
      countParams,
    );
    total = count?.total ?? 0;
  }
  return {
    items: rows.map((row) => ({
      id: row.id,
      title: row.title,
      projectId: row.project_id,
      projectName: row.project_name,
      sectionSlug: row.section_slug,
      sectionName: row.section_name,
      dateFrom: row.date_from,
      dateTo: row.date_to,
      updatedAt: new Date(row.updated_at),
      values: row.values,
    })),
    total,
    page: query.page,
    pageSize: query.pageSize,
    pageCount: Math.max(1, Math.ceil(total / query.pageSize)),
  };
}

/** One value of a facet: what the filter would be set to, its label, and how many records it keeps. */
export interface FacetValue {
  value: string;
  label: string;
  count: number;
}

export interface RecordFacets {
  sections: FacetValue[];
  projects: FacetValue[];
  /** Decades of the records' start year ("1960" for 1960–1969), oldest first; undated records are not counted. */
  decades: FacetValue[];
}

/**
 * Counts for the list's facets under the current query and filters: each facet counts its own
 * dimension with every other filter applied (so picking a section shows how many records each
 * project holds within it), over readable records only — the same WHERE as the list, access
 * first, so a facet never counts a record the principal could not open. A search's pinned hits
 * are counted as the list shows them.
 */
export async function recordFacets(sql: SqlExecutor, principal: Principal, query: ListRecordsQuery, options: { pinnedIds?: readonly string[] } = {}): Promise<RecordFacets> {
  const counted = async (omit: ListFilter, select: string, group: string, order: string) => {
    const params: unknown[] = [];
    const { where } = listWhere(principal, query, params, { ...options, omit: [omit] });
    return sql.query<{ value: string; label: string; count: number }>(
      `SELECT ${select}, count(*)::int AS count
         FROM records r JOIN sections s ON s.id = r.section_id JOIN projects p ON p.id = r.project_id
        WHERE ${where.join(" AND ")}
        GROUP BY ${group} ORDER BY ${order}`,
      params,
    );
  };
  const [sections, projects, decades] = await Promise.all([
    counted("section", "s.slug AS value, s.name AS label", "s.slug, s.name, s.position", "s.position, s.name"),
    counted("project", "p.id AS value, p.name AS label", "p.id, p.name", "p.name"),
    counted("years", "(floor(r.date_from / 10.0) * 10)::int::text AS value, '' AS label", "floor(r.date_from / 10.0)", "floor(r.date_from / 10.0)"),
  ]);
  const dated = decades.filter((decade) => decade.value !== null);
  return { sections, projects, decades: dated.map((decade) => ({ ...decade, label: decadeLabel(Number(decade.value)) })) };
}

/** "1960s", and for years BC "330s BC" (the decade -330 … -321). */
export function decadeLabel(decade: number): string {
  return decade < 0 ? `${-decade}s BC` : `${decade}s`;
}

/**
 * How many records of the list (its query, filters and a search's pinned hits; readable records
 * only, access first in the WHERE as for the page) arrived after `since`: created then, or moved
 * to another project then (records.moved_at, set by a trigger) — so a record moved into a
 * project the principal reads counts as arrived, and one moved out of it is not counted at all.
 * Counted up to `cap` + 1, so a caller can say "100+" without counting a whole archive.
 */
export async function countRecordsSince(
  sql: SqlExecutor,
  principal: Principal,
  query: ListRecordsQuery,
  options: { since: Date; cap: number; pinnedIds?: readonly string[] },
): Promise<number> {
  const params: unknown[] = [];
  const { where } = listWhere(principal, query, params, { pinnedIds: options.pinnedIds });
  // Timestamps without a zone hold UTC: the ISO instant cast drops its "Z" and compares as UTC.
  params.push(options.since.toISOString());
  const since = `$${params.length}::timestamp`;
  where.push(`(r.created_at > ${since} OR r.moved_at > ${since})`);
  params.push(options.cap + 1);
  const [row] = await sql.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM (
       SELECT 1 FROM records r JOIN sections s ON s.id = r.section_id
        WHERE ${where.join(" AND ")}
        LIMIT $${params.length}) arrived`,
    params,
  );
  return row?.count ?? 0;
}
