/**
 * Where the finding aids are served (lib/http/finding-aid-download.ts), for the pages' links: a
 * project's EAD3 by its slug, a person's EAC-CPF by the record's id. Under /api/v1 the same paths
 * answer a bearer token. Pure.
 */

/**
 * The section whose records are people, exported as EAC-CPF: the one the record list's People
 * facet reads (lib/archive/list-records.ts `linkedFacetSections.person`), slug `people`.
 */
export const personSectionSlug = "people";

export function ead3Href(projectSlug: string): string {
  return `/api/projects/${encodeURIComponent(projectSlug)}/ead3`;
}

export function eacCpfHref(recordId: string): string {
  return `/api/records/${encodeURIComponent(recordId)}/eac-cpf`;
}
