import { Suspense } from "react";
import type { Metadata } from "next";
import Link from "next/link";
import { canCreateRecords, isAdmin } from "@/lib/acl";
import { citationFiles, citationFormats, citeSelectionHref } from "@/lib/archive/citation-formats";
import { ead3Href } from "@/lib/archive/finding-aids/links";
import { SelectRecordClient, SelectionBarClient } from "@/components/record-selection-client";
import { readMatchThresholds } from "@/lib/rag/ask/ask-settings";
import { type MatchStrength, type MatchThresholds, describeMatch } from "@/lib/rag/search/match-strength";
import { recordLanguageLabels, recordListHref, recordMediaTypeLabels } from "@/lib/archive/record-list-params";
import type { RecordFacets } from "@/lib/archive/record-facets";
import { authorizedPage } from "@/lib/http/authorized";
import { SystemNotice } from "@/components/system-notice";
import {
  type RecordListParams,
  listCellText,
  listColumnsOf,
  loadRecordListView,
  readRecordListParams,
  searchFieldsOf,
} from "@/lib/rag/search/record-list-view";
import { recordListExportMaxRows } from "@/lib/rag/search/export-record-list";
import type { ResolvedSearch } from "@/lib/rag/search/resolve-search";
import type { SearchHit, SearchMode } from "@/lib/rag/search/search-archive";
import { citationHref, formatTimecode, recordHref } from "@/components/format";
import { HighlightedSnippet } from "@/components/highlighted-snippet";
import { LockIcon } from "@/components/lock-icon";
import { NewRecordPicker } from "@/components/new-record-picker";
import { Facets } from "./facets";
import { FacetsPanelClient } from "./facets-panel-client";
import { type FilterSection, type FilterValues, RecordFiltersClient } from "./records-client";
import { SaveSearchClient } from "./save-search-client";

export const metadata: Metadata = { title: "Records" };

const hrefWith = recordListHref;

export default async function RecordsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = readRecordListParams(await searchParams);
  const { principal, runtime } = await authorizedPage(hrefWith(params));
  const { prisma, sql } = runtime.database;
  const { sections, projects, section, query, mode, problem, searchProblem, search, result, coverage, facets, mixed } = await loadRecordListView(
    { prisma, sql, searchContext: runtime.search },
    principal,
    params,
  );

  const columns = listColumnsOf(section);
  const showFacets = Boolean(facets && result && result.total > 0);
  const thresholds = search ? await readMatchThresholds(sql) : { good: 0, strong: 0 };
  const restricted = new Set(projects.filter((project) => project.restricted).map((project) => project.id));
  const filterSections: FilterSection[] = sections.map((item) => ({ slug: item.slug, name: item.name, searchFields: searchFieldsOf(item) }));
  const filterValues: FilterValues = {
    q: params.q ?? "",
    mode: params.mode ?? "",
    section: params.section ?? "",
    project: params.project ?? "",
    field: params.field ?? "",
    text: params.text ?? "",
    from: params.from ?? "",
    to: params.to ?? "",
    language: params.language ?? "",
    media: params.media ?? "",
    person: params.person ?? "",
    place: params.place ?? "",
    sort: params.sort ?? "",
    pageSize: params.pageSize ?? "",
  };

  return (
    // A column whose facets, export links and selection bar move below the results on a phone
    // (order-last), so the results start on the first screen; in place from 640 px.
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold sm:text-3xl">{section ? section.name : "Records"}</h1>
          {/* Left out on a phone, where it would push the results off the first screen. */}
          {section?.description && <p className="mt-1 hidden max-w-prose text-sm text-stone-600 sm:block">{section.description}</p>}
        </div>
        {canCreateRecords(principal) &&
          (section ? (
            <Link href={`/records/new?section=${encodeURIComponent(section.slug)}`} className="btn btn-primary">
              New record
            </Link>
          ) : (
            <NewRecordPicker sections={sections} />
          ))}
      </div>
      {/* What a missing package costs a search, said here to everyone but administrators (they see it on every page). */}
      {!isAdmin(principal) && (
        <Suspense fallback={null}>
          <SystemNotice principal={principal} />
        </Suspense>
      )}

      {/* Keyed by the list's address so a navigation starts each client fresh; the two keys differ,
          as siblings' keys must (a shared key left the old form mounted and "Searching…"). */}
      <RecordFiltersClient key={`filters:${hrefWith(params)}`} sections={filterSections} projects={projects} values={filterValues} />

      {problem && (
        <p role="alert" className="notice-error">
          {problem}
        </p>
      )}

      {searchProblem && (
        <div role="alert" className="notice-error">
          <p>{searchProblem.message}</p>
          {searchProblem.unavailable && mode !== "keyword" && (
            <p className="mt-1">
              <Link href={hrefWith(params, { mode: "keyword", page: undefined })} className="link">
                Search the words instead
              </Link>
            </p>
          )}
        </div>
      )}

      {/* Facets in a column beside the results once the page is wide enough (a container query:
          the docked Ask panel narrows it), above them otherwise, folded on a phone. */}
      <div className="@container">
        <div className="flex flex-col gap-5 @4xl:grid @4xl:grid-cols-[15rem_minmax(0,1fr)] @4xl:items-start @5xl:grid-cols-[17rem_minmax(0,1fr)]">
          {result && result.items.length > 0 && (
            // The facets come before the table in focus order: a keyboard user skips them in one
            // step (hidden until focused, like "Skip to content").
            <a
              href="#results"
              className="sr-only focus:not-sr-only focus:self-start focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:text-sm focus:shadow @4xl:col-span-2"
              data-testid="skip-to-results"
            >
              Skip to results
            </a>
          )}
          {showFacets && facets && (
            <FacetsPanelClient
              chosen={
                [params.section, params.project, params.language, params.media, params.person, params.place, params.from || params.to].filter(Boolean).length
              }
            >
              <Facets facets={facets} params={params} />
            </FacetsPanelClient>
          )}
          <div className={`flex min-w-0 flex-col gap-4 ${showFacets ? "@4xl:col-start-2" : "@4xl:col-span-2"}`}>
            <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
              <div className="min-w-0 flex-1 space-y-1">
                {search && (
                  <SearchSummary
                    query={query}
                    mode={mode}
                    hits={search.result.hits.length}
                    shown={result?.total ?? 0}
                    coverage={coverage}
                    rerank={search.result.rerank}
                  />
                )}
                {!search && result && result.total > 0 && (
                  <p className="text-sm text-stone-600" role="status">
                    {result.total.toLocaleString("en")} {result.total === 1 ? "record" : "records"}
                  </p>
                )}
                <ActiveFilters params={params} sections={filterSections} projects={projects} facets={facets} />
              </div>
              {!problem && <SaveSearchClient key={`save:${hrefWith(params)}`} params={params} />}
            </div>

            {search && search.result.hits.length === 0 && (
              <div className="notice text-center">
                <p className="font-medium text-stone-900">Nothing you can read matches “{query}”.</p>
                <p className="mt-1">
                  {mode !== "hybrid" ? (
                    <Link href={hrefWith(params, { mode: undefined, page: undefined })} className="link">
                      Try hybrid search (meaning and words)
                    </Link>
                  ) : (
                    "Try other words, another language, or fewer filters."
                  )}
                </p>
              </div>
            )}

            {result && result.total === 0 && !(search && search.result.hits.length === 0) && (
              <div className="notice text-center">
                <p className="font-medium text-stone-900">
                  {search ? `None of the ${search.result.hits.length} best matches fit these filters.` : "No records match these filters."}
                </p>
                <p className="mt-1">
                  <Link href="/records" className="link">
                    Reset the filters
                  </Link>
                </p>
              </div>
            )}

            {result && result.total > 0 && result.items.length === 0 && (
              <div className="notice">
                Page {result.page} is past the end of these results.{" "}
                <Link href={hrefWith(params, { page: String(result.pageCount) })} className="link">
                  Go to the last page ({result.pageCount})
                </Link>
              </div>
            )}

            {mixed && result && result.items.length > 0 && (
              <p className="text-sm text-stone-600" data-testid="mixed-order">
                Showing a mix of sections, the most recently updated of each in turn; sort or filter to change.
              </p>
            )}

            {result && result.items.length > 0 && (
              <>
                <SelectionBarClient pageIds={result.items.map((item) => item.id)} />
                <div id="results" tabIndex={-1} className="overflow-x-auto rounded-lg border border-stone-200 bg-white focus:outline-none">
                  <table className="w-full text-left text-sm">
                    <caption className="sr-only">
                      Records, page {result.page} of {result.pageCount}
                    </caption>
                    <thead className="border-b border-stone-200 bg-stone-100 text-xs uppercase tracking-wide text-stone-600">
                      <tr>
                        <th scope="col" className="w-8 py-2.5 pl-4 font-medium">
                          <span className="sr-only">Selected</span>
                        </th>
                        <th scope="col" className="px-4 py-2.5 font-medium">
                          Title
                        </th>
                        <th scope="col" className="hidden px-4 py-2.5 font-medium sm:table-cell">
                          Section
                        </th>
                        <th scope="col" className="hidden px-4 py-2.5 font-medium sm:table-cell">
                          Project
                        </th>
                        <th scope="col" className="hidden px-4 py-2.5 font-medium sm:table-cell">
                          Date
                        </th>
                        {columns.map((field) => (
                          <th key={field.key} scope="col" className="hidden px-4 py-2.5 font-medium sm:table-cell">
                            {field.label}
                          </th>
                        ))}
                      </tr>
                    </thead>
                    <tbody className="divide-y divide-stone-100">
                      {result.items.map((item) => (
                        <tr key={item.id} className="align-top hover:bg-stone-50">
                          <td className="py-2.5 pl-4">
                            <SelectRecordClient id={item.id} title={item.title} />
                          </td>
                          <th scope="row" className="px-4 py-2.5 font-normal">
                            <Link href={recordHref(item.id, { query: search ? query : null })} className="link font-medium">
                              {item.title}
                            </Link>
                            {/* On a phone the section, project and date columns fold under the title. */}
                            <p className="text-xs text-stone-500 sm:hidden">
                              {[item.sectionName, item.projectName, item.dateText].filter(Boolean).join(" · ")}
                              {restricted.has(item.projectId) && <LockIcon label="Restricted project" />}
                            </p>
                            {search?.byRecord.get(item.id) && <HitPassage hit={search.byRecord.get(item.id)!} thresholds={thresholds} query={query} />}
                          </th>
                          <td className="hidden px-4 py-2.5 text-stone-700 sm:table-cell">{item.sectionName}</td>
                          <td className="hidden px-4 py-2.5 text-stone-700 sm:table-cell">
                            <span className="inline-flex items-center gap-1">
                              {item.projectName}
                              {restricted.has(item.projectId) && <LockIcon label="Restricted project" />}
                            </span>
                          </td>
                          <td className="hidden whitespace-nowrap px-4 py-2.5 text-stone-700 sm:table-cell">{item.dateText}</td>
                          {columns.map((field) => (
                            <td key={field.key} className="hidden px-4 py-2.5 text-stone-700 sm:table-cell">
                              {listCellText(field, item.values[field.key])}
                            </td>
                          ))}
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
                <Pagination params={params} page={result.page} pageCount={result.pageCount} total={result.total} />
                <ExportLinks
                  params={params}
                  total={result.total}
                  maxRows={recordListExportMaxRows}
                  pageIds={result.items.map((item) => item.id)}
                  project={projects.find((project) => project.id === params.project)}
                />
              </>
            )}
          </div>
        </div>
      </div>
    </div>
  );
}

const modeNames: Record<SearchMode, string> = { hybrid: "meaning and words", semantic: "meaning", keyword: "words" };
const legNames = { meaning: "meaning", words: "words" } as const;

function SearchSummary({
  query,
  mode,
  hits,
  shown,
  coverage,
  rerank,
}: {
  query: string;
  mode: SearchMode;
  hits: number;
  shown: number;
  coverage?: { records: number; indexed: number };
  rerank: ResolvedSearch["result"]["rerank"];
}) {
  return (
    <div role="status" className="space-y-1 text-sm text-stone-600">
      <p>
        {hits === 0 ? "No matches" : `The ${hits} best ${hits === 1 ? "match" : "matches"}`} for “<span className="font-medium text-stone-900">{query}</span>”
        by {modeNames[mode]}
        {hits > 0 && shown !== hits && `, ${shown} within these filters`}
        <span className="hidden sm:inline">, in order of relevance unless sorted otherwise</span>.
      </p>
      {coverage && coverage.indexed < coverage.records && (
        <p>
          Search covers {coverage.indexed} of {coverage.records} records; the rest are still being indexed.
        </p>
      )}
      {rerank.note && <p>{rerank.note}</p>}
    </div>
  );
}

/**
 * "Within: Section Oral histories ×, 2000–2001 ×": every filter the list stands under, each a link
 * that removes it, so a filter folded out of sight (or set from a facet) is never forgotten.
 */
function ActiveFilters({
  params,
  sections,
  projects,
  facets,
}: {
  params: RecordListParams;
  sections: FilterSection[];
  projects: { id: string; name: string }[];
  facets: RecordFacets | null | undefined;
}) {
  const labelOf = (values: { value: string; label: string }[] | undefined, value: string) => values?.find((item) => item.value === value)?.label;
  const section = sections.find((item) => item.slug === params.section);
  const field = section?.searchFields.find((item) => item.key === params.field);
  const years = params.from && params.to ? `${params.from}–${params.to}` : params.from ? `from ${params.from}` : params.to ? `until ${params.to}` : "";
  const chips: { key: string; label: string; clear: Partial<RecordListParams> }[] = [
    params.section ? { key: "section", label: `Section: ${section?.name ?? params.section}`, clear: { section: undefined, field: undefined } } : null,
    params.project
      ? { key: "project", label: `Project: ${projects.find((item) => item.id === params.project)?.name ?? "not readable"}`, clear: { project: undefined } }
      : null,
    params.language
      ? {
          key: "language",
          label: `Language: ${recordLanguageLabels[params.language as keyof typeof recordLanguageLabels] ?? params.language}`,
          clear: { language: undefined },
        }
      : null,
    params.media
      ? {
          key: "media",
          label: `Media: ${recordMediaTypeLabels[params.media as keyof typeof recordMediaTypeLabels] ?? params.media}`,
          clear: { media: undefined },
        }
      : null,
    params.person
      ? { key: "person", label: `Person: ${labelOf(facets?.people.values, params.person) ?? "the chosen person"}`, clear: { person: undefined } }
      : null,
    params.place ? { key: "place", label: `Place: ${labelOf(facets?.places.values, params.place) ?? "the chosen place"}`, clear: { place: undefined } } : null,
    years ? { key: "years", label: `Years ${years}`, clear: { from: undefined, to: undefined } } : null,
    params.text
      ? { key: "text", label: `${field ? `${field.label} contains` : "Contains"} “${params.text}”`, clear: { text: undefined, field: undefined } }
      : null,
  ].filter((chip) => chip !== null);
  if (chips.length === 0) return null;
  return (
    <ul aria-label="Filters in use" className="flex flex-wrap items-center gap-1.5 text-sm" data-testid="active-filters">
      {chips.map((chip) => (
        <li key={chip.key}>
          <Link
            href={hrefWith(params, { ...chip.clear, page: undefined })}
            className="inline-flex items-center gap-1 rounded-full border border-stone-300 bg-white px-2.5 py-0.5 text-stone-800 hover:border-accent-700"
          >
            {/* Named by its text, not aria-label, so "Section" still labels only the section's field. */}
            <span className="sr-only">Remove the filter </span>
            {chip.label}
            <span aria-hidden="true" className="text-stone-500">
              ×
            </span>
          </Link>
        </li>
      ))}
      {chips.length > 1 && (
        <li>
          <Link href={hrefWith({ q: params.q, mode: params.mode })} className="link ml-1">
            Remove all
          </Link>
        </li>
      )}
    </ul>
  );
}

const strengthBars: Record<MatchStrength, number> = { strong: 3, good: 2, weak: 1, words: 0 };

function HitPassage({ hit, thresholds, query }: { hit: SearchHit; thresholds: MatchThresholds; query: string }) {
  const { passage } = hit;
  const where = [passage.groupLabel, ...passage.headingPath.filter((heading) => heading !== passage.groupLabel)].join(" › ");
  const match = describeMatch(hit, thresholds);
  return (
    <div className="mt-1.5 max-w-prose space-y-1 text-sm text-stone-700" data-testid="search-hit">
      <p>
        <HighlightedSnippet snippet={passage.snippet} lang={passage.language} />
      </p>
      {passage.translation && (
        <p className="text-stone-500">
          <span className="sr-only">Translation: </span>
          <span aria-hidden="true">EN: </span>
          <HighlightedSnippet snippet={passage.translation} lang="en" />
        </p>
      )}
      <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-stone-500">
        <span className="inline-flex items-center gap-1.5" title={match.explanation} data-testid="match-strength" data-strength={match.strength}>
          {match.strength !== "words" && (
            <span aria-hidden="true" className="inline-flex items-end gap-px">
              {[1, 2, 3].map((bar) => (
                <span
                  key={bar}
                  className={`inline-block w-1 rounded-sm ${bar <= strengthBars[match.strength] ? "bg-accent-700" : "bg-stone-300"}`}
                  style={{ height: `${3 + bar * 3}px` }}
                />
              ))}
            </span>
          )}
          {match.label}
          <span className="sr-only">: {match.explanation}</span>
        </span>
        <span>Found by {hit.legs.map((leg) => legNames[leg]).join(" and ")}</span>
        {where && <span>{where}</span>}
        {passage.page !== null && (
          <Link href={citationHref({ recordId: hit.recordId, chunkId: passage.chunkId, timeStart: null, query })} className="link">
            p. {passage.pageEnd && passage.pageEnd !== passage.page ? `${passage.page}–${passage.pageEnd}` : passage.page}
          </Link>
        )}
        {passage.timeStart !== null && (
          <Link href={recordHref(hit.recordId, { time: passage.timeStart, query })} className="link">
            Play from {formatTimecode(passage.timeStart)}
          </Link>
        )}
      </p>
    </div>
  );
}

/**
 * "Export: Listed columns CSV · JSON, All fields CSV · JSON" of the list as it stands (its search,
 * filters and sort; every page, up to the limit; all fields the reader may read); with a project chosen, the whole project as an EAD3 finding aid.
 */
function ExportLinks({
  params,
  total,
  maxRows,
  pageIds,
  project,
}: {
  params: RecordListParams;
  total: number;
  maxRows: number;
  pageIds: string[];
  project?: { slug: string; name: string };
}) {
  const href = (format: string, columns: "listed" | "all" = "listed") => {
    const search = new URLSearchParams({ format, ...(columns === "all" ? { columns } : {}) });
    for (const [name, value] of Object.entries(params)) if (value && name !== "page" && name !== "pageSize") search.set(name, value);
    return `/api/records/export?${search.toString()}`;
  };
  return (
    <nav aria-label="Export this list" className="flex flex-wrap items-center gap-x-2 text-sm text-stone-600" data-testid="export-links">
      <span>
        Export{" "}
        {total > maxRows
          ? `the first ${maxRows.toLocaleString("en")} of ${total.toLocaleString("en")} records`
          : `${total === 1 ? "this record" : `these ${total.toLocaleString("en")} records`}`}
        :
      </span>
      <span>Listed columns</span>
      <a href={href("csv")} download className="link">
        CSV
      </a>
      <span aria-hidden="true">·</span>
      <a href={href("json")} download className="link">
        JSON
      </a>
      <span className="ml-2">All fields</span>
      <a href={href("csv", "all")} download className="link" aria-label="All fields as CSV" data-testid="export-all-csv">
        CSV
      </a>
      <span aria-hidden="true">·</span>
      <a href={href("json", "all")} download className="link" aria-label="All fields as JSON">
        JSON
      </a>
      <span className="ml-3">Cite this page&apos;s records:</span>
      {citationFormats.map((format, index) => (
        <span key={format}>
          {index > 0 && <span aria-hidden="true">· </span>}
          <a
            href={citeSelectionHref(
              format,
              pageIds.map((recordId) => ({ recordId })),
            )}
            download
            className="link"
          >
            {citationFiles[format].label}
          </a>
        </span>
      ))}
      {project && (
        <>
          <span className="ml-3">Finding aid of the project:</span>
          <a href={ead3Href(project.slug)} download className="link" aria-label={`Download the finding aid of ${project.name} as EAD3`}>
            EAD3
          </a>
        </>
      )}
    </nav>
  );
}

function Pagination({ params, page, pageCount, total }: { params: RecordListParams; page: number; pageCount: number; total: number }) {
  const link = (target: number, label: string, rel?: string) =>
    target >= 1 && target <= pageCount && target !== page ? (
      <Link href={hrefWith(params, { page: String(target) })} rel={rel} className="btn">
        {label}
      </Link>
    ) : (
      <span aria-disabled="true" className="btn pointer-events-none opacity-50">
        {label}
      </span>
    );
  return (
    <nav aria-label="Pagination" className="flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-stone-600">
        Page {page} of {pageCount} · {total} {total === 1 ? "record" : "records"}
      </p>
      <div className="flex gap-2">
        {link(1, "First")}
        {link(page - 1, "Previous", "prev")}
        {link(page + 1, "Next", "next")}
        {link(pageCount, "Last")}
      </div>
    </nav>
  );
}
