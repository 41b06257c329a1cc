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
      columns: { TITLE: "title", "fecha de grabacion": "recordedOn", "Period from": "period.from", "period.to": "period.to" },
    });
  });

  it("leaves unmatched columns out, so accepting the suggestion names them as unmapped", () => {
    expect(suggestMapping(fields, ["Colour", "Size"])).toEqual({ columns: {} });
  });

  it("prefers a field named id over the external id", () => {
    const withId: FieldDefinition[] = [...fields, { key: "id", label: "Identifier", type: "text" }];
    expect(suggestMapping(withId, ["id", "reference"])).toEqual({ externalIdColumn: "reference", columns: { id: "id" } });
  });
});
