import { describe, expect, it } from "vitest";
import type { FieldDefinition } from "./field-definitions";
import { writtenDate } from "./date-values";
import { readWrittenDate } from "./edtf";
import { recordTitle, recordYears, validateRecordValues, withShownRelations } from "./validate-record-values";

const fields: FieldDefinition[] = [
  { key: "title", label: "Title", type: "text", required: true, maxLength: 20 },
  { key: "born", label: "Born", type: "date" },
  { key: "period", label: "Period", type: "daterange" },
  { key: "metal", label: "Metal", type: "category", options: ["gold", "silver"] },
  { key: "narrator", label: "Narrator", type: "relation", targetSection: "people" },
  { key: "authors", label: "Authors", type: "relation", targetSection: "people", multiple: true },
  { key: "transcript", label: "Transcript", type: "transcript" },
];
const id = "8f14e45f-ceea-4e7a-9f6a-2b1c3d4e5f60";

describe("validateRecordValues", () => {
  it("normalises valid values and drops blanks", () => {
    const result = validateRecordValues(fields, {
      title: "  Coin  ",
      born: "1931-04",
      period: { from: -400, to: -380, extra: 1 },
      metal: "silver",
      narrator: id,
      authors: [id, id],
      transcript: [{ speaker: " Ana ", start: 0, end: 2.5, text: " Hola " }],
      metalNote: undefined,
    });
    expect(result).toEqual({
      ok: true,
      values: {
        title: "Coin",
        born: "1931-04",
        period: { from: -400, to: -380 },
        metal: "silver",
        narrator: id,
        authors: [id],
        transcript: [{ speaker: "Ana", start: 0, end: 2.5, text: "Hola" }],
      },
    });
  });

  it("names each problem under its field", () => {
    const result = validateRecordValues(fields, {
      title: "x".repeat(21),
      born: "31/04/1931",
      period: { from: 10, to: 5 },
      metal: "tin",
      authors: "not a list",
      transcript: [
        { speaker: "A", start: 3, end: 4, text: "b" },
        { speaker: "A", start: 1, end: 2, text: "c" },
      ],
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.fieldErrors).toEqual({
      title: ["Title must be at most 20 characters"],
      born: ['Born "31/04/1931" is not a date that exists: April 1931 has 30 days'],
      period: ["Period from must not be after to"],
      metal: ["Metal must be one of: gold, silver"],
      authors: ["Authors must reference existing records"],
      transcript: ["Transcript turn 2 starts before the turn above it"],
    });
  });

  it("refuses dates that do not exist, counting leap years", () => {
    const born = (value: string) => validateRecordValues(fields, { title: "A", born: value });
    expect(born("1962-02-31")).toEqual({ ok: false, fieldErrors: { born: ['Born "1962-02-31" is not a date that exists: February 1962 has 28 days'] } });
    expect(born("1900-02-29").ok).toBe(false);
    expect(born("2000-02-29").ok).toBe(true);
    expect(born("1962-04-31").ok).toBe(false);
    expect(born("1962-12-31").ok).toBe(true);
    expect(born("1962000000").ok).toBe(false);
  });

  it("refuses text the database cannot store, under its field, whatever the field's type", () => {
    const result = validateRecordValues(fields, {
      title: "Harbour\u0000log",
      metal: "gold\uD800",
      transcript: [{ speaker: "Ann", start: 0, end: 1, text: "Hello\u0000" }],
    });
    expect(result).toEqual({
      ok: false,
      fieldErrors: {
        title: ["Title contains a NUL character (U+0000), which cannot be stored; remove it"],
        metal: ["Metal contains half of a character (an unpaired UTF-16 surrogate), which cannot be stored; type or paste that text again"],
        transcript: ["Transcript contains a NUL character (U+0000), which cannot be stored; remove it"],
      },
    });
  });

  it("keeps a speaker's name whole when it is cut to 120 units", () => {
    const speaker = `${"a".repeat(119)}😀`;
    const result = validateRecordValues(fields, { title: "A", transcript: [{ speaker, start: 0, end: 1, text: "Hi" }] });
    expect(result.ok && (result.values.transcript as { speaker: string }[])[0]?.speaker).toBe("a".repeat(119));
  });

  it("validates index segments: times in order, text bounded, keywords cleaned", () => {
    const index: FieldDefinition[] = [{ key: "index", label: "Index", type: "segments" }];
    const segment = { start: 0, end: 70, title: " Infància ", synopsis: "La riada.", keywords: [" riada ", "riada", "", "pantà"], partialTranscript: "" };
    expect(validateRecordValues(index, { index: [segment] })).toEqual({
      ok: true,
      values: { index: [{ start: 0, end: 70, title: "Infància", synopsis: "La riada.", keywords: ["riada", "pantà"], partialTranscript: "" }] },
    });
    const errorOf = (value: unknown) => {
      const result = validateRecordValues(index, { index: value });
      return result.ok ? null : result.fieldErrors.index;
    };
    expect(errorOf("text")).toEqual(["Index must be a list of timecoded segments"]);
    expect(errorOf([{ ...segment, start: 10, end: 5 }])).toEqual(["Index segment 1 ends before it starts"]);
    expect(errorOf([segment, { ...segment, start: -1 }])).toEqual(["Index segment 2 ends before it starts"]);
    expect(errorOf([{ ...segment, start: 80, end: 90 }, segment])).toEqual(["Index segment 2 starts before the segment above it"]);
    expect(errorOf([{ ...segment, start: "0" }])).toEqual(["Index segment 1 needs a start and end time in seconds"]);
    expect(errorOf([{ start: 0, end: 1, title: "", synopsis: "", keywords: [], partialTranscript: "" }])).toEqual(["Index segment 1 has no text"]);
    expect(errorOf([{ ...segment, title: "x".repeat(301) }])).toEqual(["Index segment 1: the title must be at most 300 characters"]);
    expect(errorOf([{ ...segment, keywords: ["a;b"] }])).toEqual(["Index segment 1: a keyword may not contain “;”, which separates keywords"]);
    expect(errorOf([{ ...segment, keywords: "riada" }])).toEqual(["Index segment 1: keywords must be a list of text"]);
    expect(errorOf(Array.from({ length: 2001 }, () => segment))).toEqual(["Index must have at most 2000 segments"]);
  });

  it("requires required fields", () => {
    expect(validateRecordValues(fields, { title: "   " })).toEqual({ ok: false, fieldErrors: { title: ["Title is required"] } });
  });

  it("derives title and years", () => {
    expect(recordTitle(fields, { title: "A" })).toBe("A");
    expect(recordTitle(fields, {})).toBe("Untitled");
    expect(recordYears(fields, { born: "1931-04-02" })).toEqual({ from: 1931, to: 1931 });
    expect(recordYears(fields, { period: { from: -400, to: -380 } })).toEqual({ from: -400, to: -380 });
    expect(recordYears(fields, {})).toEqual({ from: null, to: null });
  });
});

describe("dates as written", () => {
  const check = (values: Record<string, unknown>) => validateRecordValues(fields, { title: "A", ...values });

  it("keeps an EDTF date as the string it always was, and other writing beside its EDTF", () => {
    expect(check({ born: "1962-04-18" })).toEqual({ ok: true, values: { title: "A", born: "1962-04-18" } });
    expect(check({ born: "1850~" })).toEqual({ ok: true, values: { title: "A", born: "1850~" } });
    expect(check({ born: "  c.  1850 " })).toEqual({ ok: true, values: { title: "A", born: { edtf: "1850~", text: "c. 1850" } } });
    expect(check({ born: "segle XVIII" })).toEqual({ ok: true, values: { title: "A", born: { edtf: "17XX", text: "segle XVIII" } } });
    expect(check({ born: "1850-1860" })).toEqual({ ok: true, values: { title: "A", born: { edtf: "1850/1860", text: "1850-1860" } } });
  });

  it("takes an EDTF given beside words no reader knows, and re-reads a stored value unchanged", () => {
    expect(check({ born: { edtf: "1939/1945", text: "during the war" } })).toEqual({
      ok: true,
      values: { title: "A", born: { edtf: "1939/1945", text: "during the war" } },
    });
    expect(check({ born: { text: "hacia 1850" } })).toEqual({ ok: true, values: { title: "A", born: { edtf: "1850~", text: "hacia 1850" } } });
    expect(check({ born: { edtf: "1850?" } })).toEqual({ ok: true, values: { title: "A", born: "1850?" } });
    expect(check({ born: { edtf: "c. 1850", text: "x" } })).toEqual({
      ok: false,
      fieldErrors: { born: ['Born "c. 1850" is not EDTF: write 1962, 1962-04-18, c. 1850, 1850/1860 or 18XX'] },
    });
    expect(check({ born: { edtf: 1850 } })).toEqual({ ok: false, fieldErrors: { born: ["Born must have edtf and text as text"] } });
  });

  it("reads a range written as one date: 1923-05 is May 1923, not the years 1923 to 5", () => {
    expect(check({ period: "1923-05" })).toEqual({ ok: true, values: { title: "A", period: { from: 1923, to: 1923, edtf: "1923-05", text: "1923-05" } } });
    expect(check({ period: "c. 1850" })).toEqual({ ok: true, values: { title: "A", period: { from: 1850, to: 1850, edtf: "1850~", text: "c. 1850" } } });
    expect(check({ period: "18th century" })).toEqual({
      ok: true,
      values: { title: "A", period: { from: 1700, to: 1799, edtf: "17XX", text: "18th century" } },
    });
    expect(check({ period: { from: 1920, to: 1930, edtf: "1920/1930", text: "1920-1930" } })).toEqual({
      ok: true,
      values: { title: "A", period: { from: 1920, to: 1930, edtf: "1920/1930", text: "1920-1930" } },
    });
    expect(check({ period: "XXXX" })).toEqual({ ok: false, fieldErrors: { period: ['Period "XXXX" names no year'] } });
  });

  it("gives a value back unchanged when the editor shows it and it is saved again", () => {
    for (const [key, stored] of [
      ["born", "800"],
      ["born", "-44-03-15"],
      ["born", "1962-04-18"],
      ["born", "1850~"],
      ["born", { edtf: "1850~", text: "c. 1850" }],
      ["born", { edtf: "1939/1945", text: "during the war" }],
      ["period", { from: -400, to: -380 }],
      ["period", { from: 1936, to: 1936 }],
      ["period", { from: 1850, to: 1850, edtf: "1850~", text: "c. 1850" }],
      ["period", { from: 1923, to: 1923, edtf: "1923-05", text: "1923-05" }],
    ] as const) {
      // The editor's box holds writtenDate(value); an API client may send the stored value itself.
      const written = writtenDate(stored);
      const expected = typeof stored === "object" && "edtf" in stored && readWrittenDate(stored.text).ok === false ? undefined : stored;
      if (expected !== undefined) expect(check({ [key]: written }), `${key} ${written}`).toEqual({ ok: true, values: { title: "A", [key]: stored } });
      expect(check({ [key]: stored })).toEqual({ ok: true, values: { title: "A", [key]: stored } });
    }
    expect(check({ period: "1860/1850" })).toEqual({ ok: false, fieldErrors: { period: ['Period "1860/1850" starts after it ends'] } });
  });

  it("quotes what it could not read", () => {
    expect(check({ born: "sometime in spring" })).toEqual({
      ok: false,
      fieldErrors: { born: ['Born "sometime in spring" could not be read: write 1962, 1962-04-18, c. 1850, 1850/1860 or 18XX'] },
    });
    expect(check({ period: "1860-1850" })).toEqual({ ok: false, fieldErrors: { period: ['Period "1860-1850" starts after it ends'] } });
    expect(check({ born: 1962 })).toEqual({ ok: false, fieldErrors: { born: ["Born must be a date like 1962-04-18, c. 1850, 1850/1860 or 18XX"] } });
    expect(check({ born: "1".repeat(201) })).toEqual({ ok: false, fieldErrors: { born: ["Born must be at most 200 characters"] } });
  });

  it("files a record under the years its date covers", () => {
    expect(recordYears(fields, { born: { edtf: "1850~", text: "c. 1850" } })).toEqual({ from: 1850, to: 1850 });
    expect(recordYears(fields, { born: { edtf: "17XX", text: "s. XVIII" } })).toEqual({ from: 1700, to: 1799 });
    expect(recordYears(fields, { born: "1850/.." })).toEqual({ from: 1850, to: 1850 });
    expect(recordYears(fields, { period: { from: 1923, to: 1923, edtf: "1923-05", text: "1923-05" } })).toEqual({ from: 1923, to: 1923 });
    expect(recordYears(fields, { born: "800" })).toEqual({ from: 800, to: 800 });
  });
});

describe("withShownRelations", () => {
  const other = "0b9e2a61-5d7c-4f3e-8a1b-9c8d7e6f5a40";
  const values = { title: "Coin", metal: "gold", narrator: id, authors: [other, id] };

  it("keeps the targets the reader may see and leaves every other field alone", () => {
    expect(withShownRelations(fields, values, new Set([id, other]))).toEqual(values);
    expect(withShownRelations(fields, values, new Set([id]))).toEqual({ title: "Coin", metal: "gold", narrator: id, authors: [id] });
  });

  it("leaves a relation with no target the reader may see out, exactly as an unset one", () => {
    const hidden = withShownRelations(fields, values, new Set());
    expect(hidden).toEqual({ title: "Coin", metal: "gold" });
    expect(Object.keys(hidden)).toEqual(Object.keys(withShownRelations(fields, { title: "Coin", metal: "gold" }, new Set())));
    expect(values.authors).toEqual([other, id]);
  });
});
