import { describe, expect, it } from "vitest";
import { keptDateOf, writtenDate } from "./date-values";
import type { FieldDefinition } from "./field-definitions";
import { readRecordForm, recordInputName } from "./record-form-data";
import { validateRecordValues } from "./validate-record-values";

const fields: FieldDefinition[] = [
  { key: "title", label: "Title", type: "text" },
  { key: "born", label: "Born", type: "date" },
  { key: "period", label: "Period", type: "daterange" },
];

/** The form as the editor renders it for stored values, with the boxes as the user left them. */
function form(stored: Record<string, unknown>, boxes: Record<string, string> = {}): FormData {
  const data = new FormData();
  data.set(recordInputName.value("title"), "A");
  for (const key of ["born", "period"]) {
    data.set(recordInputName.value(key), boxes[key] ?? writtenDate(stored[key]));
    const kept = keptDateOf(stored[key]);
    if (kept) data.set(recordInputName.keptDate(key), JSON.stringify(kept));
  }
  return data;
}

function saved(data: FormData) {
  return validateRecordValues(fields, readRecordForm(fields, data).values);
}

describe("the record form's dates", () => {
  it("saves every stored shape unchanged when its box is left alone", () => {
    for (const stored of [
      { born: "1962-04-18", period: { from: -400, to: -380 } },
      { born: "800", period: { from: 1936, to: 1936 } },
      { born: { edtf: "1850~", text: "c. 1850" }, period: { from: 1700, to: 1799, edtf: "17XX", text: "s. XVIII" } },
      { born: { edtf: "1939/1945", text: "during the war" }, period: { from: 1923, to: 1923, edtf: "1923-05", text: "1923-05" } },
    ]) {
      expect(saved(form(stored))).toEqual({ ok: true, values: { title: "A", ...stored } });
    }
  });

  it("reads a changed box as written, and quotes it when it cannot", () => {
    const stored = { born: { edtf: "1939/1945", text: "during the war" }, period: { from: 1920, to: 1930 } };
    expect(saved(form(stored, { born: "hacia 1940", period: "1923-05" }))).toEqual({
      ok: true,
      values: { title: "A", born: { edtf: "1940~", text: "hacia 1940" }, period: { from: 1923, to: 1923, edtf: "1923-05", text: "1923-05" } },
    });
    expect(saved(form(stored, { born: "after the war" }))).toEqual({
      ok: false,
      fieldErrors: { born: ['Born "after the war" could not be read: write 1962, 1962-04-18, c. 1850, 1850/1860 or 18XX'] },
    });
  });

  it("takes a kept EDTF only with its own text, and checks it like any other", () => {
    const data = form({}, { born: "c. 1850" });
    data.set(recordInputName.keptDate("born"), JSON.stringify({ edtf: "1939/1945", text: "during the war" }));
    expect(saved(data)).toMatchObject({ ok: true, values: { born: { edtf: "1850~", text: "c. 1850" } } });
    const forged = form({}, { born: "x" });
    forged.set(recordInputName.keptDate("born"), JSON.stringify({ edtf: "not EDTF", text: "x" }));
    expect(saved(forged)).toEqual({ ok: false, fieldErrors: { born: ['Born "not EDTF" is not EDTF: write 1962, 1962-04-18, c. 1850, 1850/1860 or 18XX'] } });
    const broken = form({}, { born: "1850" });
    broken.set(recordInputName.keptDate("born"), "{not json");
    expect(saved(broken)).toMatchObject({ ok: true, values: { born: "1850" } });
  });

  it("still reads a range from two year boxes, and an empty box as no date", () => {
    const data = new FormData();
    data.set(recordInputName.rangeFrom("period"), "1990");
    data.set(recordInputName.rangeTo("period"), "1950");
    expect(validateRecordValues(fields, readRecordForm(fields, data).values)).toEqual({
      ok: false,
      fieldErrors: { period: ["Period from must not be after to"] },
    });
    const empty = form({}, { born: "", period: "" });
    expect(saved(empty)).toEqual({ ok: true, values: { title: "A" } });
  });
});

describe("the record form's authority links", () => {
  const linkFields: FieldDefinition[] = [
    { key: "title", label: "Title", type: "text" },
    { key: "mint", label: "Mint", type: "authority", authorities: ["nomisma"] },
    { key: "subjects", label: "Subjects", type: "authority", multiple: true },
  ];
  const nero = "http://www.wikidata.org/entity/Q1413";
  const submit = (boxes: Record<string, string>) => {
    const data = new FormData();
    data.set(recordInputName.value("title"), "A");
    for (const [name, value] of Object.entries(boxes)) data.set(name, value);
    return readRecordForm(linkFields, data);
  };
  const save = (boxes: Record<string, string>) => validateRecordValues(linkFields, submit(boxes).values);

  it("reads one link from its URI and label boxes, and a list one link a line", () => {
    expect(
      save({
        [recordInputName.value("mint")]: " https://nomisma.org/id/rome ",
        [recordInputName.authorityLabel("mint")]: " Rome ",
        [recordInputName.value("subjects")]:
          `Nero <https://www.wikidata.org/wiki/Q1413>\n\n  http://vocab.getty.edu/page/aat/300037222 \nEmperor Nero <${nero}>\n`,
      }),
    ).toEqual({
      ok: true,
      values: {
        title: "A",
        mint: { uri: "http://nomisma.org/id/rome", label: "Rome" },
        // Canonical URIs; the second line naming the same entity again adds nothing.
        subjects: [{ uri: nero, label: "Nero" }, { uri: "http://vocab.getty.edu/aat/300037222" }],
      },
    });
  });

  it("reads Label <URI> pasted into the URI box, the label box winning when both are given", () => {
    expect(save({ [recordInputName.value("mint")]: "Roma <http://nomisma.org/id/rome>" })).toMatchObject({
      ok: true,
      values: { mint: { uri: "http://nomisma.org/id/rome", label: "Roma" } },
    });
    expect(save({ [recordInputName.value("mint")]: "Roma <http://nomisma.org/id/rome>", [recordInputName.authorityLabel("mint")]: "Rome" })).toMatchObject({
      ok: true,
      values: { mint: { uri: "http://nomisma.org/id/rome", label: "Rome" } },
    });
  });

  it("quotes a URI of no accepted authority, and asks for the URI of a label given alone", () => {
    expect(save({ [recordInputName.value("mint")]: nero, [recordInputName.value("subjects")]: "Nero\nhttp://example.org/nero" })).toEqual({
      ok: false,
      fieldErrors: {
        mint: [`Mint "${nero}" is not an authority URI: write a Nomisma URI, such as http://nomisma.org/id/athens`],
        subjects: [
          expect.stringMatching(
            /^Subjects "Nero" is not an authority URI: write a Wikidata, .* or CRRO URI, such as http:\/\/www\.wikidata\.org\/entity\/Q1492$/,
          ),
        ],
      },
    });
    const labelOnly = submit({ [recordInputName.authorityLabel("mint")]: "Rome" });
    expect(labelOnly.fieldErrors).toEqual({
      mint: ["Mint has the label “Rome” but no URI: write a Nomisma URI, such as http://nomisma.org/id/athens, or empty the label to remove the link"],
    });
  });

  it("reads empty boxes as no links", () => {
    expect(save({ [recordInputName.value("mint")]: " ", [recordInputName.authorityLabel("mint")]: "", [recordInputName.value("subjects")]: "\n \n" })).toEqual({
      ok: true,
      values: { title: "A" },
    });
  });
});
