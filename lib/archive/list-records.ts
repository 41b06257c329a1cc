import "server-only";
import { z } from "zod";
import { type Principal, passageScopeSql, projectScopeSql } from "../acl";
import type { SqlExecutor } from "../db/sql-executor";
import { storableTextIssues } from "../storable-text";
import { maxFilterTextLength } from "../query-length";
import { whereEquals } from "../db/sql-where";
import { formatYearRange } from "../format";
import { shownDate } from "./date-values";
import { recordLanguages, recordMediaTypes } from "./record-list-params";

export const recordSorts = ["relevance", "mixed", "title", "-title", "updated", "-updated", "date", "-date"] as const;
export type RecordSort = (typeof recordSorts)[number];

const optionalText = (max: number) =>
  z.preprocess((value) => (typeof value === "string" && value.trim() === "" ? undefined : value), z.string().trim().max(max).optional());
const optionalYear = z.preprocess(
  (value) => (value === "" || value === null ? undefined : value),
  z.coerce.number({ error: "must be a year" }).int("must be a whole year").min(-10_000).max(3_000).optional(),
);

const optionalChoice = <const Values extends readonly [string, ...string[]]>(values: Values, message: string) =>
  z.preprocess((value) => (typeof value === "string" && value.trim() === "" ? undefined : value), z.enum(values, { error: message }).optional());
/** A linked record's id (person, place): an id no one can read lists nothing, like a missing one. */
const optionalRecordId = z.preprocess(
  (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
  z
    .string()
    .trim()
    .max(64, "must be a record id")
    .regex(/^[A-Za-z0-9_-]+$/, "must be a record id")
    .optional(),
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
    language: optionalChoice(recordLanguages, "must be one of en, es, ca, other or unknown"),
    media: optionalChoice(recordMediaTypes, "must be one of audio, video, image, document or none"),
    person: optionalRecordId,
    place: optionalRecordId,
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
  /** The years the record's first date covers (filters, facets, sort). */
  dateFrom: number | null;
  dateTo: number | null;
  /** That date as written ("c. 1850", "s. XVIII"), else in words; "" when undated. */
  dateText: string;
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
  // Each section's most recently updated record, then each one's second, and so on, sections in
  // their order: a total order over the filtered rows, so pages neither repeat nor skip a record.
  mixed: "row_number() OVER (PARTITION BY r.section_id ORDER BY r.updated_at DESC, r.id), s.position, s.id",
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

/** The value of the record's first date or date-range field that has one, as stored. */
const firstDateValueSql = `(SELECT r."values" -> (f->>'key') FROM jsonb_array_elements(s.fields) WITH ORDINALITY e(f, n)
   WHERE f->>'type' IN ('date', 'daterange') AND r."values" ? (f->>'key') ORDER BY n LIMIT 1)`;

/**
 * The words of a JSON value for the text filters: its strings and numbers, wherever they sit,
 * joined by spaces. Not the JSON's text: that holds the keys (`summary`, an authority link's
 * `uri` and `label`), which a filter would match in every record that has them, and escapes
 * (`\"`, `\n`) that a phrase with a quote mark or a line break would miss.
 */
const valueWordsSql = (json: string) =>
  `coalesce((SELECT string_agg(v #>> '{}', ' ') FROM jsonb_path_query(${json}, 'strict $.**') AS v WHERE jsonb_typeof(v) IN ('string', 'number')), '')`;

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** The filters a facet may leave out to count its own dimension under the others. */
export type ListFilter = "section" | "project" | "years" | "language" | "media" | "person" | "place";

/** The sections whose records are the person and place facets' values (relations to them, `record_links`). */
export const linkedFacetSections = { person: "people", place: "places" } as const;

/**
 * A record's language, for the language facet and filter: the record's own `language` value when
 * it names one of the archive's languages (en, es, ca) — as the indexer takes it
 * (build-group-document.ts); kept in the generated column `declared_language`, so the facet does
 * not read every record's values —, otherwise the language most of its indexed text is in: its
 * passages in the active index space, those the principal may read in full (a passage quoting a
 * restricted linked record does not vote), weighted by length, undetermined ones ("und") only
 * when there is nothing else. A record whose passages are mostly in another or no language is
 * "other"; a record with no passage yet is "unknown" (recordLanguages). Appends to `params`.
 */
export function recordLanguageSql(principal: Principal, params: unknown[]): string {
  const readable = passageScopeSql(principal, "c", params);
  return `coalesce(
      r.declared_language,
      (SELECT CASE WHEN c.language IN ('en', 'es', 'ca') THEN c.language ELSE 'other' END
         FROM chunks c JOIN index_spaces sp ON sp.id = c.index_space_id AND sp.status = 'active'
        WHERE c.record_id = r.id AND ${readable}
        GROUP BY c.language
        ORDER BY c.language = 'und', sum(length(c.text)) DESC, c.language
        LIMIT 1),
      'unknown')`;
}

/**
 * The media type of a media row `m` of a record in section `section`: its kind, except that a scan
 * field's page images (TIFF, JPEG, PNG) are a scanned document like a PDF.
 */
export function mediaTypeSql(section: "s" | "ms"): string {
  return `CASE WHEN m.kind = 'document'
    OR (m.kind = 'image' AND ${section}.fields @> jsonb_build_array(jsonb_build_object('key', m.field_key, 'type', 'scan')))
  THEN 'document' ELSE m.kind::text END`;
}

/**
 * The records `r` links to in one section (people, places) that the principal may read: `from`
 * joins a link `l` to its target `t`, `where` ties it to `r` and to the readable projects. The
 * person and place facets count only these, so a linked record the principal cannot read is
 * neither a value nor a count, and filtering by its id lists nothing, as for an id that does not
 * exist. Appends to `params`.
 */
export function readableLinksSql(principal: Principal, params: unknown[], sectionSlug: string): { from: string; where: string } {
  params.push(sectionSlug);
  return {
    from: `record_links l JOIN records t ON t.id = l.target_id JOIN sections ts ON ts.id = t.section_id AND ts.slug = $${params.length}`,
    where: `l.source_id = r.id AND ${projectScopeSql(principal, "t.project_id", params)}`,
  };
}

/**
 * The list's WHERE clause: readable projects first (so every count is over readable records
 * only), a search's pinned hits, then the structured filters, less any named in `omit` (a facet
 * counts its own dimension under every other filter). Appends to `params`.
 */
export function listWhere(
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
      where.push(`unaccent(${valueWordsSql(`(${listedValuesSql} -> $${params.length})`)}) ILIKE ${pattern}`);
    } else {
      where.push(`unaccent(r.title || ' ' || ${valueWordsSql(listedValuesSql)}) ILIKE ${pattern}`);
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
  if (!omit.has("language") && query.language) {
    const language = recordLanguageSql(principal, params);
    params.push(query.language);
    where.push(`${language} = $${params.length}`);
  }
  if (!omit.has("media") && query.media === "none") {
    where.push(`NOT EXISTS (SELECT 1 FROM media m WHERE m.record_id = r.id)`);
  } else if (!omit.has("media") && query.media) {
    params.push(query.media);
    // One pass over the media (a semi-join), not a probe per listed record.
    where.push(`r.id IN (SELECT m.record_id FROM media m JOIN records mr ON mr.id = m.record_id JOIN sections ms ON ms.id = mr.section_id
                          WHERE ${mediaTypeSql("ms")} = $${params.length})`);
  }
  for (const facet of ["person", "place"] as const) {
    const id = query[facet];
    if (omit.has(facet) || !id) continue;
    const links = readableLinksSql(principal, params, linkedFacetSections[facet]);
    params.push(id);
    where.push(`EXISTS (SELECT 1 FROM ${links.from} WHERE ${links.where} AND t.id = $${params.length})`);
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
    date_value: unknown;
    total: number;
  }>(
    `SELECT r.id, r.title, r.project_id, p.name AS project_name, s.slug AS section_slug,
            s.name AS section_name, r.date_from, r.date_to, r.updated_at, ${listedValuesSql} AS "values",
            ${firstDateValueSql} AS date_value, count(*) OVER ()::int AS total
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
      dateText: shownDate(row.date_value) || formatYearRange(row.date_from, row.date_to),
      updatedAt: new Date(row.updated_at),
      values: row.values,
    })),
    total,
    page: query.page,
    pageSize: query.pageSize,
    pageCount: Math.max(1, Math.ceil(total / query.pageSize)),
  };
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
  const arrived = [`r.created_at > ${since}`, `r.moved_at > ${since}`];
  if (principal.role !== "admin") {
    // Records of a project the user joined since: readable now, not at the last visit. (An admin reads every project whatever they join.)
    params.push(principal.userId);
    arrived.push(`r.project_id IN (SELECT m.project_id FROM memberships m WHERE m.user_id = $${params.length} AND m.created_at > ${since})`);
  }
  where.push(`(${arrived.join(" OR ")})`);
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
