"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { type FormEvent, useState, useTransition } from "react";
import { ProjectOptions, SectionOptions } from "@/components/select-options";

export interface FilterSection {
  slug: string;
  name: string;
  /** Fields a text search can be limited to. */
  searchFields: { key: string; label: string }[];
}

export interface FilterValues {
  section: string;
  project: string;
  field: string;
  text: string;
  from: string;
  to: string;
  sort: string;
  pageSize: string;
}

const sortOptions = [
  { value: "title", label: "Title, A–Z" },
  { value: "-title", label: "Title, Z–A" },
  { value: "date", label: "Date, earliest first" },
  { value: "-date", label: "Date, latest first" },
  { value: "-updated", label: "Recently updated" },
  { value: "updated", label: "Least recently updated" },
];
const pageSizes = ["10", "25", "50", "100"];
const defaults: Partial<FilterValues> = { sort: "title", pageSize: "25" };

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
  const searchFields = sections.find((section) => section.slug === sectionSlug)?.searchFields ?? [];

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const params = new URLSearchParams();
    for (const [name, value] of new FormData(event.currentTarget)) {
      if (typeof value === "string" && value.trim() !== "" && defaults[name as keyof FilterValues] !== value) params.set(name, value.trim());
    }
    const query = params.toString();
    startTransition(() => router.push(query ? `/records?${query}` : "/records"));
  };

  return (
    <form action="/records" method="get" onSubmit={submit} role="search" aria-label="Filter records" className="rounded-lg border border-stone-200 bg-white p-4">
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <label htmlFor="filter-section" className="field-label">
            Section
          </label>
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
        </div>
        <div>
          <label htmlFor="filter-project" className="field-label">
            Project
          </label>
          <select id="filter-project" name="project" defaultValue={values.project} className="field-input">
            <option value="">All projects</option>
            <ProjectOptions projects={projects} />
          </select>
        </div>
        <div>
          <label htmlFor="filter-text" className="field-label">
            Text
          </label>
          <input id="filter-text" name="text" type="search" defaultValue={values.text} maxLength={200} className="field-input" />
        </div>
        <div>
          <label htmlFor="filter-field" className="field-label">
            Search in
          </label>
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
        </div>
        <div className="flex gap-2">
          <div className="flex-1">
            <label htmlFor="filter-from" className="field-label">
              From year
            </label>
            <input id="filter-from" name="from" type="number" step={1} defaultValue={values.from} aria-describedby="filter-years-hint" className="field-input" />
          </div>
          <div className="flex-1">
            <label htmlFor="filter-to" className="field-label">
              To year
            </label>
            <input id="filter-to" name="to" type="number" step={1} defaultValue={values.to} aria-describedby="filter-years-hint" className="field-input" />
          </div>
        </div>
        <div>
          <label htmlFor="filter-sort" className="field-label">
            Sort by
          </label>
          <select id="filter-sort" name="sort" defaultValue={values.sort || "title"} className="field-input">
            {sortOptions.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="filter-page-size" className="field-label">
            Per page
          </label>
          <select id="filter-page-size" name="pageSize" defaultValue={pageSizes.includes(values.pageSize) ? values.pageSize : "25"} className="field-input">
            {pageSizes.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </div>
        <div className="flex items-end gap-3">
          <button type="submit" className="btn btn-primary" disabled={pending}>
            {pending ? "Filtering…" : "Apply filters"}
          </button>
          <Link href="/records" className="link text-sm">
            Reset
          </Link>
        </div>
      </div>
      <p id="filter-years-hint" className="field-hint">
        Years overlap the record&apos;s date; use negative years for BC.
      </p>
    </form>
  );
}
