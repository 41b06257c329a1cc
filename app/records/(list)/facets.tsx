import Link from "next/link";
import type { FacetValue, LinkedFacet, RecordFacets } from "@/lib/archive/record-facets";
import { type RecordListParams, recordListHref } from "@/lib/archive/record-list-params";
import { DecadeBrushClient } from "./decade-brush-client";

/**
 * Counts per section, project, decade, language, media type, person and place for the list as
 * it stands (its search and its other filters; readable records only). Each value is a link
 * that sets that filter; the chosen one links back to all. Decades are a histogram whose bars
 * set the years, one decade or a brushed range of them (DecadeBrushClient).
 */
export function Facets({ facets, params }: { facets: RecordFacets; params: RecordListParams }) {
  const group = (
    title: string,
    values: FacetValue[],
    chosen: string | undefined,
    link: (value: FacetValue) => RecordListParams,
    clear: RecordListParams,
    note?: string,
  ) =>
    (values.length > 0 || chosen) && (
      <div data-testid={`facet-${title.toLowerCase()}`}>
        <h3 className="text-xs font-semibold uppercase tracking-wide text-stone-500">
          {title}
          {note && <span className="ml-1 font-normal normal-case tracking-normal">{note}</span>}
        </h3>
        <ul className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-sm @4xl:flex-col @4xl:gap-y-0.5">
          {values.map((value) => (
            <li key={value.value}>
              {chosen === value.value ? (
                <Link
                  href={recordListHref(params, { ...clear, page: undefined })}
                  className="font-medium text-accent-900"
                  aria-current="true"
                  title={`Show every ${title.toLowerCase()}`}
                >
                  {value.label} <span className="tabular-nums text-stone-500">({value.count.toLocaleString("en")})</span> ×
                </Link>
              ) : (
                <Link href={recordListHref(params, { ...link(value), page: undefined })} className="link">
                  {value.label} <span className="tabular-nums text-stone-500">({value.count.toLocaleString("en")})</span>
                </Link>
              )}
            </li>
          ))}
          {chosen && !values.some((value) => value.value === chosen) && (
            // A chosen value that counts nothing under the other filters (or that the reader may not read).
            <li>
              <Link href={recordListHref(params, { ...clear, page: undefined })} className="link">
                Any {title.toLowerCase()}
              </Link>
            </li>
          )}
        </ul>
      </div>
    );
  const linked = (title: string, facet: LinkedFacet, name: "person" | "place") =>
    group(
      title,
      facet.values,
      params[name],
      (value) => ({ [name]: value.value }),
      { [name]: undefined },
      facet.distinct > facet.values.length ? `(the ${facet.values.length} most linked of ${facet.distinct})` : undefined,
    );
  return (
    <nav aria-label="Narrow the list" className="space-y-3 rounded-lg border border-stone-200 bg-white p-4" data-testid="facets">
      {/* Each facet is an h3: the page has an h1, so headings step down one level at a time. */}
      <h2 className="sr-only">Narrow the list</h2>
      {group("Section", facets.sections, params.section, (value) => ({ section: value.value }), { section: undefined, field: undefined, text: undefined })}
      {group("Project", facets.projects, params.project, (value) => ({ project: value.value }), { project: undefined })}
      {group("Language", facets.languages, params.language, (value) => ({ language: value.value }), { language: undefined })}
      {group("Media", facets.media, params.media, (value) => ({ media: value.value }), { media: undefined })}
      {linked("Person", facets.people, "person")}
      {linked("Place", facets.places, "place")}
      {facets.decades.length > 0 && <DecadeBrushClient decades={facets.decades} params={params} />}
    </nav>
  );
}
