import { foldAccents } from "../../language/fold-accents";
import { recogniseAuthorityUri } from "../authorities";
import { parseAuthorityLink, splitAuthorityText } from "../authority-text";
import type { FieldDefinition } from "../field-definitions";
import type { ImportMapping } from "./types";

/**
 * Lower case, accents and everything but letters and digits dropped: "Fecha de grabación" →
 * "fechadegrabacion". Diacritic modifier letters go too ("dʼidentificació" ~ "d'identificació").
 */
export function normaliseName(name: string): string {
  return foldAccents(name)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+|\p{Diacritic}/gu, "");
}

/**
 * Column names taken for the external id when no field claims them: the identifiers catalogues
 * export, in English, Spanish and Catalan (accents and spaces do not count).
 */
const externalIdNames = new Set([
  "externalid",
  "id",
  "identifier",
  "identificador",
  "ref",
  "reference",
  "referencia",
  "catalognumber",
  "cataloguenumber",
  "catalogueno",
  "inventorynumber",
  "inventoryno",
  "objectnumber",
  "objectno",
  "objectid",
  "accessionnumber",
  "registrationnumber",
  "numeroderegistro",
  "numeroderegistre",
  "numerodeinventario",
  "numerodeinventari",
  "ninventario",
  "ninventari",
  "nºinventario",
  "nºinventari",
  "nºderegistro",
  "nºderegistre",
  "signatura",
]);

/** Cells looked at to recognise a column of authority URIs. */
const sampledRows = 50;

/**
 * A mapping to start from: each column whose name matches a field's key or label (ignoring case,
 * accents, spaces and punctuation) maps to it, `<field> from` / `<field> to` to the two ends of a
 * date range, `<field> URI` (or `(URI)`) to an authority field and then `<field>` or
 * `<field> label` to its labels, and a column called id, external id, object number, número de
 * registre… becomes the external id. A column that matches nothing by name but whose cells (in
 * the first rows) are all URIs an authority field accepts maps to that field. A column that
 * matches nothing is ignored (null), and the preview says so beside the mapping: the importer
 * maps it or leaves it out knowingly. A mapping written by hand must still name every column
 * (convert-cells.ts), so a misspelt header is never dropped.
 */
export function suggestMapping(fields: readonly FieldDefinition[], columns: readonly string[], rows: readonly (readonly string[])[] = []): ImportMapping {
  const targets = new Map<string, string>();
  const claim = (name: string, target: string) => {
    const normalised = normaliseName(name);
    if (!targets.has(normalised)) targets.set(normalised, target);
  };
  const sampled = rows.slice(0, sampledRows);
  for (const field of fields) {
    // An authority field named with "URI" in the file takes that column; its plain name is then the
    // labels' — unless the URI cells carry their labels already ("Name <URI>", as an EAD3 import's
    // columns do), when the plain column (which may also hold terms without a URI) is left out.
    const uriColumn =
      field.type === "authority"
        ? columns.find((column) => [field.key, field.label].some((name) => normaliseName(column) === normaliseName(`${name} uri`)))
        : undefined;
    const labelled = uriColumn !== undefined && uriCellsLabelled(sampled.map((row) => row[columns.indexOf(uriColumn)] ?? ""));
    for (const name of [field.key, field.label]) {
      if (field.type === "authority") {
        claim(`${name} uri`, field.key);
        claim(`${name} label`, `${field.key}.label`);
      }
      if (uriColumn === undefined) claim(name, field.key);
      else if (!labelled) claim(name, `${field.key}.label`);
      if (field.type === "daterange") {
        for (const end of ["from", "to"] as const) claim(`${name} ${end}`, `${field.key}.${end}`);
      }
    }
  }
  const mapping: ImportMapping = { columns: {} };
  const used = new Set<string>();
  for (const column of columns) {
    const target = targets.get(normaliseName(column));
    if (target && !used.has(target)) {
      mapping.columns[column] = target;
      used.add(target);
    } else if (!mapping.externalIdColumn && externalIdNames.has(normaliseName(column))) {
      mapping.externalIdColumn = column;
    }
  }
  suggestByAuthorityUris(fields, columns, rows.slice(0, sampledRows), mapping, used);
  for (const column of columns) {
    if (!(column in mapping.columns) && column !== mapping.externalIdColumn) mapping.columns[column] = null;
  }
  return mapping;
}

/** Whether every link in the sampled cells (at least one) carries its label: "Name <URI>". */
function uriCellsLabelled(cells: readonly string[]): boolean {
  const links = cells.flatMap((cell) => (cell.trim() ? splitAuthorityText(cell, { semicolons: true }).map(parseAuthorityLink) : []));
  return links.length > 0 && links.every((link) => Boolean(link.label?.trim()));
}

/**
 * Columns no name matched whose sampled cells are all authority URIs (or `Label <URI>`): each to
 * the first authority field still free that accepts them all (a field taking one link only when
 * no cell holds several). A field taken by a column of names rather than URIs ("Mint" beside a
 * column of Nomisma URIs) gives that column its labels instead.
 */
function suggestByAuthorityUris(
  fields: readonly FieldDefinition[],
  columns: readonly string[],
  rows: readonly (readonly string[])[],
  mapping: ImportMapping,
  used: Set<string>,
): void {
  const authorityFields = fields.filter((field): field is Extract<FieldDefinition, { type: "authority" }> => field.type === "authority");
  if (authorityFields.length === 0) return;
  const cellsOf = (column: string) => rows.map((row) => (row[columns.indexOf(column)] ?? "").trim()).filter(Boolean);
  const linksOf = (cell: string) => splitAuthorityText(cell, { semicolons: true }).map((piece) => parseAuthorityLink(piece).uri);
  const holdsUris = (column: string) => {
    const cells = cellsOf(column);
    return cells.length > 0 && cells.every((cell) => linksOf(cell).every((uri) => recogniseAuthorityUri(uri) !== null));
  };
  for (const column of columns) {
    if (column in mapping.columns || column === mapping.externalIdColumn || !holdsUris(column)) continue;
    const cells = cellsOf(column).map(linksOf);
    const field = authorityFields.find((candidate) => {
      if (used.has(candidate.key) && !Object.entries(mapping.columns).some(([other, target]) => target === candidate.key && !holdsUris(other))) return false;
      if (!candidate.multiple && cells.some((links) => links.length > 1)) return false;
      return cells.every((links) => links.every((uri) => recogniseAuthorityUri(uri, candidate.authorities) !== null));
    });
    if (!field) continue;
    const names = Object.entries(mapping.columns).find(([, target]) => target === field.key)?.[0];
    if (names !== undefined) {
      if (used.has(`${field.key}.label`)) mapping.columns[names] = null;
      else {
        mapping.columns[names] = `${field.key}.label`;
        used.add(`${field.key}.label`);
      }
    }
    mapping.columns[column] = field.key;
    used.add(field.key);
  }
}
