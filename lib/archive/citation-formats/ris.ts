import type { CitationItem, CitationKind, CitationName, DateParts } from "./citation-item";
import { oneLine } from "./citation-item";

/** RIS reference types (the RIS specification; Zotero, EndNote and Mendeley read them). */
export const risTypes: Record<CitationKind, string> = {
  interview: "SOUND",
  article: "JOUR",
  newspaper: "NEWS",
  report: "RPRT",
  chapter: "CHAP",
  book: "BOOK",
  letter: "PCOMM",
  artwork: "ART",
  document: "GEN",
};

function risName(name: CitationName): string {
  return name.literal ?? [name.family, name.given].filter(Boolean).join(", ");
}

/** RIS dates: "1962/04/18/", a year alone as "1962///". */
function risDate(parts: DateParts): string {
  const [year, month, day] = parts;
  const pad = (value: number | undefined) => (value === undefined ? "" : String(value).padStart(2, "0"));
  return `${year}/${pad(month)}/${pad(day)}/`;
}

/**
 * One RIS record: `TY  - ` first, `ER  - ` last, one tag per line ("XX  - value", CRLF); a value
 * never spans lines (line breaks in record text become spaces), repeated tags for lists.
 */
function risRecord(item: CitationItem): string {
  const lines: [string, string | undefined][] = [
    ["TY", risTypes[item.kind]],
    ["TI", item.title],
  ];
  for (const author of item.authors) lines.push(["AU", risName(author)]);
  for (const interviewer of item.interviewers) lines.push(["A2", risName(interviewer)]);
  if (item.issued) {
    lines.push(["PY", String(item.issued.from[0])]);
    if (item.issued.from.length > 1) lines.push(["DA", risDate(item.issued.from)]);
  }
  lines.push(
    ["T2", item.containerTitle],
    ["PB", item.publisher],
    ["CY", item.place],
    ["LA", item.language],
    ["AB", item.abstract],
    ...item.keywords.map((keyword): [string, string] => ["KW", keyword]),
    ["DB", item.archive],
    ["AN", item.archiveLocation],
    ["M3", item.medium],
    ["UR", item.url],
    ["N1", item.note],
    // The links' URIs as a note of their own (EndNote's Notes, a Zotero child note): KW holds the
    // labels, and no RIS tag is meant for a link to an authority.
    ["N1", item.authorityLinks.length ? `Authority links: ${item.authorityLinks.map((link) => `${link.label} <${link.uri}>`).join("; ")}` : undefined],
    ["ID", item.id],
  );
  const body = lines
    .filter((line): line is [string, string] => typeof line[1] === "string" && line[1] !== "")
    .map(([tag, value]) => `${tag}  - ${oneLine(value)}`);
  return [...body, "ER  - "].join("\r\n");
}

/** Records as one RIS file (records separated by a blank line). */
export function toRis(items: readonly CitationItem[]): string {
  return `${items.map(risRecord).join("\r\n\r\n")}\r\n`;
}
