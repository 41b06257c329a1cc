import "server-only";
import type { Principal } from "../acl";
import type { SqlExecutor } from "../db/sql-executor";
import { type ListFilter, type ListRecordsQuery, linkedFacetSections, listWhere, mediaTypeSql, readableLinksSql, recordLanguageSql } from "./list-records";
import { recordLanguageLabels, recordLanguages, recordMediaTypeLabels, recordMediaTypes } from "./record-list-params";

/** One value of a facet: what the filter would be set to, its label, and how many records it keeps. */
export interface FacetValue {
  value: string;
  label: string;
  count: number;
}

/** A facet of linked records (people, places): the most frequent ones, and how many there are in all. */
export interface LinkedFacet {
  /** The `linkedFacetLimit` most linked, by count then name, and the chosen one wherever it ranks. */
  values: FacetValue[];
  /** How many different readable linked records the list's records link to. */
  distinct: number;
}

export interface RecordFacets {
  sections: FacetValue[];
  projects: FacetValue[];
  /** Decades of the records' start year ("1960" for 1960–1969), oldest first; undated records are not counted. */
  decades: FacetValue[];
  /** en, es, ca, other, unknown (recordLanguageSql), in that order, those with records only. */
  languages: FacetValue[];
  /** audio, video, image, document, none; a record with several kinds counts under each. */
  media: FacetValue[];
  people: LinkedFacet;
  places: LinkedFacet;
}

/** How many people and places a facet shows. */
export const linkedFacetLimit = 10;

type Row = { value: string; label: string; count: number };

/**
 * Counts for the list's facets under the current query and filters: each facet counts its own
 * dimension with every other filter applied (so picking a section shows how many records each
 * project holds within it), over readable records only — the same WHERE as the list, access
 * first, so a facet never counts a record the principal could not open. A search's pinned hits
 * are counted as the list shows them. People and places are records the list's records link to
 * that the principal may read: an unreadable person is neither named nor counted.
 */
export async function recordFacets(
  sql: SqlExecutor,
  principal: Principal,
  query: ListRecordsQuery,
  options: { pinnedIds?: readonly string[] } = {},
): Promise<RecordFacets> {
  /** `select` and `from` may append their own parameters after the WHERE's. */
  const counted = async (omit: ListFilter, shape: (params: unknown[]) => { select: string; from?: string; group: string; order: string }) => {
    const params: unknown[] = [];
    const { where } = listWhere(principal, query, params, { ...options, omit: [omit] });
    const { select, from = "", group, order } = shape(params);
    return sql.query<Row>(
      `SELECT ${select}
         FROM records r JOIN sections s ON s.id = r.section_id JOIN projects p ON p.id = r.project_id ${from}
        WHERE ${where.join(" AND ")}
        GROUP BY ${group} ORDER BY ${order}`,
      params,
    );
  };
  // Plain joins, each record counted once per value (a record may link one person twice, hold two images).
  const linked = (facet: "person" | "place") =>
    counted(facet, (params) => {
      const links = readableLinksSql(principal, params, linkedFacetSections[facet]);
      return {
        select: "t.id AS value, t.title AS label, count(DISTINCT r.id)::int AS count",
        from: `JOIN (${links.from}) ON ${links.where}`,
        group: "t.id, t.title",
        order: "count DESC, lower(t.title), t.id",
      };
    });
  const [sections, projects, decades, languages, media, people, places] = await Promise.all([
    counted("section", () => ({
      select: "s.slug AS value, s.name AS label, count(*)::int AS count",
      group: "s.slug, s.name, s.position",
      order: "s.position, s.name",
    })),
    counted("project", () => ({ select: "p.id AS value, p.name AS label, count(*)::int AS count", group: "p.id, p.name", order: "p.name" })),
    counted("years", () => ({
      select: "(floor(r.date_from / 10.0) * 10)::int::text AS value, '' AS label, count(*)::int AS count",
      group: "floor(r.date_from / 10.0)",
      order: "floor(r.date_from / 10.0)",
    })),
    counted("language", (params) => ({
      select: "x.language AS value, '' AS label, count(*)::int AS count",
      from: `CROSS JOIN LATERAL (SELECT ${recordLanguageSql(principal, params)} AS language) x`,
      group: "x.language",
      order: "x.language",
    })),
    counted("media", () => ({
      select: `coalesce(${mediaTypeSql("s")}, 'none') AS value, '' AS label, count(DISTINCT r.id)::int AS count`,
      from: "LEFT JOIN media m ON m.record_id = r.id",
      group: "1",
      order: "1",
    })),
    linked("person"),
    linked("place"),
  ]);
  const dated = decades.filter((decade) => decade.value !== null);
  return {
    sections,
    projects,
    decades: dated.map((decade) => ({ ...decade, label: decadeLabel(Number(decade.value)) })),
    languages: inOrder(languages, recordLanguages, recordLanguageLabels),
    media: inOrder(media, recordMediaTypes, recordMediaTypeLabels),
    people: mostLinked(people, query.person),
    places: mostLinked(places, query.place),
  };
}

/** A fixed facet's counted values in the facet's own order, with their labels. */
function inOrder<Value extends string>(rows: Row[], order: readonly Value[], labels: Record<Value, string>): FacetValue[] {
  const counts = new Map(rows.map((row) => [row.value, row.count]));
  return order.filter((value) => counts.has(value)).map((value) => ({ value, label: labels[value], count: counts.get(value)! }));
}

/** The most linked records (rows come by count, then name), and the chosen one wherever it ranks. */
export function mostLinked(rows: readonly FacetValue[], chosen: string | undefined, limit = linkedFacetLimit): LinkedFacet {
  const values = rows.slice(0, limit);
  const picked = chosen === undefined ? undefined : rows.find((row) => row.value === chosen);
  if (picked && !values.includes(picked)) values.push(picked);
  return { values, distinct: rows.length };
}

/** "1960s", and for years BC "330s BC" (the decade -330 … -321). */
export function decadeLabel(decade: number): string {
  return decade < 0 ? `${-decade}s BC` : `${decade}s`;
}
