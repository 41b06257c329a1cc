import type { CitationItem, CitationKind, CitationName } from "./citation-item";

/** CSL 1.0.2 item types. */
export const cslTypes: Record<CitationKind, string> = {
  interview: "interview",
  article: "article-journal",
  newspaper: "article-newspaper",
  report: "report",
  chapter: "chapter",
  book: "book",
  letter: "letter",
  artwork: "artwork",
  document: "document",
};

export interface CslItem {
  id: string;
  type: string;
  title: string;
  author?: CitationName[];
  interviewer?: CitationName[];
  issued?: { "date-parts": number[][]; circa?: boolean };
  "container-title"?: string;
  publisher?: string;
  "event-place"?: string;
  "publisher-place"?: string;
  language?: string;
  abstract?: string;
  keyword?: string;
  archive: string;
  archive_location?: string;
  medium?: string;
  dimensions?: string;
  URL: string;
  note?: string;
}

function compact<T extends object>(item: T): T {
  return Object.fromEntries(
    Object.entries(item).filter(([, value]) => value !== undefined && value !== "" && !(Array.isArray(value) && value.length === 0)),
  ) as T;
}

/**
 * The authority links' URIs as a line of the item's note. A keyword holds a word, not a link, and
 * CSL has no variable for one; `note` is what Zotero keeps in Extra and what the usual styles
 * leave out of the bibliography, so the links travel with the item without printing in it.
 */
function authorityNote(item: CitationItem): string | undefined {
  return item.authorityLinks.length ? `Authority links: ${item.authorityLinks.map((link) => `${link.label} <${link.uri}>`).join("; ")}` : undefined;
}

/** One record as a CSL-JSON item (the citation processors' and Zotero's interchange format). */
export function cslItem(item: CitationItem): CslItem {
  return compact({
    id: item.id,
    type: cslTypes[item.kind],
    title: item.title,
    author: item.authors,
    interviewer: item.interviewers,
    issued: item.issued
      ? { "date-parts": item.issued.to ? [item.issued.from, item.issued.to] : [item.issued.from], ...(item.issued.circa ? { circa: true } : {}) }
      : undefined,
    "container-title": item.containerTitle,
    publisher: item.publisher,
    // Where an interview was recorded is its event's place; otherwise where it was published.
    "event-place": item.kind === "interview" ? item.place : undefined,
    "publisher-place": item.kind === "interview" ? undefined : item.place,
    language: item.language,
    abstract: item.abstract,
    keyword: item.keywords.join(", "),
    archive: item.archive,
    archive_location: item.archiveLocation,
    medium: item.medium,
    dimensions: item.dimensions,
    URL: item.url,
    note: [item.note, authorityNote(item)].filter(Boolean).join("\n") || undefined,
  });
}

/** Records as a CSL-JSON file: an array of items. */
export function toCslJson(items: readonly CitationItem[]): string {
  return `${JSON.stringify(items.map(cslItem), null, 2)}\n`;
}
