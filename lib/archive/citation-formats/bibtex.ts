import type { CitationItem, CitationKind, CitationName } from "./citation-item";
import { oneLine } from "./citation-item";
import { nameParticles } from "./person-name";

/** BibTeX entry types; what BibTeX has no type for is @misc with `howpublished`. */
export const bibtexTypes: Record<CitationKind, string> = {
  interview: "misc",
  article: "article",
  newspaper: "article",
  report: "techreport",
  chapter: "incollection",
  book: "book",
  letter: "misc",
  artwork: "misc",
  document: "misc",
};

const howPublished: Partial<Record<CitationKind, string>> = { interview: "Oral history interview", letter: "Letter", artwork: "Artwork" };

const specials: Record<string, string> = {
  "\\": "\\textbackslash{}",
  "{": "\\{",
  "}": "\\}",
  $: "\\$",
  "&": "\\&",
  "%": "\\%",
  "#": "\\#",
  _: "\\_",
  "^": "\\^{}",
  "~": "\\~{}",
};

/**
 * A value inside braces: LaTeX's special characters escaped (so a brace in a title can never
 * close the field early or leave it unbalanced), one line; accents stay UTF-8, as BibLaTeX,
 * Zotero and JabRef read them.
 */
export function escapeBibtex(text: string): string {
  return oneLine(text).replace(/[\\{}$&%#_^~]/g, (character) => specials[character]!);
}

/**
 * "Family, Given" as BibTeX reads it; a family name of several words ("Roldán Ortiz", "Puig i
 * Cadafalch") is braced so BibTeX keeps it whole, as is a literal name (an organisation).
 */
function bibtexName(name: CitationName): string {
  if (name.literal) return `{${escapeBibtex(name.literal)}}`;
  const family = escapeBibtex(name.family ?? "");
  return [/\s/.test(family) ? `{${family}}` : family, name.given && escapeBibtex(name.given)].filter(Boolean).join(", ");
}

/** ASCII letters of a word for a citation key ("Àngels" → "angels"). */
function keyPart(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[^A-Za-z0-9]+/g, "")
    .toLowerCase()
    .slice(0, 20);
}

/**
 * A key unique per record (and cited moment) and readable: the first word of the first creator's
 * family name past its particles ("roldan" for Roldán Ortiz, "cierva" for de la Cierva; a literal
 * name's first word), or the title's first word; year; id prefix.
 */
export function bibtexKey(item: CitationItem): string {
  const creator = item.authors[0];
  const word = creator ? (creator.family ?? creator.literal ?? "").split(/\s+/).find((part) => !nameParticles.has(part)) : item.title.split(/\s+/)[0];
  const year = item.issued ? String(Math.abs(item.issued.from[0])) : "";
  const moment = item.seconds === undefined ? "" : `_t${item.seconds}`;
  return `${keyPart(word ?? "") || "record"}${year}_${item.id.replace(/[^A-Za-z0-9]/g, "").slice(0, 8)}${moment}`;
}

function bibtexEntry(item: CitationItem): string {
  const [year, month] = item.issued?.from ?? [];
  const years = item.issued?.to ? `${year}--${item.issued.to[0]}` : year === undefined ? undefined : String(year);
  const fields: [string, string | undefined][] = [
    ["title", escapeBibtex(item.title)],
    ["author", item.authors.length ? item.authors.map(bibtexName).join(" and ") : undefined],
    ["year", years],
    ["month", month === undefined ? undefined : String(month)],
    [item.kind === "chapter" ? "booktitle" : "journal", item.containerTitle && escapeBibtex(item.containerTitle)],
    [item.kind === "report" ? "institution" : "publisher", item.publisher && escapeBibtex(item.publisher)],
    ["address", item.place && escapeBibtex(item.place)],
    ["howpublished", howPublished[item.kind]],
    ["language", item.language && escapeBibtex(item.language)],
    ["abstract", item.abstract && escapeBibtex(item.abstract)],
    // Authority links give their labels here; their URIs stay out, since BibTeX styles print `note`
    // in the bibliography and BibTeX has no field for them (CSL-JSON and RIS carry them in a note).
    ["keywords", item.keywords.length ? escapeBibtex(item.keywords.join(", ")) : undefined],
    ["url", item.url],
    [
      "note",
      [
        item.interviewers.length
          ? `Interviewed by ${item.interviewers.map((name) => name.literal ?? [name.given, name.family].filter(Boolean).join(" ")).join(" and ")}.`
          : "",
        item.note ?? "",
        `${item.archive}${item.archiveLocation ? `, ${item.archiveLocation}` : ""}.`,
      ]
        .filter(Boolean)
        .map(escapeBibtex)
        .join(" "),
    ],
  ];
  const body = fields
    .filter((field): field is [string, string] => typeof field[1] === "string" && field[1] !== "")
    .map(([name, value]) => `  ${name} = {${value}}`);
  return `@${bibtexTypes[item.kind]}{${bibtexKey(item)},\n${body.join(",\n")}\n}`;
}

/** Records as one BibTeX file. */
export function toBibtex(items: readonly CitationItem[]): string {
  return `${items.map(bibtexEntry).join("\n\n")}\n`;
}
