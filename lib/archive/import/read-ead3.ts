import { AppError } from "../../errors";
import type { ParsedTable } from "./types";
import { attribute, childElements, descendants, firstChild, isHttpUri, plainText, proseText, withCertainty, type XmlElement } from "../xml/read-xml";

/** The namespace of EAD3 (Encoded Archival Description, version 3). */
export const ead3Namespace = "http://ead3.archivists.org/schema/";
/** The namespace of EAD 2002, which is refused with a pointer to EAD3. */
export const ead2002Namespace = "urn:isbn:1-931666-22-9";

const componentNames = ["c", "c01", "c02", "c03", "c04", "c05", "c06", "c07", "c08", "c09", "c10", "c11", "c12"];

/**
 * Levels that group other units rather than describe one: a component at one of these levels is
 * never a row, even when it holds no components (an empty series).
 */
const aggregateLevels = new Set(["collection", "fonds", "subfonds", "recordgrp", "subgrp", "series", "subseries"]);

/** The separator of the enclosing components' titles in the series column. */
export const seriesSeparator = " > ";

/** Several values in one cell: the separator the import reads for several relations and authority links. */
const listSeparator = "; ";

/**
 * The columns of an EAD3 import, in order. Named so the mapping suggestion matches the usual
 * fields by name (title, date, description, language…); a "… URI" column holds those terms of
 * the column before it that have an authority URI (@identifier), as `Name <URI>`, for an
 * authority field. Columns empty in every row are left out of the table.
 */
const columns = [
  "identifier",
  "title",
  "date",
  "date normal",
  "level",
  "series",
  "collection",
  "description",
  "abstract",
  "extent",
  "dimensions",
  "language",
  "access",
  "use",
  "creator",
  "creator URI",
  "subjects",
  "subjects URI",
  "places",
  "places URI",
  "persons",
  "persons URI",
  "container",
  "digital object",
] as const;

type Column = (typeof columns)[number];
type Row = Partial<Record<Column, string>>;

const componentsPerStep = 100;

function refuse(message: string): never {
  throw new AppError("bad_request", message);
}

/**
 * An EAD3 finding aid as a table: one row per component that describes a unit — a component
 * (<c>, <c01>…<c12>) with no component inside it, unless its @level is an aggregate one
 * (collection, fonds, subfonds, recordgrp, subgrp, series, subseries). The titles of the
 * components around it form its "series" path; the collection's own title is "collection".
 */
export function* ead3Steps(root: XmlElement): Generator<void, ParsedTable, void> {
  const archdesc = firstChild(root, "archdesc");
  if (!archdesc) refuse("The EAD3 finding aid has no <archdesc>: it describes nothing to import.");
  const collection = unitTitle(firstChild(archdesc, "did"));
  const rows: Row[] = [];
  const lines: number[] = [];
  // Depth first, in document order, with an explicit stack of the enclosing titles.
  const pending: { component: XmlElement; path: string[] }[] = [];
  const pushComponents = (parent: XmlElement, path: string[]) => {
    const found = childComponents(parent);
    for (let index = found.length - 1; index >= 0; index--) pending.push({ component: found[index] as XmlElement, path });
  };
  for (const dsc of childElements(archdesc, "dsc")) pushComponents(dsc, []);
  let visited = 0;
  while (pending.length > 0) {
    const { component, path } = pending.pop() as { component: XmlElement; path: string[] };
    const inner = childComponents(component);
    const level = attribute(component, "level");
    if (inner.length > 0) {
      const did = firstChild(component, "did");
      const title = unitTitle(did) || plainText(firstChild(did, "unitid")) || "untitled";
      pushComponents(component, [...path, title]);
    } else if (!aggregateLevels.has(level.toLowerCase())) {
      rows.push(componentRow(component, path, collection));
      lines.push(component.line);
    }
    if (++visited % componentsPerStep === 0) yield;
  }
  if (rows.length === 0) {
    refuse(
      "The EAD3 finding aid has no component describing a unit: Mnemo imports the components (<c> or <c01>…<c12> under <dsc>) that hold no other component and are not a series or other grouping.",
    );
  }
  const kept = columns.filter((column) => column === "title" || rows.some((row) => row[column]));
  return { format: "ead3", columns: [...kept], rows: rows.map((row) => kept.map((column) => row[column] ?? "")), lines };
}

/** The components directly inside an element. */
function childComponents(element: XmlElement): XmlElement[] {
  return childElements(element, ...componentNames);
}

function unitTitle(did: XmlElement | undefined): string {
  return did
    ? childElements(did, "unittitle")
        .map((title) => plainText(title))
        .filter(Boolean)
        .join("; ")
    : "";
}

function componentRow(component: XmlElement, path: string[], collection: string): Row {
  const did = firstChild(component, "did");
  const row: Row = {};
  row.identifier = did ? plainText(firstChild(did, "unitid")) : "";
  row.title = unitTitle(did);
  Object.assign(row, dates(did));
  row.level = attribute(component, "level") === "otherlevel" ? attribute(component, "otherlevel") : attribute(component, "level");
  row.series = path.join(seriesSeparator);
  row.collection = collection;
  const abstract = did
    ? childElements(did, "abstract")
        .map((element) => proseText(element))
        .filter(Boolean)
        .join("\n\n")
    : "";
  const scope = childElements(component, "scopecontent")
    .map((element) => proseText(element))
    .filter(Boolean)
    .join("\n\n");
  row.description = scope || abstract;
  row.abstract = abstract;
  if (did) Object.assign(row, physicalDescription(did));
  row.language = did ? languages(did) : "";
  row.access = childElements(component, "accessrestrict")
    .map((element) => proseText(element))
    .filter(Boolean)
    .join("\n\n");
  row.use = childElements(component, "userestrict")
    .map((element) => proseText(element))
    .filter(Boolean)
    .join("\n\n");
  const creators = did ? childElements(did, "origination").flatMap((origination) => childElements(origination, ...agentNames)) : [];
  Object.assign(row, terms("creator", creators));
  const access = childElements(component, "controlaccess");
  const inAccess = (names: readonly string[]) => access.flatMap((element) => descendants(element, names));
  Object.assign(row, terms("subjects", inAccess(["subject", "genreform", "function", "occupation"])));
  Object.assign(row, terms("places", inAccess(["geogname"])));
  Object.assign(row, terms("persons", inAccess(agentNames)));
  row.container = did
    ? childElements(did, "container")
        .map((container) => [attribute(container, "localtype"), plainText(container)].filter(Boolean).join(" "))
        .filter(Boolean)
        .join("; ")
    : "";
  row["digital object"] = did
    ? descendants(did, ["dao"])
        .map((dao) => attribute(dao, "href"))
        .filter(Boolean)
        .join(listSeparator)
    : "";
  return row;
}

const agentNames = ["persname", "corpname", "famname", "name"];

/**
 * The date as written (<unitdate>'s text; otherwise <unitdatestructured> as EDTF: a single date's
 * @standarddate, a range's from/to) and the normalised form (@normal, its @certainty as EDTF's
 * qualifier, or the structured date's standard form) in a column of its own.
 */
function dates(did: XmlElement | undefined): Pick<Row, "date" | "date normal"> {
  if (!did) return {};
  const written = childElements(did, "unitdate");
  const structured = childElements(did, "unitdatestructured");
  const standard = structured.map(structuredDate).filter(Boolean);
  const text = written.map((element) => plainText(element)).filter(Boolean);
  const normal = written.map((element) => withCertainty(attribute(element, "normal"), attribute(element, "certainty"))).filter(Boolean);
  return {
    date:
      text.length > 0
        ? text.join("; ")
        : standard.length > 0
          ? standard.join("; ")
          : structured
              .map((element) => plainText(element))
              .filter(Boolean)
              .join("; "),
    "date normal": normal.length > 0 ? normal.join("; ") : standard.join("; "),
  };
}

/** A <unitdatestructured> as EDTF from its @standarddate values; "" when it has none. */
function structuredDate(structured: XmlElement): string {
  const one = (element: XmlElement | undefined): string => {
    if (!element) return "";
    if (element.name === "datesingle") return attribute(element, "standarddate");
    if (element.name === "daterange") {
      const from = attribute(firstChild(element, "fromdate"), "standarddate");
      const to = attribute(firstChild(element, "todate"), "standarddate");
      if (!from && !to) return "";
      return `${from || ".."}/${to || ".."}`;
    }
    return "";
  };
  const single = firstChild(structured, "datesingle", "daterange");
  if (single) return one(single);
  const set = firstChild(structured, "dateset");
  return set ? childElements(set, "datesingle", "daterange").map(one).filter(Boolean).join("; ") : "";
}

/** Extent (<physdesc> text; <physdescstructured> as "quantity unittype") and dimensions. */
function physicalDescription(did: XmlElement): Pick<Row, "extent" | "dimensions"> {
  const extents: string[] = [];
  const dimensions: string[] = [];
  const structured = [
    ...childElements(did, "physdescstructured"),
    ...childElements(did, "physdescset").flatMap((set) => childElements(set, "physdescstructured")),
  ];
  for (const physdesc of childElements(did, "physdesc")) {
    const text = plainText(physdesc);
    if (text) extents.push(text);
  }
  for (const element of structured) {
    const extent = [plainText(firstChild(element, "quantity")), plainText(firstChild(element, "unittype"))].filter(Boolean).join(" ");
    const facets = childElements(element, "physfacet")
      .map((facet) => plainText(facet))
      .filter(Boolean);
    if (extent || facets.length > 0) extents.push([extent, ...facets].filter(Boolean).join(", "));
    for (const dimension of childElements(element, "dimensions")) {
      const text = plainText(dimension);
      if (text) dimensions.push(text);
    }
  }
  return { extent: extents.join("; "), dimensions: dimensions.join("; ") };
}

/** Languages of the material: each <language>'s @langcode, or its text when it has none. */
function languages(did: XmlElement): string {
  const found = childElements(did, "langmaterial").flatMap((element) => descendants(element, ["language"]));
  return unique(found.map((language) => attribute(language, "langcode") || plainText(language)).filter(Boolean)).join(listSeparator);
}

/**
 * Access terms as two cells: the names ("Vidal i Roca, Montserrat" from its <part>s) and, in
 * the "… URI" column, each that has an http(s) @identifier as `Name <URI>` — the authority links
 * an authority field takes, labelled even when the names column is left out of the mapping.
 */
function terms(column: "creator" | "subjects" | "places" | "persons", elements: XmlElement[]): Partial<Row> {
  const names: string[] = [];
  const uris: string[] = [];
  for (const element of elements) {
    const parts = childElements(element, "part")
      .map((part) => plainText(part))
      .filter(Boolean);
    const name = parts.length > 0 ? parts.join(", ") : plainText(element);
    if (name && !names.includes(name)) names.push(name);
    const identifier = attribute(element, "identifier");
    const link = name ? `${name} <${identifier}>` : identifier;
    if (isHttpUri(identifier) && !uris.includes(link)) uris.push(link);
  }
  return { [column]: names.join(listSeparator), [`${column} URI`]: uris.join(listSeparator) } as Partial<Row>;
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
