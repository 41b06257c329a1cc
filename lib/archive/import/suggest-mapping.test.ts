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
    expect(normaliseName("Dʼidentificació")).toBe("didentificacio");
    expect(normaliseName("ÀNGELS")).toBe("angels");
  });

  it("matches columns to field keys or labels, date range ends, and an id column", () => {
    const mapping = suggestMapping(fields, ["ID", "TITLE", "fecha de grabacion", "Period from", "period.to", "Colour", "recorded-on"]);
    expect(mapping).toEqual({
      externalIdColumn: "ID",
      columns: {
        TITLE: "title",
        "fecha de grabacion": "recordedOn",
        "Period from": "period.from",
        "period.to": "period.to",
        Colour: null,
        "recorded-on": null,
      },
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

  it("maps an authority field's URI column by name, its plain name then to the labels", () => {
    const withLinks: FieldDefinition[] = [
      ...fields,
      { key: "mint", label: "Mint", type: "authority", authorities: ["nomisma"] },
      { key: "subjects", label: "Subjects", type: "authority", multiple: true },
    ];
    expect(suggestMapping(withLinks, ["Title", "Mint", "Mint (URI)", "Subjects uri", "Subjects label"])).toEqual({
      columns: { Title: "title", Mint: "mint.label", "Mint (URI)": "mint", "Subjects uri": "subjects", "Subjects label": "subjects.label" },
    });
    // Without a URI column, the plain name is the field's, as for any other type.
    expect(suggestMapping(withLinks, ["Title", "Mint"])).toEqual({ columns: { Title: "title", Mint: "mint" } });
  });

  it("leaves a field's plain names column out when its URI column carries the labels (Name <URI>)", () => {
    const withLinks: FieldDefinition[] = [...fields, { key: "subjects", label: "Subjects", type: "authority", multiple: true }];
    const columns = ["Title", "Subjects", "Subjects URI"];
    const labelled = [["Minutes", "minutes; guilds", "minutes <http://vocab.getty.edu/aat/300027440>"]];
    expect(suggestMapping(withLinks, columns, labelled).columns).toEqual({ Title: "title", Subjects: null, "Subjects URI": "subjects" });
    // Bare URIs: the names column gives their labels.
    const bare = [["Minutes", "minutes", "http://vocab.getty.edu/aat/300027440"]];
    expect(suggestMapping(withLinks, columns, bare).columns).toEqual({ Title: "title", Subjects: "subjects.label", "Subjects URI": "subjects" });
  });

  it("maps a column of authority URIs to the authority field that accepts them", () => {
    const withLinks: FieldDefinition[] = [
      ...fields,
      { key: "mint", label: "Mint", type: "authority", authorities: ["nomisma"] },
      { key: "subjects", label: "Subjects", type: "authority", multiple: true },
    ];
    const rows = [
      ["Denarius", "Rome", "http://nomisma.org/id/rome", "Nero <http://www.wikidata.org/entity/Q1413>; http://www.wikidata.org/entity/Q1405", "x"],
      ["As", "", "", "", "y"],
      ["Aureus", "Lugdunum", "https://nomisma.org/id/lugdunum", "http://vocab.getty.edu/aat/300037222", "z"],
    ];
    expect(suggestMapping(withLinks, ["Title", "Mint", "Nomisma", "Who", "Notes"], rows)).toEqual({
      columns: { Title: "title", Mint: "mint.label", Nomisma: "mint", Who: "subjects", Notes: null },
    });
    // A cell that is not an authority URI keeps the column unmapped.
    expect(suggestMapping(withLinks, ["Who"], [["http://www.wikidata.org/entity/Q1413"], ["Nero"]])).toEqual({ columns: { Who: null } });
  });
});
