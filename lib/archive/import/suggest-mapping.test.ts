import { describe, expect, it } from "vitest";
import type { FieldDefinition } from "../field-definitions";
import { normaliseName, suggestMapping } from "./suggest-mapping";

const fields: FieldDefinition[] = [
  { key: "title", label: "Title", type: "text", required: true },
  { key: "recordedOn", label: "Fecha de grabación", type: "date" },
  { key: "period", label: "Period", type: "daterange" },
  { key: "kind", label: "Kind", type: "category", options: ["letter"] },
];

describe("mapping suggestion", () => {
  it("normalises case, accents, spaces and punctuation", () => {
    expect(normaliseName("  Fecha de Grabación ")).toBe("fechadegrabacion");
    expect(normaliseName("recorded_on")).toBe("recordedon");
  });

  it("matches columns to field keys or labels, date range ends, and an id column", () => {
    const mapping = suggestMapping(fields, ["ID", "TITLE", "fecha de grabacion", "Period from", "period.to", "Colour", "recorded-on"]);
    expect(mapping).toEqual({
      externalIdColumn: "ID",
      columns: { TITLE: "title", "fecha de grabacion": "recordedOn", "Period from": "period.from", "period.to": "period.to", Colour: null, "recorded-on": null },
    });
  });

  it("ignores a column that matches no field, so a check of the suggestion goes ahead", () => {
    expect(suggestMapping(fields, ["Colour", "Size"])).toEqual({ columns: { Colour: null, Size: null } });
  });

  it("takes the identifiers catalogues export for the external id, in English, Spanish and Catalan", () => {
    for (const name of ["Object number", "Inventory number", "Número de registre", "Número de inventario", "Accession number", "Nº inventari"]) {
      expect(suggestMapping(fields, [name, "Title"]), name).toEqual({ externalIdColumn: name, columns: { Title: "title" } });
    }
  });

  it("prefers a field named id over the external id", () => {
    const withId: FieldDefinition[] = [...fields, { key: "id", label: "Identifier", type: "text" }];
    expect(suggestMapping(withId, ["id", "reference"])).toEqual({ externalIdColumn: "reference", columns: { id: "id" } });
  });
});
