import "server-only";
import type { Principal } from "../../acl";
import { authorityLabels } from "../../archive/authority-text";
import { shownDate } from "../../archive/date-values";
import type { FieldDefinition } from "../../archive/field-definitions";
import { type ProjectSummary, listReadableProjects } from "../../archive/list-projects";
import { type ListRecordsQuery, type RecordListPage, listRecords, listRecordsQuerySchema } from "../../archive/list-records";
import { type RecordListParams, defaultRecordSort, recordListParamNames } from "../../archive/record-list-params";
import { type RecordFacets, recordFacets } from "../../archive/record-facets";
import { type SectionSummary, getSectionBySlugCached, listSectionsCached } from "../../archive/sections";
import type { PrismaClient } from "../../db/generated/client";
import type { SqlExecutor } from "../../db/sql-executor";
import { isAppError } from "../../errors";
import { type IndexCoverage, readableIndexCoverage } from "../index/index-coverage";
import { type ResolvedSearch, resolveRecordSearch } from "./resolve-search";
import { type SearchContext, type SearchMode, searchModes } from "./search-archive";

export { recordListParamNames, type RecordListParams } from "../../archive/record-list-params";

/** The list's state from a URL's query: the first value of each known parameter, blanks dropped. */
export function readRecordListParams(query: Record<string, string | string[] | undefined>): RecordListParams {
  const params: RecordListParams = {};
  for (const name of recordListParamNames) {
    const raw = query[name];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (value !== undefined && value.trim() !== "") params[name] = value;
  }
  return params;
}

export interface RecordListViewDeps {
  prisma: PrismaClient;
  sql: SqlExecutor;
  /** Asked for only when there is a query to search (it may load a model). */
  searchContext(): Promise<SearchContext>;
}

/** What the record list page renders: the filters' choices, and a problem, a search, a page of records or both. */
export interface RecordListView {
  sections: SectionSummary[];
  /** The projects the principal may read. */
  projects: ProjectSummary[];
  /** The section chosen in the filters. */
  section?: SectionSummary;
  query: string;
  mode: SearchMode;
  /** The filters are not valid (the message names the fields); nothing was listed. */
  problem?: string;
  /** The search failed (e.g. no model for meaning); nothing was listed. */
  searchProblem?: { message: string; unavailable: boolean };
  search?: ResolvedSearch;
  result?: RecordListPage;
  /** Counts per section, project, decade, language, media type, person and place under the query and the other filters (readable records only). */
  facets?: RecordFacets;
  /** The list is in the default mixed order (each section's newest in turn), not a chosen one. */
  mixed?: boolean;
  /** With a search: how many of the records the principal may read are indexed. */
  coverage?: IndexCoverage;
}

const searchableTypes = new Set<FieldDefinition["type"]>(["text", "longtext", "category", "transcript", "segments", "authority"]);

/** The fields of a section the list's text filter can search in (authority links by label and URI). */
export function searchFieldsOf(section: SectionSummary): { key: string; label: string }[] {
  return section.fields.filter((field) => searchableTypes.has(field.type)).map((field) => ({ key: field.key, label: field.label }));
}

const queryLabels: Record<string, string> = {
  from: "From year",
  to: "To year",
  text: "Text",
  section: "Section",
  project: "Project",
  field: "Search in",
  language: "Language",
  media: "Media",
  person: "Person",
  place: "Place",
};

function describeQueryIssues(issues: { path: PropertyKey[]; message: string }[]): string {
  return issues
    .map((issue) => {
      const name = String(issue.path[0] ?? "");
      // Refinements carry a whole sentence; type errors a fragment that needs its field.
      return /^[A-Z]/.test(issue.message) ? issue.message : `${queryLabels[name] ?? name}: ${issue.message}.`;
    })
    .join(" ");
}

/** The columns the list shows for a section beyond title, section, project and date: its listed fields of plain types. */
export function listColumnsOf(section: SectionSummary | undefined): FieldDefinition[] {
  const titleKey = section?.fields.find((field) => field.type === "text")?.key;
  return section?.fields.filter((field) => field.listed && field.key !== titleKey && columnTypes.has(field.type)) ?? [];
}

const columnTypes = new Set<FieldDefinition["type"]>(["text", "category", "date", "daterange", "authority"]);

/** A column's cell as the list shows it: dates and ranges as written (else in words), authority links by label, text as it is. */
export function listCellText(field: FieldDefinition, value: unknown): string {
  if (field.type === "date" || field.type === "daterange") return shownDate(value);
  if (field.type === "authority") return authorityLabels(value).join("; ");
  return typeof value === "string" ? value : "";
}

/**
 * The record list for one URL state, up to the listing: the filters validated, the section, and
 * the search resolved (its ranked record ids become a pinned filter and order). `listQuery` is
 * what listRecords then pages through — the page one page of it, an export all of it, in the
 * same order — and is absent when there is a problem to show instead.
 */
export async function resolveRecordList(
  deps: RecordListViewDeps,
  principal: Principal,
  params: RecordListParams,
): Promise<{ view: RecordListView; listQuery?: ListRecordsQuery }> {
  const { prisma } = deps;
  const [sections, projects] = await Promise.all([listSectionsCached(prisma), listReadableProjects(prisma, principal)]);
  const query = params.q?.trim() ?? "";
  const mode: SearchMode = searchModes.find((item) => item === params.mode) ?? "hybrid";
  const view: RecordListView = { sections, projects, query, mode };

  // Without a chosen order: relevance with a search, a mix of sections when nothing narrows the list.
  const listParams = params.sort ? params : { ...params, sort: defaultRecordSort(params) };
  const parsed = listRecordsQuerySchema.safeParse(listParams);
  if (!parsed.success) return { view: { ...view, problem: describeQueryIssues(parsed.error.issues) } };
  const listQuery = parsed.data;

  let section: SectionSummary | undefined;
  try {
    section = listQuery.section ? await getSectionBySlugCached(prisma, listQuery.section) : undefined;
  } catch (error) {
    if (!isAppError(error)) throw error;
    return { view: { ...view, problem: error.message } };
  }
  view.section = section;
  if (listQuery.field && !(section && searchFieldsOf(section).some((field) => field.key === listQuery.field))) {
    const problem = section
      ? `${section.name} has no searchable field called "${listQuery.field.slice(0, 64)}".`
      : "Choose a section to search one of its fields.";
    return { view: { ...view, problem } };
  }

  if (query) {
    try {
      view.search = await resolveRecordSearch(await deps.searchContext(), principal, {
        query,
        mode,
        sectionIds: section ? [section.id] : undefined,
        projectIds: listQuery.project ? [listQuery.project] : undefined,
      });
    } catch (error) {
      if (!isAppError(error)) throw error;
      view.searchProblem = { message: error.message, unavailable: error.code === "unavailable" };
      return { view };
    }
  }
  return { view, listQuery };
}

/**
 * The record list for one principal and one URL state: validate the filters, resolve a search,
 * list the page of readable records, and, with a search, the index coverage of what the
 * principal may read.
 */
export async function loadRecordListView(deps: RecordListViewDeps, principal: Principal, params: RecordListParams): Promise<RecordListView> {
  const { view, listQuery } = await resolveRecordList(deps, principal, params);
  if (listQuery) {
    view.result = await listRecords(deps.sql, principal, listQuery, { pinnedIds: view.search?.pinnedIds });
    view.facets = await recordFacets(deps.sql, principal, listQuery, { pinnedIds: view.search?.pinnedIds });
    view.mixed = listQuery.sort === "mixed";
  }
  if (view.search) view.coverage = await readableIndexCoverage(deps.sql, principal);
  return view;
}
