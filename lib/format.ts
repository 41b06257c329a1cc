/** Display formats shared by server pages, client components, the API and cited answers. Pure. */

/** A year, negative before the common era: -400 → "400 BC". */
export function formatYear(year: number): string {
  return year < 0 ? `${-year} BC` : String(year);
}

/** "1962", "400 BC – 380 BC"; empty when the record has no date. */
export function formatYearRange(from: number | null | undefined, to: number | null | undefined): string {
  if (from == null && to == null) return "";
  if (from == null || to == null || from === to) return formatYear((from ?? to) as number);
  // A range across the start of the era names both eras: "27 BC – AD 14".
  if (from < 0 && to > 0) return `${formatYear(from)} – AD ${to}`;
  return `${formatYear(from)} – ${formatYear(to)}`;
}

/** A position in a recording: "04:07", or "1:02:03" past the hour. */
export function formatTimecode(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = String(whole % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${String(minutes).padStart(2, "0")}:${rest}`;
}

const dateTimeFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** A moment, in UTC so server and browser render the same text. */
export function formatDateTime(date: Date): string {
  return `${dateTimeFormat.format(date)} UTC`;
}

/** "12.4 MB" */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** A record's page, opened from a search (`query`): the page marks the search's words. */
export function recordHref(recordId: string, options: { query?: string | null; time?: number | null } = {}): string {
  const params = new URLSearchParams();
  if (options.time != null) params.set("t", String(Math.floor(options.time)));
  if (options.query) params.set("q", options.query);
  const search = params.toString();
  return `/records/${recordId}${search ? `?${search}` : ""}`;
}

/** An age in seconds as "40 s", "12 min", "3 h"; "–" for none. */
export function formatAge(seconds: number | null): string {
  if (seconds === null) return "–";
  if (seconds < 90) return `${Math.round(seconds)} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3600)} h`;
}

/**
 * Where a citation opens: the record at the cited passage, and a recording at its timecode; with
 * the search it came from (`query`), whose words the record page marks.
 */
export function citationHref(citation: { recordId: string; chunkId: string; timeStart: number | null; query?: string }): string {
  const params = new URLSearchParams({ passage: citation.chunkId });
  if (citation.timeStart !== null) params.set("t", String(Math.floor(citation.timeStart)));
  if (citation.query) params.set("q", citation.query);
  return `/records/${citation.recordId}?${params.toString()}#cited-passage`;
}

/** Where a passage sits in its record: its embed group, then its headings ("Transcript › Part 2"). */
export function passageLocation(groupLabel: string, headingPath: readonly string[]): string {
  return [groupLabel, ...headingPath.filter((heading) => heading !== groupLabel)].join(" › ");
}

/** Where a passage points inside its source: pages of a document, seconds of a recording. */
export interface PassageSpan {
  page: number | null;
  pageEnd: number | null;
  timeStart: number | null;
  timeEnd: number | null;
}

/** A passage's span, as every citation (the panel's, the API's) carries it. */
export function passageSpan(passage: PassageSpan): PassageSpan {
  return { page: passage.page, pageEnd: passage.pageEnd, timeStart: passage.timeStart, timeEnd: passage.timeEnd };
}
