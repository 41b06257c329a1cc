import type { FieldDefinition } from "../field-definitions";
import type { ImportMapping } from "./types";

/** Lower case, accents and everything but letters and digits dropped: "Fecha de grabación" → "fechadegrabacion". */
export function normaliseName(name: string): string {
  return name
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "");
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

/**
 * A mapping to start from: each column whose name matches a field's key or label (ignoring case,
 * accents, spaces and punctuation) maps to it, `<field> from` / `<field> to` to the two ends of a
 * date range, and a column called id, external id, object number, número de registre…
 * becomes the external id. A column that matches nothing is ignored (null), and the preview says
 * so beside the mapping: the importer maps it or leaves it out knowingly. A mapping written by
 * hand must still name every column (convert-cells.ts), so a misspelt header is never dropped.
 */
export function suggestMapping(fields: readonly FieldDefinition[], columns: readonly string[]): ImportMapping {
  const targets = new Map<string, string>();
  for (const field of fields) {
    for (const name of [field.key, field.label]) {
      const normalised = normaliseName(name);
      if (!targets.has(normalised)) targets.set(normalised, field.key);
      if (field.type === "daterange") {
        for (const end of ["from", "to"] as const) {
          const endName = normaliseName(`${name} ${end}`);
          if (!targets.has(endName)) targets.set(endName, `${field.key}.${end}`);
        }
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
  for (const column of columns) {
    if (!(column in mapping.columns) && column !== mapping.externalIdColumn) mapping.columns[column] = null;
  }
  return mapping;
}
