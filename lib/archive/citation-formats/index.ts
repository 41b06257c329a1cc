import { toBibtex } from "./bibtex";
import type { CitationItem } from "./citation-item";
import { toCslJson } from "./csl-json";
import { toRis } from "./ris";

export { type CitableRecord, type CitationItem, type CitationOptions, citationItem, citedSeconds } from "./citation-item";
export { toBibtex } from "./bibtex";
export { toCslJson } from "./csl-json";
export { toRis } from "./ris";

/** The most records one selection cites: a URL of ids stays well under every server's limit. */
export const maxCitedRecords = 100;

/** The citation formats a record exports in: what Zotero, EndNote, Mendeley and citeproc import. */
export const citationFormats = ["ris", "bibtex", "csl-json"] as const;
export type CitationFormat = (typeof citationFormats)[number];

/** Each format's file: writer, media type and extension. */
export const citationFiles: Record<
  CitationFormat,
  { write: (items: readonly CitationItem[]) => string; contentType: string; extension: string; label: string }
> = {
  ris: { write: toRis, contentType: "application/x-research-info-systems; charset=utf-8", extension: "ris", label: "RIS" },
  bibtex: { write: toBibtex, contentType: "application/x-bibtex; charset=utf-8", extension: "bib", label: "BibTeX" },
  "csl-json": { write: toCslJson, contentType: "application/vnd.citationstyles.csl+json; charset=utf-8", extension: "json", label: "CSL-JSON" },
};

/** The link to several records' citations in one file (`/api/records/cite`), each record optionally at a moment of its recording. */
export function citeSelectionHref(format: CitationFormat, records: readonly { recordId: string; seconds?: number | null }[]): string {
  const entries = records.map((record) => (record.seconds == null ? record.recordId : `${record.recordId}@${Math.floor(record.seconds)}`));
  return `/api/records/cite?format=${format}&ids=${[...new Set(entries)].map(encodeURIComponent).join(",")}`;
}
