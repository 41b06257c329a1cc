import { describe, expect, it } from "vitest";
import type { FieldDefinition } from "../field-definitions";
import { type CitableRecord, citationItem, citeSelectionHref, toBibtex, toCslJson, toRis } from "./index";

/**
 * The three formats parsed back: a small RIS reader and a BibTeX reader written to the formats'
 * grammar (not to the writers), so a value that escapes its field, a line that breaks a record
 * or an unbalanced brace shows up as a different value read back.
 */
function readRis(text: string): Record<string, string[]>[] {
  const records: Record<string, string[]>[] = [];
  let current: Record<string, string[]> | null = null;
  for (const line of text.split("\r\n")) {
    if (line === "") continue;
    const match = /^([A-Z][A-Z0-9])  - (.*)$/.exec(line);
    if (!match) throw new Error(`not an RIS line: ${JSON.stringify(line)}`);
    const [, tag, value] = match as unknown as [string, string, string];
    if (tag === "TY") {
      if (current) throw new Error("TY inside a record");
      current = { TY: [value] };
    } else if (tag === "ER") {
      if (!current) throw new Error("ER outside a record");
      records.push(current);
      current = null;
    } else {
      if (!current) throw new Error(`${tag} outside a record`);
      (current[tag] ??= []).push(value);
    }
  }
  if (current) throw new Error("record without ER");
  return records;
}

const latexUnescapes: [RegExp, string][] = [
  [/\\textbackslash\{\}/g, "\\"],
  [/\\\^\{\}/g, "^"],
  [/\\~\{\}/g, "~"],
  [/\\([{}$&%#_])/g, "$1"],
];

/** BibTeX entries: type, key and brace-delimited fields; braces must balance, escapes are undone. */
function readBibtex(text: string): { type: string; key: string; fields: Record<string, string> }[] {
  const entries: { type: string; key: string; fields: Record<string, string> }[] = [];
  let at = 0;
  const skipSpace = () => {
    while (at < text.length && /\s/.test(text[at]!)) at++;
  };
  const expect$ = (character: string) => {
    if (text[at] !== character) throw new Error(`expected ${character} at ${at}, found ${JSON.stringify(text.slice(at, at + 20))}`);
    at++;
  };
  const braced = (): string => {
    expect$("{");
    let depth = 1;
    const start = at;
    while (depth > 0) {
      if (at >= text.length) throw new Error("unbalanced braces");
      const character = text[at]!;
      if (character === "\\") at += 2;
      else {
        if (character === "{") depth++;
        if (character === "}") depth--;
        at++;
      }
    }
    return text.slice(start, at - 1);
  };
  skipSpace();
  while (at < text.length) {
    expect$("@");
    const type = /^[a-z]+/.exec(text.slice(at))![0];
    at += type.length;
    expect$("{");
    const key = /^[^,\s]+/.exec(text.slice(at))![0];
    at += key.length;
    expect$(",");
    const fields: Record<string, string> = {};
    for (;;) {
      skipSpace();
      if (text[at] === "}") {
        at++;
        break;
      }
      const name = /^[a-z_]+/.exec(text.slice(at))?.[0];
      if (!name) throw new Error(`no field name at ${at}`);
      at += name.length;
      skipSpace();
      expect$("=");
      skipSpace();
      let value = braced();
      for (const [pattern, replacement] of latexUnescapes) value = value.replace(pattern, replacement);
      if (name in fields) throw new Error(`field ${name} twice`);
      fields[name] = value;
      skipSpace();
      if (text[at] === ",") at++;
    }
    entries.push({ type, key, fields });
    skipSpace();
  }
  return entries;
}

const interviewFields: FieldDefinition[] = [
  { key: "title", label: "Title", type: "text", required: true, listed: true },
  { key: "language", label: "Language", type: "category", options: ["en", "es", "ca"], listed: true },
  { key: "narrator", label: "Narrator", type: "relation", targetSection: "people" },
  { key: "interviewer", label: "Interviewer", type: "relation", targetSection: "people" },
  { key: "place", label: "Place", type: "relation", targetSection: "places" },
  { key: "recordedOn", label: "Recorded on", type: "date" },
  { key: "summary", label: "Summary", type: "longtext" },
  { key: "keywords", label: "Keywords", type: "text" },
  { key: "recording", label: "Recording", type: "media", mediaKind: "audio" },
  { key: "transcript", label: "Transcript", type: "transcript", mediaField: "recording" },
];

const publicationFields: FieldDefinition[] = [
  { key: "title", label: "Title", type: "text", required: true },
  { key: "authors", label: "Authors", type: "relation", targetSection: "people", multiple: true },
  { key: "language", label: "Language", type: "category", options: ["en", "es", "ca"] },
  { key: "publicationType", label: "Type", type: "category", options: ["article", "report", "book chapter", "letter"] },
  { key: "publishedIn", label: "Published in", type: "text" },
  { key: "year", label: "Year", type: "date" },
  { key: "abstract", label: "Abstract", type: "longtext" },
  { key: "subjects", label: "Subjects", type: "text" },
];

const coinFields: FieldDefinition[] = [
  { key: "title", label: "Title", type: "text", required: true },
  { key: "date", label: "Date", type: "daterange" },
  { key: "accessionNumber", label: "Accession number", type: "text" },
  { key: "obverse", label: "Obverse", type: "image", view: "obverse" },
];

const personFields: FieldDefinition[] = [
  { key: "name", label: "Name", type: "text", required: true },
  { key: "born", label: "Born", type: "date" },
  { key: "biography", label: "Biography", type: "longtext" },
];

const narratorId = "11111111-1111-4111-8111-111111111111";
const interviewerId = "22222222-2222-4222-8222-222222222222";
const placeId = "33333333-3333-4333-8333-333333333333";
const origin = "https://archive.example.org";

const interview: CitableRecord = {
  id: "a1b2c3d4-0000-4000-8000-000000000001",
  title: "Andrés Puig on the last harvest",
  values: {
    title: "Andrés Puig on the last harvest",
    language: "ca",
    narrator: narratorId,
    interviewer: interviewerId,
    place: placeId,
    recordedOn: "1998-04-18",
    summary: "The valley before the dam:\nfields, the mill\r\nand the church.",
    keywords: "reservoir, displacement; memory",
    recording: "44444444-4444-4444-8444-444444444444",
  },
  project: { name: "Voices of the Drowned Valley" },
  section: { slug: "oral-histories", name: "Oral histories", fields: interviewFields },
  relations: { [narratorId]: { title: "Andrés Puig i Soler" }, [interviewerId]: { title: "Ferrer, Marta" }, [placeId]: { title: "Sant Romà de Vall" } },
};

/** Titles that break naive writers: quotes, braces (balanced and not), LaTeX specials, accents, line breaks. */
const trickyTitles = [
  'The "last" harvest: {Sant Romà} & the 50% rule',
  "An unbalanced } brace { and a \\ backslash",
  "Tab\tand\nnewline\r\nand CR\rin a title",
  "Ñandú, ça, ü, 日本語 and emoji 🎙",
  "#hash $dollar _under ^caret ~tilde",
  "ER  - a title that looks like the end of a record",
];

function publication(title: string, type: string, extra: Record<string, unknown> = {}): CitableRecord {
  return {
    id: "b2c3d4e5-0000-4000-8000-000000000002",
    title,
    values: {
      title,
      authors: [narratorId, interviewerId],
      publicationType: type,
      publishedIn: "Revista d'Història {local}",
      year: "1987-06",
      abstract: "An abstract.",
      subjects: "dams, valleys",
      ...extra,
    },
    project: { name: "Voices of the Drowned Valley" },
    section: { slug: "publications", name: "Publications", fields: publicationFields },
    relations: { [narratorId]: { title: "Andrés Puig i Soler" }, [interviewerId]: { title: "Ferrer, Marta" } },
  };
}

describe("citation items from records", () => {
  it("maps an oral history: narrator as author, interviewer, date, place, language, keywords and the record URL", () => {
    const item = citationItem(interview, { origin });
    expect(item).toMatchObject({
      kind: "interview",
      authors: [{ family: "Puig i Soler", given: "Andrés" }],
      interviewers: [{ family: "Ferrer", given: "Marta" }],
      issued: { from: [1998, 4, 18] },
      place: "Sant Romà de Vall",
      language: "ca",
      keywords: ["reservoir", "displacement", "memory"],
      abstract: "The valley before the dam: fields, the mill and the church.",
      archive: "Voices of the Drowned Valley",
      url: `${origin}/records/${interview.id}`,
    });
    expect(item.note).toBeUndefined();
  });

  it("cites a recording at a second: the URL opens the player there and a note says when", () => {
    const item = citationItem(interview, { origin: `${origin}/`, seconds: 754.9 });
    expect(item.url).toBe(`${origin}/records/${interview.id}?t=754`);
    expect(item.note).toBe("Cited at 12:34 of the recording.");
    expect(citationItem(interview, { origin, seconds: 3723 }).note).toBe("Cited at 1:02:03 of the recording.");
    // A record without a recording has no moment to cite.
    expect(citationItem(publication("A report", "report"), { origin, seconds: 30 }).url).toBe(`${origin}/records/b2c3d4e5-0000-4000-8000-000000000002`);
  });

  it("takes the item type from the section: publication types, objects, and people as plain documents", () => {
    expect(citationItem(publication("T", "article"), { origin }).kind).toBe("article");
    expect(citationItem(publication("T", "newspaper article"), { origin }).kind).toBe("newspaper");
    expect(citationItem(publication("T", "report"), { origin })).toMatchObject({
      kind: "report",
      publisher: "Revista d'Història {local}",
      containerTitle: undefined,
    });
    expect(citationItem(publication("T", "book chapter"), { origin })).toMatchObject({ kind: "chapter", containerTitle: "Revista d'Història {local}" });
    expect(citationItem(publication("T", "letter"), { origin }).kind).toBe("letter");
    const coin = citationItem(
      {
        id: "c0000000-0000-4000-8000-000000000003",
        title: "Denarius of Augustus",
        values: { title: "Denarius of Augustus", date: { from: -2, to: 4 }, accessionNumber: "1944.100.1" },
        project: { name: "Public Collections" },
        section: { slug: "coins", name: "Coins", fields: coinFields },
        relations: {},
      },
      { origin },
    );
    expect(coin).toMatchObject({ kind: "artwork", issued: { from: [-2], to: [4] }, archiveLocation: "1944.100.1" });
    const person = citationItem(
      {
        id: "d0000000-0000-4000-8000-000000000004",
        title: "Andrés Puig i Soler",
        values: { name: "Andrés Puig i Soler", born: "1921", biography: "Farmer." },
        project: { name: "P" },
        section: { slug: "people", name: "People", fields: personFields },
        relations: {},
      },
      { origin },
    );
    // A birth date does not date the record as a work.
    expect(person).toMatchObject({ kind: "document", issued: undefined, authors: [] });
  });
});

describe("dates as written, in citations", () => {
  const coin = (date: unknown): CitableRecord => ({
    id: "c0000000-0000-4000-8000-000000000009",
    title: "Coin",
    values: { title: "Coin", date },
    project: { name: "P" },
    section: { slug: "coins", name: "Coins", fields: coinFields },
    relations: {},
  });
  const issued = (date: unknown) => citationItem(coin(date), { origin }).issued;

  it("gives an EDTF date's parts at its own precision, ranges as two, and circa when approximate or uncertain", () => {
    expect(issued({ from: 1850, to: 1850, edtf: "1850~", text: "c. 1850" })).toEqual({ from: [1850], circa: true });
    expect(issued({ from: 1923, to: 1923, edtf: "1923-05", text: "1923-05" })).toEqual({ from: [1923, 5] });
    expect(issued({ from: 1850, to: 1860, edtf: "1850/1860?", text: "1850-1860?" })).toEqual({ from: [1850], to: [1860], circa: true });
    expect(issued({ from: 1700, to: 1799, edtf: "17XX", text: "s. XVIII" })).toEqual({ from: [1700], to: [1799] });
    expect(issued({ from: 1950, to: 1950, edtf: "1950-21", text: "spring 1950" })).toEqual({ from: [1950] });
    expect(issued({ from: 1850, to: 1850, edtf: "1850/..", text: "1850/.." })).toEqual({ from: [1850] });
    expect(issued({ from: -2, to: 4 })).toEqual({ from: [-2], to: [4] });
  });

  it("writes them to CSL-JSON with circa, to RIS and BibTeX as years", () => {
    const item = citationItem(coin({ from: 1850, to: 1860, edtf: "1850~/1860~", text: "c. 1850-1860" }), { origin });
    expect(JSON.parse(toCslJson([item]))[0].issued).toEqual({ "date-parts": [[1850], [1860]], circa: true });
    expect(readRis(toRis([item]))[0]?.PY).toEqual(["1850"]);
    expect(toBibtex([item])).toMatch(/year = \{1850--1860\}/);
    expect(JSON.parse(toCslJson([citationItem(coin({ from: 1923, to: 1923, edtf: "1923-05", text: "1923-05" }), { origin })]))[0].issued).toEqual({
      "date-parts": [[1923, 5]],
    });
  });
});

describe("RIS", () => {
  it("writes records a strict RIS reader reads back, tricky titles intact on one line", () => {
    const items = [citationItem(interview, { origin, seconds: 61 }), ...trickyTitles.map((title) => citationItem(publication(title, "article"), { origin }))];
    const records = readRis(toRis(items));
    expect(records).toHaveLength(items.length);
    expect(records[0]).toMatchObject({
      TY: ["SOUND"],
      TI: ["Andrés Puig on the last harvest"],
      AU: ["Puig i Soler, Andrés"],
      A2: ["Ferrer, Marta"],
      PY: ["1998"],
      DA: ["1998/04/18/"],
      CY: ["Sant Romà de Vall"],
      LA: ["ca"],
      KW: ["reservoir", "displacement", "memory"],
      UR: [`${origin}/records/${interview.id}?t=61`],
      N1: ["Cited at 01:01 of the recording."],
    });
    for (const [index, title] of trickyTitles.entries()) {
      const record = records[index + 1]!;
      expect(record.TY).toEqual(["JOUR"]);
      expect(record.TI).toEqual([title.replace(/\s+/g, " ").trim()]);
      expect(record.T2).toEqual(["Revista d'Història {local}"]);
      expect(record.AU).toEqual(["Puig i Soler, Andrés", "Ferrer, Marta"]);
      expect(record.DA).toEqual(["1987/06//"]);
    }
  });
});

describe("BibTeX", () => {
  it("writes entries a brace-balancing reader reads back to the same text, with unique keys", () => {
    const items = [
      citationItem(interview, { origin, seconds: 61 }),
      ...trickyTitles.map((title, index) =>
        citationItem({ ...publication(title, index % 2 ? "report" : "book chapter"), id: `b2c3d4e${index}-0000-4000-8000-000000000002` }, { origin }),
      ),
    ];
    const entries = readBibtex(toBibtex(items));
    expect(entries).toHaveLength(items.length);
    expect(new Set(entries.map((entry) => entry.key)).size).toBe(items.length);
    expect(entries[0]).toMatchObject({
      type: "misc",
      fields: {
        title: "Andrés Puig on the last harvest",
        author: "{Puig i Soler}, Andrés",
        year: "1998",
        month: "4",
        address: "Sant Romà de Vall",
        url: `${origin}/records/${interview.id}?t=61`,
      },
    });
    expect(entries[0]!.fields.note).toContain("Interviewed by Marta Ferrer.");
    expect(entries[0]!.fields.note).toContain("Cited at 01:01 of the recording.");
    expect(entries[0]!.key).toMatch(/^puig1998_a1b2c3d4_t61$/);
    for (const [index, title] of trickyTitles.entries()) {
      const entry = entries[index + 1]!;
      expect(entry.type).toBe(index % 2 ? "techreport" : "incollection");
      expect(entry.fields.title).toBe(title.replace(/\s+/g, " ").trim());
      expect(entry.fields.author).toBe("{Puig i Soler}, Andrés and Ferrer, Marta");
      expect(entry.fields[index % 2 ? "institution" : "booktitle"]).toBe("Revista d'Història {local}");
    }
  });

  it("gives one record cited at two moments two keys", () => {
    const entries = readBibtex(
      toBibtex([citationItem(interview, { origin, seconds: 61 }), citationItem(interview, { origin, seconds: 754 }), citationItem(interview, { origin })]),
    );
    expect(new Set(entries.map((entry) => entry.key)).size).toBe(3);
    expect(entries.map((entry) => entry.fields.url)).toEqual([
      `${origin}/records/${interview.id}?t=61`,
      `${origin}/records/${interview.id}?t=754`,
      `${origin}/records/${interview.id}`,
    ]);
  });

  it("keeps every LaTeX special character escaped inside the field", () => {
    const text = toBibtex([citationItem(publication("50% of #1 & $2_x^2~}", "article"), { origin })]);
    expect(text).toContain("title = {50\\% of \\#1 \\& \\$2\\_x\\^{}2\\~{}\\}}");
  });
});

describe("CSL-JSON", () => {
  it("is valid JSON with CSL types, names and date-parts", () => {
    const items = [citationItem(interview, { origin, seconds: 61 }), citationItem(publication(trickyTitles[0]!, "article"), { origin })];
    const parsed = JSON.parse(toCslJson(items)) as Record<string, unknown>[];
    expect(parsed[0]).toEqual({
      id: interview.id,
      type: "interview",
      title: "Andrés Puig on the last harvest",
      author: [{ family: "Puig i Soler", given: "Andrés" }],
      interviewer: [{ family: "Ferrer", given: "Marta" }],
      issued: { "date-parts": [[1998, 4, 18]] },
      "event-place": "Sant Romà de Vall",
      language: "ca",
      abstract: "The valley before the dam: fields, the mill and the church.",
      keyword: "reservoir, displacement, memory",
      archive: "Voices of the Drowned Valley",
      URL: `${origin}/records/${interview.id}?t=61`,
      note: "Cited at 01:01 of the recording.",
    });
    expect(parsed[1]).toMatchObject({
      type: "article-journal",
      title: trickyTitles[0],
      "container-title": "Revista d'Història {local}",
      issued: { "date-parts": [[1987, 6]] },
    });
  });
});

describe("authority links in citations", () => {
  const linkedFields: FieldDefinition[] = [
    ...interviewFields,
    { key: "subjectLinks", label: "Subjects", type: "authority", multiple: true },
    { key: "placeLink", label: "Place (TGN)", type: "authority", authorities: ["tgn"] },
  ];
  const linked: CitableRecord = {
    ...interview,
    values: {
      ...interview.values,
      subjectLinks: [{ uri: "http://www.wikidata.org/entity/Q1492", label: "Dams {and} reservoirs" }, { uri: "http://vocab.getty.edu/aat/300008063" }],
      placeLink: { uri: "http://vocab.getty.edu/tgn/7008038", label: "memory" },
    },
    section: { ...interview.section, fields: linkedFields },
  };

  it("give their labels as keywords after the written ones (once each), and their URIs to the notes of CSL-JSON and RIS", () => {
    const item = citationItem(linked, { origin });
    expect(item.keywords).toEqual(["reservoir", "displacement", "memory", "Dams {and} reservoirs", "Getty AAT 300008063"]);
    const links =
      "Authority links: Dams {and} reservoirs <http://www.wikidata.org/entity/Q1492>; Getty AAT 300008063 <http://vocab.getty.edu/aat/300008063>; memory <http://vocab.getty.edu/tgn/7008038>";
    const [csl] = JSON.parse(toCslJson([item])) as Record<string, unknown>[];
    expect(csl!.keyword).toBe("reservoir, displacement, memory, Dams {and} reservoirs, Getty AAT 300008063");
    expect(csl!.note).toBe(links);
    // With a cited moment the note keeps both lines.
    const [atMoment] = JSON.parse(toCslJson([citationItem(linked, { origin, seconds: 61 })])) as Record<string, unknown>[];
    expect(atMoment!.note).toBe(`Cited at 01:01 of the recording.\n${links}`);
    const [ris] = readRis(toRis([item]));
    expect(ris!.KW).toEqual(["reservoir", "displacement", "memory", "Dams {and} reservoirs", "Getty AAT 300008063"]);
    expect(ris!.N1).toEqual([links]);
    const [bibtex] = readBibtex(toBibtex([item]));
    expect(bibtex!.fields.keywords).toBe("reservoir, displacement, memory, Dams {and} reservoirs, Getty AAT 300008063");
    expect(toBibtex([item])).not.toContain("wikidata.org");
  });

  it("leave records without links as they were", () => {
    const item = citationItem(interview, { origin });
    expect(item.authorityLinks).toEqual([]);
    expect(readRis(toRis([item]))[0]!.N1).toBeUndefined();
  });
});

describe("selection links", () => {
  it("names each record once per moment, in order, whole seconds", () => {
    expect(
      citeSelectionHref("ris", [{ recordId: "a" }, { recordId: "b", seconds: 61.9 }, { recordId: "a", seconds: null }, { recordId: "b", seconds: 61 }]),
    ).toBe("/api/records/cite?format=ris&ids=a,b%4061");
  });
});

describe("people's names in citations", () => {
  const carmenId = "55555555-5555-4555-8555-555555555555";
  const councilId = "66666666-6666-4666-8666-666666666666";
  const recordIn = (language: string, relations: CitableRecord["relations"]): CitableRecord => ({
    ...publication("Les collites", "article", { language, authors: [carmenId, councilId] }),
    relations,
  });

  it("keeps two family names whole in a Spanish record, an organisation literal, and keys BibTeX by the first family name", () => {
    const item = citationItem(recordIn("es", { [carmenId]: { title: "Carmen Roldán Ortiz" }, [councilId]: { title: "Ajuntament de Sant Romà" } }), { origin });
    expect(item.authors).toEqual([{ family: "Roldán Ortiz", given: "Carmen" }, { literal: "Ajuntament de Sant Romà" }]);
    expect(JSON.parse(toCslJson([item]))[0].author).toEqual([{ family: "Roldán Ortiz", given: "Carmen" }, { literal: "Ajuntament de Sant Romà" }]);
    expect(readRis(toRis([item]))[0]!.AU).toEqual(["Roldán Ortiz, Carmen", "Ajuntament de Sant Romà"]);
    const [entry] = readBibtex(toBibtex([item]));
    expect(entry!.fields.author).toBe("{Roldán Ortiz}, Carmen and {Ajuntament de Sant Romà}");
    expect(entry!.key).toMatch(/^roldan1987_/);
  });

  it("gives an English record's name one family name, and a person record's own fields win over any guess", () => {
    expect(citationItem(recordIn("en", { [carmenId]: { title: "Carmen Roldán Ortiz" } }), { origin }).authors).toEqual([
      { family: "Ortiz", given: "Carmen Roldán" },
    ]);
    const own = citationItem(recordIn("en", { [carmenId]: { title: "Carmen Roldán Ortiz", personName: { family: "Roldán Ortiz", given: "Carmen" } } }), {
      origin,
    });
    expect(own.authors).toEqual([{ family: "Roldán Ortiz", given: "Carmen" }]);
  });
});
