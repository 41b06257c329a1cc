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
  const where = [projectScopeSql(principal, "r.project_id", params)];
  let order = query.sort === "relevance" ? orderBy.title : orderBy[query.sort];
  if (options.pinnedIds) {
    params.push([...options.pinnedIds]);
    const pinned = `$${params.length}::text[]`;
    where.push(`r.id = ANY(${pinned})`);
    if (query.sort === "relevance") order = `array_position(${pinned}, r.id)`;
  }
  whereEquals(where, params, "s.slug", query.section);
  whereEquals(where, params, "r.project_id", query.project);
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
  if (query.from !== undefined) {
    params.push(query.from);
    where.push(`r.date_to >= $${params.length}`);
  }
  if (query.to !== undefined) {
    params.push(query.to);
    where.push(`r.date_from <= $${params.length}`);
  }
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
