import { listRecordsQuerySchema, recordSorts } from "../../archive/list-records";
import { AppError, zodFieldErrors } from "../../errors";
import { maxQueryLength } from "../../query-length";
import { unstorableTextProblem } from "../../storable-text";
import { type RecordListParams, recordListParamNames } from "./record-list-view";
import { searchModes } from "./search-archive";

/** The list parameters a saved search keeps: all of them but the paging (page, pageSize). */
export const savedSearchParamNames = recordListParamNames.filter((name) => name !== "page" && name !== "pageSize");
export type SavedSearchParamName = (typeof savedSearchParamNames)[number];
export type SavedSearchParams = Partial<Record<SavedSearchParamName, string>>;

/** The parameters normaliseSavedSearchParams and describeSavedSearch treat one by one; any other is a filter kept as the list's schema parsed it. */
const handledNames = new Set<string>(["q", "mode", "section", "project", "field", "text", "from", "to", "sort"]);

/** The longest value of a list parameter the list's schema does not bound itself. */
const maxOtherValueLength = 200;

/**
 * The record list's state as a saved search keeps it: one canonical form for one list, so the
 * same search saved twice is the same params, and its link opens exactly that list on page 1.
 * The first value of each kept parameter, trimmed, blanks dropped; the filters validated by the
 * list's own schema (a search the list would refuse cannot be saved: bad_request naming the
 * fields); defaults dropped (mode "hybrid", the sort the list would choose anyway); a mode
 * without a query dropped (it means nothing); a field without text dropped (the list only
 * searches a field for text); years as whole numbers; the page and page size never kept.
 */
export function normaliseSavedSearchParams(input: Record<string, unknown>): SavedSearchParams {
  const raw: Record<string, string> = {};
  const fieldErrors: Record<string, string[]> = {};
  for (const name of savedSearchParamNames) {
    const value = Array.isArray(input[name]) ? (input[name] as unknown[])[0] : input[name];
    if (value === undefined || value === null) continue;
    if (typeof value !== "string" && typeof value !== "number") {
      fieldErrors[name] = ["Must be text."];
      continue;
    }
    const text = String(value).trim();
    const problem = unstorableTextProblem(text);
    if (problem) fieldErrors[name] = [`${problem[0]!.toUpperCase()}${problem.slice(1)}.`];
    else if (text !== "") raw[name] = text;
  }
  if (raw.q !== undefined && raw.q.length > maxQueryLength) fieldErrors.q = [`A search can be at most ${maxQueryLength} characters long.`];
  const parsed = listRecordsQuerySchema.safeParse(raw);
  if (!parsed.success) Object.assign(fieldErrors, zodFieldErrors(parsed.error.issues));
  for (const name of savedSearchParamNames) {
    if (!handledNames.has(name) && (raw[name]?.length ?? 0) > maxOtherValueLength) fieldErrors[name] = [`At most ${maxOtherValueLength} characters.`];
  }
  if (Object.keys(fieldErrors).length > 0 || !parsed.success) {
    throw new AppError("bad_request", "This search cannot be saved: some of its filters are not valid.", { fieldErrors });
  }

  const query = parsed.data as Record<string, unknown>;
  const params: SavedSearchParams = {};
  const q = raw.q;
  for (const name of savedSearchParamNames) {
    let value: string | undefined;
    switch (name) {
      case "q":
        value = q;
        break;
      case "mode":
        value = q && raw.mode !== "hybrid" && searchModes.some((mode) => mode === raw.mode) ? raw.mode : undefined;
        break;
      case "field":
        value = parsed.data.text ? parsed.data.field : undefined;
        break;
      case "sort": {
        // The list sorts a search by relevance and anything else by title unless told otherwise,
        // and "relevance" without a search is the title order.
        const sort = recordSorts.find((item) => item === raw.sort);
        value = sort && sort !== (q ? "relevance" : "title") && !(sort === "relevance" && !q) ? sort : undefined;
        break;
      }
      default: {
        // Section, project, text, years and any filter the list's schema knows: as it parsed them.
        const parsedValue = handledNames.has(name) || name in query ? query[name] : raw[name];
        value = parsedValue === undefined || parsedValue === null || parsedValue === "" ? undefined : String(parsedValue);
      }
    }
    if (value !== undefined) params[name] = value;
  }
  return params;
}

/** The record list's link for saved params: the list opens on its first page. */
export function savedSearchHref(params: SavedSearchParams | RecordListParams): string {
  const search = new URLSearchParams();
  for (const name of savedSearchParamNames) {
    const value = params[name];
    if (value !== undefined && value !== "") search.set(name, value);
  }
  const query = search.toString();
  return query ? `/records?${query}` : "/records";
}

/**
 * Stored params read back: only the kept names, only strings. The table holds what
 * normaliseSavedSearchParams wrote, but a column of JSON is read as if it could hold anything.
 */
export function readSavedSearchParams(stored: unknown): SavedSearchParams {
  const params: SavedSearchParams = {};
  if (!stored || typeof stored !== "object" || Array.isArray(stored)) return params;
  for (const name of savedSearchParamNames) {
    const value = (stored as Record<string, unknown>)[name];
    if (typeof value === "string" && value !== "") params[name] = value;
  }
  return params;
}

const modeWords: Record<string, string> = { semantic: "by meaning", keyword: "by words" };
const sortWords: Record<string, string> = {
  relevance: "by relevance",
  title: "by title",
  "-title": "by title, Z to A",
  updated: "least recently updated first",
  "-updated": "most recently updated first",
  date: "oldest first",
  "-date": "newest first",
};

/**
 * A saved search in words, for its row on /account/searches: the query, then each filter.
 * `names` turns a section slug or project id into its name (a project the user can no longer
 * read is named by what the caller passes: the id is not shown).
 */
export function describeSavedSearch(params: SavedSearchParams, names: { section?: (slug: string) => string; project?: (id: string) => string } = {}): string {
  const parts: string[] = [];
  if (params.q) parts.push(`“${params.q}”${params.mode ? ` ${modeWords[params.mode] ?? ""}`.trimEnd() : ""}`);
  if (params.section) parts.push(`in ${names.section ? names.section(params.section) : params.section}`);
  if (params.project) parts.push(`project ${names.project ? names.project(params.project) : params.project}`);
  if (params.text) parts.push(`${params.field ? `${params.field} contains` : "contains"} “${params.text}”`);
  if (params.from && params.to) parts.push(params.from === params.to ? `year ${params.from}` : `years ${params.from}–${params.to}`);
  else if (params.from) parts.push(`from ${params.from}`);
  else if (params.to) parts.push(`up to ${params.to}`);
  for (const name of savedSearchParamNames) {
    if (!handledNames.has(name) && params[name]) parts.push(`${name} ${params[name]}`);
  }
  if (params.sort) parts.push(sortWords[params.sort] ?? params.sort);
  return parts.length > 0 ? parts.join(" · ") : "Every record";
}
