"use client";

import { SubmitButton } from "@/components/busy-button";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { type FormEvent, type ReactNode, useState, useSyncExternalStore, useTransition } from "react";
import { ProjectOptions, SectionOptions, TextOptions } from "@/components/select-options";
import { maxFilterTextLength, maxQueryLength } from "@/lib/query-length";
import type { RecordSort } from "@/lib/archive/list-records";
import {
  type RecordListParams,
  defaultRecordSort,
  recordLanguageLabels,
  recordLanguages,
  recordMediaTypeLabels,
  recordMediaTypes,
} from "@/lib/archive/record-list-params";
import type { SearchMode } from "@/lib/rag/search/search-archive";
import { LabelledField } from "@/components/labelled-field";

export interface FilterSection {
  slug: string;
  name: string;
  /** Fields a text search can be limited to. */
  searchFields: { key: string; label: string }[];
}

export interface FilterValues {
  q: string;
  mode: string;
  section: string;
  project: string;
  field: string;
  text: string;
  from: string;
  to: string;
  language: string;
  media: string;
  /** Set from the person and place facets; kept by the form as hidden fields. */
  person: string;
  place: string;
  sort: string;
  pageSize: string;
}

const sortOptions = [
  { value: "relevance", label: "Relevance (with a search)" },
  { value: "mixed", label: "A mix of sections, newest first" },
  { value: "title", label: "Title, A–Z" },
  { value: "-title", label: "Title, Z–A" },
  { value: "date", label: "Date, earliest first" },
  { value: "-date", label: "Date, latest first" },
  { value: "-updated", label: "Recently updated" },
  { value: "updated", label: "Least recently updated" },
] satisfies { value: RecordSort; label: string }[];
const pageSizes = ["10", "25", "50", "100"];
const defaults: Partial<FilterValues> = { pageSize: "25", mode: "hybrid" };
const modes = [
  { value: "hybrid", label: "Hybrid", hint: "meaning and words" },
  { value: "semantic", label: "Semantic", hint: "across languages" },
  { value: "keyword", label: "Keyword", hint: "words as typed" },
] satisfies { value: SearchMode; label: string; hint: string }[];

/**
 * The record list's filters. A plain GET form, so every filter lives in the URL and works
 * without JavaScript; with it, empty and default values are left out of the address and the
 * field choice follows the chosen section.
 */
export function RecordFiltersClient({
  sections,
  projects,
  values,
}: {
  sections: FilterSection[];
  projects: { id: string; name: string; restricted: boolean }[];
  values: FilterValues;
}) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [sectionSlug, setSectionSlug] = useState(values.section);
  const [field, setField] = useState(values.field);
  const [query, setQuery] = useState(values.q);
  const mode = modes.some((item) => item.value === values.mode) ? values.mode : "hybrid";
  // Relevance is the natural order of a search and meaningless without one; an order the user
  // did not choose follows whether there is a query.
  const [chosenSort, setChosenSort] = useState(values.sort);
  const sort = chosenSort && (chosenSort !== "relevance" || query.trim()) ? chosenSort : defaultRecordSort({ ...values, section: sectionSlug, q: query });
  const searchFields = sections.find((section) => section.slug === sectionSlug)?.searchFields ?? [];

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const params = new URLSearchParams();
    const form = new FormData(event.currentTarget);
    const hasQuery = String(form.get("q") ?? "").trim() !== "";
    const submitted = Object.fromEntries(
      [...form].filter((entry): entry is [string, string] => typeof entry[1] === "string" && entry[0] !== "sort"),
    ) as RecordListParams;
    for (const [name, value] of form) {
      if (typeof value !== "string" || value.trim() === "" || defaults[name as keyof FilterValues] === value) continue;
      // The default order (relevance with a search, a mix of sections with no filter, title otherwise) stays implicit.
      if (name === "sort" && (!chosenSort || value === defaultRecordSort(submitted))) continue;
      if (name === "mode" && !hasQuery) continue;
      params.set(name, value.trim());
    }
    const query = params.toString();
    startTransition(() => router.push(query ? `/records?${query}` : "/records"));
  };

  const wide = useWideScreen();
  const sectionField = (
    <LabelledField htmlFor="filter-section" label="Section" className={wide ? "flex items-center gap-2 whitespace-nowrap [&>label]:mb-0" : undefined}>
      <select
        id="filter-section"
        name="section"
        value={sectionSlug}
        onChange={(event) => {
          setSectionSlug(event.target.value);
          setField("");
        }}
        className="field-input"
      >
        <option value="">All sections</option>
        <SectionOptions sections={sections} />
      </select>
    </LabelledField>
  );
  const sortField = (
    <LabelledField htmlFor="filter-sort" label="Sort by" className={wide ? "flex items-center gap-2 whitespace-nowrap [&>label]:mb-0" : undefined}>
      <select id="filter-sort" name="sort" value={sort} onChange={(event) => setChosenSort(event.target.value)} className="field-input">
        {sortOptions
          .filter((option) => option.value !== "relevance" || query.trim() !== "")
          .map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
      </select>
    </LabelledField>
  );
  // Set filters the folded part holds (the section is among them on a phone, where it folds too).
  const folded = [
    values.project,
    values.text,
    values.from,
    values.to,
    values.language,
    values.media,
    values.person,
    values.place,
    ...(wide ? [] : [values.section]),
  ].filter(Boolean).length;

  return (
    <form
      action="/records"
      method="get"
      onSubmit={submit}
      role="search"
      aria-label="Search and filter records"
      className="space-y-3 rounded-lg border border-stone-200 bg-white p-4"
    >
      {/* The search box takes the whole row: a question is read whole before it is sent. */}
      <div className="flex items-end gap-2">
        <LabelledField className="min-w-0 flex-1" htmlFor="search-query" label="Search the archive">
          <input
            id="search-query"
            name="q"
            type="search"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            maxLength={maxQueryLength}
            placeholder="e.g. church bells moved to the new village"
            aria-describedby="search-query-hint"
            className="field-input text-base"
          />
        </LabelledField>
        <SubmitButton className="btn btn-primary" busy={pending} busyLabel="Searching…">
          Search
        </SubmitButton>
      </div>
      <div className="flex flex-wrap items-center gap-x-5 gap-y-2">
        <fieldset className="flex flex-wrap items-center gap-1" aria-describedby="search-query-hint">
          <legend className="sr-only">Match by</legend>
          <span aria-hidden="true" className="mr-1 hidden text-sm text-stone-600 sm:inline">
            Match by
          </span>
          {modes.map((item) => (
            <label
              key={item.value}
              title={item.hint}
              className="inline-flex cursor-pointer items-center gap-1.5 rounded-md border border-stone-300 px-2 py-1 text-sm has-checked:border-accent-700 has-checked:bg-accent-50"
            >
              <input type="radio" name="mode" value={item.value} defaultChecked={item.value === mode} className="accent-accent-700" />
              <span>
                {item.label} <span className="hidden text-xs text-stone-500 2xl:inline">({item.hint})</span>
              </span>
            </label>
          ))}
        </fieldset>
        {wide && sectionField}
        {wide && sortField}
      </div>
      <p id="search-query-hint" className="field-hint hidden sm:block">
        Search by meaning finds records that say the same thing in other words or in Spanish or Catalan. Leave it empty to browse with the filters.
        {query.length > maxQueryLength - 50 && ` ${maxQueryLength - query.length} characters left.`}
      </p>
      {values.person && <input type="hidden" name="person" value={values.person} />}
      {values.place && <input type="hidden" name="place" value={values.place} />}
      <FoldedFilters wide={wide} active={folded}>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {!wide && sectionField}
          <LabelledField htmlFor="filter-project" label="Project">
            <select id="filter-project" name="project" defaultValue={values.project} className="field-input">
              <option value="">All projects</option>
              <ProjectOptions projects={projects} />
            </select>
          </LabelledField>
          <LabelledField htmlFor="filter-language" label="Language">
            <select id="filter-language" name="language" defaultValue={values.language} className="field-input">
              <option value="">Any language</option>
              {recordLanguages.map((language) => (
                <option key={language} value={language}>
                  {recordLanguageLabels[language]}
                </option>
              ))}
            </select>
          </LabelledField>
          <LabelledField htmlFor="filter-media" label="Media">
            <select id="filter-media" name="media" defaultValue={values.media} className="field-input">
              <option value="">Any or none</option>
              {recordMediaTypes.map((media) => (
                <option key={media} value={media}>
                  {recordMediaTypeLabels[media]}
                </option>
              ))}
            </select>
          </LabelledField>
          <LabelledField htmlFor="filter-text" label="Contains text">
            <input id="filter-text" name="text" type="search" defaultValue={values.text} maxLength={maxFilterTextLength} className="field-input" />
          </LabelledField>
          <LabelledField htmlFor="filter-field" label="Search in">
            <select
              id="filter-field"
              name="field"
              value={field}
              onChange={(event) => setField(event.target.value)}
              disabled={searchFields.length === 0}
              aria-describedby={searchFields.length === 0 ? "filter-field-hint" : undefined}
              className="field-input"
            >
              <option value="">Any field</option>
              {searchFields.map((searchField) => (
                <option key={searchField.key} value={searchField.key}>
                  {searchField.label}
                </option>
              ))}
            </select>
            {searchFields.length === 0 && (
              <p id="filter-field-hint" className="field-hint">
                Choose a section to search one of its fields.
              </p>
            )}
          </LabelledField>
          <div className="flex gap-2">
            <LabelledField className="flex-1" htmlFor="filter-from" label="From year">
              <input
                id="filter-from"
                name="from"
                type="number"
                step={1}
                defaultValue={values.from}
                aria-describedby="filter-years-hint"
                className="field-input"
              />
            </LabelledField>
            <LabelledField className="flex-1" htmlFor="filter-to" label="To year">
              <input id="filter-to" name="to" type="number" step={1} defaultValue={values.to} aria-describedby="filter-years-hint" className="field-input" />
            </LabelledField>
          </div>
          {!wide && sortField}
          <LabelledField htmlFor="filter-page-size" label="Per page">
            <select id="filter-page-size" name="pageSize" defaultValue={pageSizes.includes(values.pageSize) ? values.pageSize : "25"} className="field-input">
              <TextOptions values={pageSizes} />
            </select>
          </LabelledField>
          <div className="flex items-end gap-3">
            <SubmitButton className="btn" busy={pending} busyLabel="Filtering…">
              Apply filters
            </SubmitButton>
            <Link href="/records" className="link text-sm">
              Reset
            </Link>
          </div>
        </div>
        <p id="filter-years-hint" className="field-hint">
          Years overlap the record&apos;s date; use negative years for BC.
        </p>
      </FoldedFilters>
    </form>
  );
}

/**
 * The filters a search rarely needs, folded under the search box so the results start on the
 * first screen: "More filters" beside the section and the order on a wide screen, "Filters"
 * (everything but the question and how it matches) on a phone. Folded, a set filter still shows:
 * the summary counts it, and the line above the results names it with a link that removes it.
 */
function FoldedFilters({ wide, active, children }: { wide: boolean; active: number; children: ReactNode }) {
  const [unfolded, setUnfolded] = useState(false);
  const label = wide ? "More filters" : "Filters";
  return (
    <details open={unfolded} onToggle={(event) => setUnfolded(event.currentTarget.open)} data-testid="filters-drawer">
      <summary className="cursor-pointer text-sm font-medium text-accent-900 hover:underline">
        {unfolded ? `Hide ${label.toLowerCase()}` : label}
        {active > 0 && ` (${active} set)`}
      </summary>
      <div className="mt-3 space-y-4">{children}</div>
    </details>
  );
}

const wideQuery = "(min-width: 640px)";

function subscribeWide(onChange: () => void): () => void {
  const query = window.matchMedia(wideQuery);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

/** Whether the screen is wider than a phone (640 px); the server renders the wide layout. */
export function useWideScreen(): boolean {
  return useSyncExternalStore(
    subscribeWide,
    () => window.matchMedia(wideQuery).matches,
    () => true,
  );
}
