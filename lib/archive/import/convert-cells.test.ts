import { describe, expect, it } from "vitest";
import { AppError } from "../../errors";
import type { FieldDefinition } from "../field-definitions";
import { validateRecordValues } from "../validate-record-values";
import { convertCells, resolveMapping } from "./convert-cells";

const fields: FieldDefinition[] = [
  { key: "title", label: "Title", type: "text", required: true },
  { key: "recordedOn", label: "Recorded on", type: "date" },
  { key: "period", label: "Period", type: "daterange" },
  { key: "kind", label: "Kind", type: "category", options: ["letter", "Fotografía"] },
  { key: "people", label: "People", type: "relation", targetSection: "people", multiple: true },
  { key: "place", label: "Place", type: "relation", targetSection: "places" },
  { key: "transcript", label: "Transcript", type: "transcript" },
];

const columns = ["ref", "Title", "Date", "Period", "Kind", "People", "Place", "Transcript"];
const mapping = resolveMapping(fields, columns, {
  externalIdColumn: "ref",
  columns: { Title: "title", Date: "recordedOn", Period: "period", Kind: "kind", People: "people", Place: "place", Transcript: "transcript" },
});

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error.message;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("cells to field values", () => {
  it("converts each type as the editor reads it", () => {
    const row = convertCells(fields, mapping, [
      " r-1 ",
      "=cmd|' /C calc'!A0",
      "1962-04-18",
      "1920 – 1930",
      "fotografia",
      "Ada | Bea;Ada",
      "Girona",
      "[00:01.5 - 00:04] Ada: Hola\n[00:04 - 00:09] Bea: Adéu",
    ]);
    expect(row.problems).toEqual([]);
    expect(row.externalId).toBe("r-1");
    expect(row.values).toEqual({
      title: "=cmd|' /C calc'!A0",
      recordedOn: "1962-04-18",
      period: "1920 – 1930",
      kind: "Fotografía",
      transcript: [
        { speaker: "Ada", start: 1.5, end: 4, text: "Hola" },
        { speaker: "Bea", start: 4, end: 9, text: "Adéu" },
      ],
    });
    expect(row.relationTokens).toEqual(
      new Map([
        ["people", ["Ada", "Bea"]],
        ["place", ["Girona"]],
      ]),
    );
  });

  it("leaves a range's cell as written for the editor's reading: years, negative years, a month, c., a century", () => {
    const period = (cell: string) => {
      const row = convertCells(fields, mapping, ["", "T", "", cell, "", "", "", ""]);
      const checked = validateRecordValues(fields, row.values);
      return checked.ok ? checked.values.period : checked.fieldErrors.period;
    };
    expect(convertCells(fields, mapping, ["", "T", "", "1936", "", "", "", ""]).values).toEqual({ title: "T", period: "1936" });
    expect(period("1936")).toEqual({ from: 1936, to: 1936 });
    expect(period("1920 – 1930")).toEqual({ from: 1920, to: 1930, edtf: "1920/1930", text: "1920 – 1930" });
    expect(period("-50--10")).toEqual({ from: -50, to: -10, edtf: "-0049/-0009", text: "-50--10" });
    expect(period("1923-05")).toEqual({ from: 1923, to: 1923, edtf: "1923-05", text: "1923-05" });
    expect(period("c. 1850")).toEqual({ from: 1850, to: 1850, edtf: "1850~", text: "c. 1850" });
    expect(period("s. XVIII")).toEqual({ from: 1700, to: 1799, edtf: "17XX", text: "s. XVIII" });
    expect(period("the twenties")).toEqual(['Period "the twenties" could not be read: write 1962, 1962-04-18, c. 1850, 1850/1860 or 18XX']);
    expect(convertCells(fields, mapping, ["", "T", "", "  ", "", "", "", ""]).values).toEqual({ title: "T" });
  });

  it("reports each bad cell with its column and field", () => {
    const row = convertCells(fields, mapping, ["r", "T", "", "the twenties", "sculpture", "", "Girona; Figueres", "00:01 hello"]);
    expect(row.problems).toEqual([
      { column: "Kind", field: "kind", message: "Kind must be one of: letter, Fotografía (not “sculpture”)" },
      { column: "Place", field: "place", message: "Place takes one record, but the cell names several" },
      { column: "Transcript", field: "transcript", message: "Transcript: Line 1: expected “[mm:ss.s - mm:ss.s] Speaker: text”." },
    ]);
  });

  it("takes a language as catalogues write it for a category of language codes (cat, Catalan → ca), never a guess", () => {
    const withLanguage: FieldDefinition[] = [...fields, { key: "language", label: "Language", type: "category", options: ["en", "es", "ca"] }];
    const languageMapping = resolveMapping(withLanguage, ["Title", "Language"], { columns: { Title: "title", Language: "language" } });
    for (const cell of ["cat", "Catalan", "ca", "CA"]) expect(convertCells(withLanguage, languageMapping, ["T", cell]).values.language).toBe("ca");
    expect(convertCells(withLanguage, languageMapping, ["T", "spa"]).values.language).toBe("es");
    expect(convertCells(withLanguage, languageMapping, ["T", "fre"]).problems).toEqual([
      { column: "Language", field: "language", message: "Language must be one of: en, es, ca (not “fre”)" },
    ]);
  });

  it("reads a date range from two columns", () => {
    const twoColumns = resolveMapping(fields, ["Title", "From", "To"], { columns: { Title: "title", From: "period.from", To: "period.to" } });
    expect(convertCells(fields, twoColumns, ["T", "1920", "1931"]).values.period).toEqual({ from: 1920, to: 1931 });
    expect(convertCells(fields, twoColumns, ["T", "1920", "soon"]).problems).toEqual([
      { column: "To", field: "period", message: "Period needs a whole year in both columns" },
    ]);
  });
});

describe("mapping checks", () => {
  it("refuses unknown columns, unknown fields, a field filled twice and half a date range", () => {
    expect(refusal(() => resolveMapping(fields, ["Title", "Colour"], { columns: { Title: "title" } }))).toBe(
      'The column "Colour" matches no field of the section: map it to a field or ignore it.',
    );
    expect(refusal(() => resolveMapping(fields, ["Title"], { columns: { Title: "title", Missing: "kind" } }))).toBe(
      'The mapping names the column "Missing", which the file does not have.',
    );
    expect(refusal(() => resolveMapping(fields, ["Title"], { columns: { Title: "name" } }))).toBe(
      'The column "Title" is mapped to "name", which is not a field of the section.',
    );
    expect(refusal(() => resolveMapping(fields, ["A", "B"], { columns: { A: "title", B: "title" } }))).toBe(
      'The columns "A" and "B" are both mapped to title.',
    );
    expect(refusal(() => resolveMapping(fields, ["T", "A"], { columns: { T: "title", A: "period.from" } }))).toMatch(/needs both/);
    expect(refusal(() => resolveMapping(fields, ["T", "A"], { columns: { T: "title", A: "kind.from" } }))).toMatch(/not a date range field/);
    expect(refusal(() => resolveMapping(fields, ["A"], { externalIdColumn: "B", columns: { A: "title" } }))).toMatch(/external id column "B"/);
    expect(refusal(() => resolveMapping(fields, ["A"], { columns: { A: "kind" } }))).toBe("Every record needs Title: map a column to it.");
  });

  it("accepts ignored columns", () => {
    expect(resolveMapping(fields, ["Title", "Colour"], { columns: { Title: "title", Colour: null } }).fields.size).toBe(1);
  });
});

describe("authority link cells", () => {
  const linkFields: FieldDefinition[] = [
    { key: "title", label: "Title", type: "text", required: true },
    { key: "mint", label: "Mint", type: "authority", authorities: ["nomisma"] },
    { key: "subjects", label: "Subjects", type: "authority", multiple: true },
  ];
  const nero = "http://www.wikidata.org/entity/Q1413";
  const augustus = "http://www.wikidata.org/entity/Q1405";
  const oneColumn = resolveMapping(linkFields, ["Title", "Mint URI", "Subjects"], { columns: { Title: "title", "Mint URI": "mint", Subjects: "subjects" } });
  const withLabels = resolveMapping(linkFields, ["Title", "Mint URI", "Mint", "Subjects", "Subject names"], {
    columns: { Title: "title", "Mint URI": "mint", Mint: "mint.label", Subjects: "subjects", "Subject names": "subjects.label" },
  });
  const checked = (mapping: typeof oneColumn, cells: string[]) => {
    const row = convertCells(linkFields, mapping, cells);
    return { problems: row.problems, saved: validateRecordValues(linkFields, row.values) };
  };

  it("reads a URI, Label <URI>, and several separated by ; or line breaks", () => {
    expect(
      checked(oneColumn, [
        "T",
        " https://nomisma.org/id/rome ",
        `Nero <https://www.wikidata.org/wiki/Q1413>; ${augustus}\nEmperor <http://vocab.getty.edu/aat/300025481>`,
      ]),
    ).toEqual({
      problems: [],
      saved: {
        ok: true,
        values: {
          title: "T",
          mint: { uri: "http://nomisma.org/id/rome" },
          subjects: [{ uri: nero, label: "Nero" }, { uri: augustus }, { uri: "http://vocab.getty.edu/aat/300025481", label: "Emperor" }],
        },
      },
    });
    expect(convertCells(linkFields, oneColumn, ["T", "", " "]).values).toEqual({ title: "T" });
  });

  it("takes the labels from their own column, one for each URI in order", () => {
    expect(checked(withLabels, ["T", "http://nomisma.org/id/rome", "Roma", `${nero}; ${augustus}`, "Nero; Augustus"]).saved).toEqual({
      ok: true,
      values: {
        title: "T",
        mint: { uri: "http://nomisma.org/id/rome", label: "Roma" },
        subjects: [
          { uri: nero, label: "Nero" },
          { uri: augustus, label: "Augustus" },
        ],
      },
    });
    expect(checked(withLabels, ["T", "", "Roma", `${nero}; ${augustus}`, "Nero"]).problems).toEqual([
      { column: "Mint URI", field: "mint", message: "Mint has the label “Roma” but no URI" },
      { column: "Subject names", field: "subjects", message: "Subjects has 2 URIs but 1 label: give one label for each URI, in the same order" },
    ]);
  });

  it("leaves a cell that is not an accepted URI to the save, which quotes it", () => {
    const row = checked(oneColumn, ["T", nero, "Nero"]);
    expect(row.problems).toEqual([]);
    expect(row.saved).toEqual({
      ok: false,
      fieldErrors: {
        mint: [`Mint "${nero}" is not an authority URI: write a Nomisma URI, such as http://nomisma.org/id/athens`],
        subjects: [expect.stringMatching(/^Subjects "Nero" is not an authority URI: write a Wikidata, /)],
      },
    });
    // A single link's cell is one link: two are quoted whole.
    expect(checked(oneColumn, ["T", "http://nomisma.org/id/rome; http://nomisma.org/id/athens", ""]).saved).toMatchObject({
      ok: false,
      fieldErrors: { mint: [expect.stringContaining('"http://nomisma.org/id/rome; http://nomisma.org/id/athens"')] },
    });
  });

  it("reads a JSON file's stored links", () => {
    expect(checked(oneColumn, ["T", JSON.stringify({ uri: "http://nomisma.org/id/rome", label: "Rome" }), JSON.stringify([nero])]).saved).toEqual({
      ok: true,
      values: { title: "T", mint: { uri: "http://nomisma.org/id/rome", label: "Rome" }, subjects: [{ uri: nero }] },
    });
    expect(convertCells(linkFields, oneColumn, ["T", "{broken", ""]).problems).toEqual([
      { column: "Mint URI", field: "mint", message: "Mint is not valid JSON (write a URI, or Label <URI>)" },
    ]);
  });

  it("refuses a label column for a field that is not an authority, or without the URI column", () => {
    expect(refusal(() => resolveMapping(linkFields, ["T", "A"], { columns: { T: "title", A: "title.label" } }))).toBe(
      'The column "A" is mapped to "title.label", but title is not an authority field of the section.',
    );
    expect(refusal(() => resolveMapping(linkFields, ["T", "A"], { columns: { T: "title", A: "mint.label" } }))).toBe(
      'The column "A" holds the labels of mint: map the column of its URIs to mint too.',
    );
    expect(refusal(() => resolveMapping(linkFields, ["T", "A", "B"], { columns: { T: "title", A: "mint.label", B: "mint.label" } }))).toBe(
      'The columns "A" and "B" are both mapped to mint.label.',
    );
  });
});
