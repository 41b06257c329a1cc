import type { Metadata } from "next";
import Link from "next/link";
import { canCreateRecords } from "@/lib/acl";
import type { FieldDefinition } from "@/lib/archive/field-definitions";
import { listReadableProjects } from "@/lib/archive/list-projects";
import { type RecordListPage, listRecords, listRecordsQuerySchema } from "@/lib/archive/list-records";
import { type SectionSummary, getSectionBySlug, listSections } from "@/lib/archive/sections";
import { requirePrincipal } from "@/lib/auth/get-principal";
import { getDatabase } from "@/lib/db";
import { isAppError } from "@/lib/errors";
import { formatDateValue, formatYearRange } from "@/components/format";
import { LockIcon } from "@/components/lock-icon";
import { NewRecordPicker } from "@/components/new-record-picker";
import { type FilterSection, type FilterValues, RecordFiltersClient } from "./records-client";

export const metadata: Metadata = { title: "Records" };

const filterNames = ["section", "project", "field", "text", "from", "to", "sort", "page", "pageSize"] as const;
type Params = Partial<Record<(typeof filterNames)[number], string>>;

/** The list's state from the URL: first value of each known parameter, blanks dropped. */
function readParams(query: Record<string, string | string[] | undefined>): Params {
  const params: Params = {};
  for (const name of filterNames) {
    const raw = query[name];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (value !== undefined && value.trim() !== "") params[name] = value;
  }
  return params;
}

function hrefWith(params: Params, changes: Params = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...params, ...changes })) {
    if (value !== undefined && value !== "") search.set(name, value);
  }
  const query = search.toString();
  return query ? `/records?${query}` : "/records";
}

const searchableTypes = new Set<FieldDefinition["type"]>(["text", "longtext", "category", "transcript"]);
const columnTypes = new Set<FieldDefinition["type"]>(["text", "category", "date", "daterange"]);

function searchFieldsOf(section: SectionSummary) {
  return section.fields.filter((field) => searchableTypes.has(field.type)).map((field) => ({ key: field.key, label: field.label }));
}

const queryLabels: Record<string, string> = { from: "From year", to: "To year", text: "Text", section: "Section", project: "Project", field: "Search in" };

function describeQueryIssues(issues: { path: PropertyKey[]; message: string }[]): string {
  return issues
    .map((issue) => {
      const name = String(issue.path[0] ?? "");
      // Refinements carry a whole sentence; type errors a fragment that needs its field.
      return /^[A-Z]/.test(issue.message) ? issue.message : `${queryLabels[name] ?? name}: ${issue.message}.`;
    })
    .join(" ");
}

function cellValue(field: FieldDefinition, value: unknown): string {
  if (field.type === "date" && typeof value === "string") return formatDateValue(value);
  if (field.type === "daterange" && value && typeof value === "object") {
    const range = value as { from?: unknown; to?: unknown };
    return typeof range.from === "number" && typeof range.to === "number" ? formatYearRange(range.from, range.to) : "";
  }
  return typeof value === "string" ? value : "";
}

export default async function RecordsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = readParams(await searchParams);
  const principal = await requirePrincipal(hrefWith(params));
  const { prisma, sql } = await getDatabase();
  const [sections, projects] = await Promise.all([listSections(prisma), listReadableProjects(prisma, principal)]);

  let problem: string | undefined;
  let section: SectionSummary | undefined;
  let result: RecordListPage | undefined;
  const parsed = listRecordsQuerySchema.safeParse(params);
  if (!parsed.success) {
    problem = describeQueryIssues(parsed.error.issues);
  } else {
    const query = parsed.data;
    try {
      section = query.section ? await getSectionBySlug(prisma, query.section) : undefined;
    } catch (error) {
      if (!isAppError(error)) throw error;
      problem = error.message;
    }
    if (!problem && query.field && !(section && searchFieldsOf(section).some((field) => field.key === query.field))) {
      problem = section
        ? `${section.name} has no searchable field called "${query.field.slice(0, 64)}".`
        : "Choose a section to search one of its fields.";
    }
    if (!problem) result = await listRecords(sql, principal, query);
  }

  const titleKey = section?.fields.find((field) => field.type === "text")?.key;
  const columns = section?.fields.filter((field) => field.listed && field.key !== titleKey && columnTypes.has(field.type)) ?? [];
  const restricted = new Set(projects.filter((project) => project.restricted).map((project) => project.id));
  const filterSections: FilterSection[] = sections.map((item) => ({ slug: item.slug, name: item.name, searchFields: searchFieldsOf(item) }));
  const filterValues: FilterValues = {
    section: params.section ?? "",
    project: params.project ?? "",
    field: params.field ?? "",
    text: params.text ?? "",
    from: params.from ?? "",
    to: params.to ?? "",
    sort: params.sort ?? "",
    pageSize: params.pageSize ?? "",
  };

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-semibold">{section ? section.name : "Records"}</h1>
          {section?.description && <p className="mt-1 max-w-prose text-sm text-stone-600">{section.description}</p>}
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

      <RecordFiltersClient key={hrefWith(params)} sections={filterSections} projects={projects} values={filterValues} />

      {problem && (
        <p role="alert" className="notice-error">
          {problem}
        </p>
      )}

      {result && result.total === 0 && (
        <div className="notice text-center">
          <p className="font-medium text-stone-900">No records match these filters.</p>
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

      {result && result.items.length > 0 && (
        <>
          <div className="overflow-x-auto rounded-lg border border-stone-200 bg-white">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Records, page {result.page} of {result.pageCount}</caption>
              <thead className="border-b border-stone-200 bg-stone-100 text-xs uppercase tracking-wide text-stone-600">
                <tr>
                  <th scope="col" className="px-4 py-2.5 font-medium">Title</th>
                  <th scope="col" className="px-4 py-2.5 font-medium">Section</th>
                  <th scope="col" className="px-4 py-2.5 font-medium">Project</th>
                  <th scope="col" className="px-4 py-2.5 font-medium">Date</th>
                  {columns.map((field) => (
                    <th key={field.key} scope="col" className="px-4 py-2.5 font-medium">
                      {field.label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-stone-100">
                {result.items.map((item) => (
                  <tr key={item.id} className="hover:bg-stone-50">
                    <th scope="row" className="px-4 py-2.5 font-normal">
                      <Link href={`/records/${item.id}`} className="link font-medium">
                        {item.title}
                      </Link>
                    </th>
                    <td className="px-4 py-2.5 text-stone-700">{item.sectionName}</td>
                    <td className="px-4 py-2.5 text-stone-700">
                      <span className="inline-flex items-center gap-1">
                        {item.projectName}
                        {restricted.has(item.projectId) && <LockIcon label="Restricted project" />}
                      </span>
                    </td>
                    <td className="whitespace-nowrap px-4 py-2.5 text-stone-700">{formatYearRange(item.dateFrom, item.dateTo)}</td>
                    {columns.map((field) => (
                      <td key={field.key} className="px-4 py-2.5 text-stone-700">
                        {cellValue(field, item.values[field.key])}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pagination params={params} page={result.page} pageCount={result.pageCount} total={result.total} />
        </>
      )}
    </div>
  );
}

function Pagination({ params, page, pageCount, total }: { params: Params; page: number; pageCount: number; total: number }) {
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
