/**
 * The record list's URL state as plain data, shared by the server (schema, listing, facets) and
 * the list's client components (filters, decade brush): no database, no secrets.
 */

/** The list's URL parameters (first value each, blanks dropped). */
export const recordListParamNames = [
  "q",
  "mode",
  "section",
  "project",
  "field",
  "text",
  "from",
  "to",
  "language",
  "media",
  "person",
  "place",
  "sort",
  "page",
  "pageSize",
] as const;
export type RecordListParams = Partial<Record<(typeof recordListParamNames)[number], string>>;

/** The parameters that narrow the list (a search's `q` aside). */
export const recordListFilterNames = ["section", "project", "field", "text", "from", "to", "language", "media", "person", "place"] as const;

/**
 * A record's language as the list counts it: the archive's three languages, "other" for a record
 * whose indexed passages are in another language or none that could be told, and "unknown" for a
 * record that has no indexed passage yet (lib/archive/list-records.ts, `recordLanguageSql`).
 */
export const recordLanguages = ["en", "es", "ca", "other", "unknown"] as const;
export type RecordLanguage = (typeof recordLanguages)[number];
export const recordLanguageLabels: Record<RecordLanguage, string> = {
  en: "English",
  es: "Spanish",
  ca: "Catalan",
  other: "Other or undetermined",
  unknown: "Not yet known (not indexed)",
};

/**
 * The kinds of media a record holds: a scan field's page images count as a scanned document like
 * a PDF; "none" is a record without media. A record with several kinds counts under each.
 */
export const recordMediaTypes = ["audio", "video", "image", "document", "none"] as const;
export type RecordMediaType = (typeof recordMediaTypes)[number];
export const recordMediaTypeLabels: Record<RecordMediaType, string> = {
  audio: "Audio",
  video: "Video",
  image: "Image",
  document: "Scanned document or PDF",
  none: "No media",
};

/**
 * The order of a list whose sort was not chosen: relevance with a search; a mix of sections
 * (each section's most recently updated first, taken in turn) when nothing narrows the list, so
 * the first page shows every collection rather than one catalogue; title otherwise.
 */
export function defaultRecordSort(params: RecordListParams): "relevance" | "mixed" | "title" {
  if (params.q?.trim()) return "relevance";
  return recordListFilterNames.some((name) => params[name]?.trim()) ? "title" : "mixed";
}

/** The list's address for `params` with `changes` applied (undefined or blank removes a parameter). */
export function recordListHref(params: RecordListParams, changes: RecordListParams = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...params, ...changes })) {
    if (value !== undefined && value !== "") search.set(name, value);
  }
  const query = search.toString();
  return query ? `/records?${query}` : "/records";
}

/** The decade a year falls in: 1965 → 1960, -325 → -330 (the decade -330 … -321). */
export function decadeOf(year: number): number {
  return Math.floor(year / 10) * 10;
}

/** The years from one decade to another, in either order, both whole: 1970 and 1950 → 1950–1979. */
export function decadeSpan(first: number, second: number): { from: number; to: number } {
  return { from: Math.min(first, second), to: Math.max(first, second) + 9 };
}

/** Whether a decade overlaps the years chosen (either end may be open); false when none are chosen. */
export function decadeChosen(decade: number, from: number | undefined, to: number | undefined): boolean {
  if (from === undefined && to === undefined) return false;
  return (from === undefined || decade + 9 >= from) && (to === undefined || decade <= to);
}
