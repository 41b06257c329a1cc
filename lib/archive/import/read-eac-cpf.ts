import { AppError } from "../../errors";
import { parseEdtf, readWrittenDate } from "../edtf";
import type { ParsedTable } from "./types";
import { attribute, childElements, descendants, firstChild, isHttpUri, plainText, proseText, withCertainty, type XmlElement } from "../xml/read-xml";

/** EAC-CPF 2010 (revised): root <eac-cpf>. */
export const eacCpf2010Namespace = "urn:isbn:1-931666-33-4";
/** EAC-CPF 2.0: root <eac>. */
export const eacCpf2Namespace = "https://archivists.org/ns/eac/v2";

/** Several values in one cell, as the import reads several relations and authority links. */
const listSeparator = "; ";

/**
 * The columns of an EAC-CPF import: one row, the record's entity. Named so the mapping suggestion
 * matches a people section's fields (name, born, died, biography, places, occupation); "identifier"
 * (the record id) is taken for the external id, so importing the record again updates it. A
 * "… URI" column holds the terms of the column before it that have an authority URI, as
 * `Name <URI>`; "same as URI" the entity's
 * identifiers elsewhere (entityId/identityId — or its @valueURI — and otherRecordId) that are
 * http(s) URIs. Columns left
 * empty by the record are left out.
 */
const columns = [
  "identifier",
  "name",
  "other names",
  "entity type",
  "born",
  "died",
  "dates",
  "biography",
  "places",
  "places URI",
  "occupation",
  "occupation URI",
  "same as URI",
] as const;

type Column = (typeof columns)[number];

function refuse(message: string): never {
  throw new AppError("bad_request", message);
}

/** An EAC-CPF record (2010 or 2.0) as a one-row table. */
export function eacCpfTable(root: XmlElement): ParsedTable {
  const control = firstChild(root, "control");
  const description = firstChild(root, "cpfDescription") ?? firstChild(firstChild(root, "multipleIdentities"), "cpfDescription");
  if (!description) refuse("The EAC-CPF record has no <cpfDescription>: it describes no one to import.");
  const identity = firstChild(description, "identity");
  const row: Partial<Record<Column, string>> = {};
  row.identifier = plainText(firstChild(control, "recordId"));
  if (identity) {
    const entries = descendants(identity, ["nameEntry"]);
    const authorized = authorizedEntry(identity, entries);
    row.name = authorized ? entryName(authorized) : "";
    row["other names"] = unique(entries.filter((entry) => entry !== authorized).map(entryName))
      .filter((name) => name && name !== row.name)
      .join(listSeparator);
    const type = firstChild(identity, "entityType");
    row["entity type"] = attribute(type, "value") || plainText(type);
  }
  if (!row.name) refuse("The EAC-CPF record names no one: its <identity> has no <nameEntry> with a name.");
  const about = firstChild(description, "description");
  if (about) {
    const exist = firstChild(about, "existDates");
    if (exist) {
      const range = descendants(exist, ["dateRange"])[0];
      row.born = dateOf(firstChild(range, "fromDate"));
      row.died = dateOf(firstChild(range, "toDate"));
      row.dates = writtenDates(exist);
    }
    row.biography = childElements(about, "biogHist")
      .map((element) => proseText(element))
      .filter(Boolean)
      .join("\n\n");
    Object.assign(row, terms("places", descendants(about, ["place"]), ["placeEntry", "placeName"]));
    Object.assign(row, terms("occupation", descendants(about, ["occupation"]), ["term"]));
  }
  const identifiers = [...(identity ? childElements(identity, "entityId", "identityId") : []), ...(control ? childElements(control, "otherRecordId") : [])].map(
    (element) => (isHttpUri(attribute(element, "valueURI")) ? attribute(element, "valueURI") : plainText(element)),
  );
  row["same as URI"] = unique(identifiers.filter(isHttpUri)).join(listSeparator);
  const kept = columns.filter((column) => column === "name" || row[column]);
  return { format: "eac-cpf", columns: [...kept], rows: [kept.map((column) => row[column] ?? "")], lines: [description.line] };
}

/**
 * The authorized form: a <nameEntry> marked so (2010: an <authorizedForm> inside it or beside it
 * in a <nameEntryParallel>; 2.0: @status="authorized"), preferring the preferred one of a parallel
 * set; otherwise the first name entry.
 */
function authorizedEntry(identity: XmlElement, entries: XmlElement[]): XmlElement | undefined {
  for (const entry of entries) {
    if (attribute(entry, "status") === "authorized" || firstChild(entry, "authorizedForm")) return entry;
  }
  for (const set of childElements(identity, "nameEntryParallel", "nameEntrySet")) {
    const inSet = childElements(set, "nameEntry");
    if (firstChild(set, "authorizedForm") || attribute(set, "status") === "authorized") {
      return inSet.find((entry) => firstChild(entry, "preferredForm") || attribute(entry, "preferredForm") === "true") ?? inSet[0];
    }
  }
  return entries[0];
}

/**
 * A name entry's name: its <part>s in the order written, joined with ", " when the first is a
 * surname (the inverted form "Puig i Ferrer, Maria"), with a space otherwise.
 */
function entryName(entry: XmlElement): string {
  const parts = childElements(entry, "part").filter((part) => plainText(part));
  if (parts.length === 0) return "";
  const inverted = parts.length > 1 && /surname|family|last/i.test(attribute(parts[0], "localType"));
  return parts.map((part) => plainText(part)).join(inverted ? ", " : " ");
}

/**
 * A date as written when Mnemo reads the words as the record's standard form says ("c. 1850" with
 * @standardDate 1850 and @certainty approximate), so it is kept as written; otherwise the standard
 * form as EDTF — @standardDate with its @certainty as a qualifier, or the interval
 * @notBefore/@notAfter — and with no standard form, the words.
 */
function dateOf(element: XmlElement | undefined): string {
  const written = plainText(element);
  const [standardDate, notBefore, notAfter] = [attribute(element, "standardDate"), attribute(element, "notBefore"), attribute(element, "notAfter")];
  const standard = standardDate
    ? withCertainty(standardDate, attribute(element, "certainty"))
    : notBefore || notAfter
      ? `${notBefore || ".."}/${notAfter || ".."}`
      : "";
  if (!standard) return written;
  const [asWritten, asStandard] = [readWrittenDate(written), parseEdtf(standard)];
  return asWritten.ok && asStandard.ok && asWritten.reading.edtf === asStandard.reading.edtf ? written : standard;
}

/** The dates of existence as written: each range as "from – to", each single date as its text. */
function writtenDates(exist: XmlElement): string {
  return descendants(exist, ["dateRange", "date"])
    .map((element) =>
      element.name === "date"
        ? plainText(element) || dateOf(element)
        : [firstChild(element, "fromDate"), firstChild(element, "toDate")]
            .map((end) => plainText(end) || dateOf(end))
            .filter(Boolean)
            .join(" – "),
    )
    .filter(Boolean)
    .join("; ");
}

/**
 * Places or occupations as two cells: their names, and each that has an http(s) URI as
 * `Name <URI>` (2.0's @valueURI; 2010's @vocabularySource on the term, which 2.0 moves to the
 * place or occupation).
 */
function terms(column: "places" | "occupation", elements: XmlElement[], termNames: string[]): Partial<Record<Column, string>> {
  const names: string[] = [];
  const uris: string[] = [];
  for (const element of elements) {
    const term = firstChild(element, ...termNames);
    const name = plainText(term);
    if (name && !names.includes(name)) names.push(name);
    const uri = [attribute(term, "valueURI"), attribute(element, "valueURI"), attribute(term, "vocabularySource"), attribute(element, "vocabularySource")].find(
      isHttpUri,
    );
    const link = uri && name ? `${name} <${uri}>` : uri;
    if (link && !uris.includes(link)) uris.push(link);
  }
  return { [column]: names.join(listSeparator), [`${column} URI`]: uris.join(listSeparator) } as Partial<Record<Column, string>>;
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
