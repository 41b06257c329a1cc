import { describe, expect, it } from "vitest";
import { OaiError, parseDateBound, parseOaiRequest, parseSetSpec, recordIdOf, setSpecOf } from "./oai-request";
import { decodeResumptionToken, encodeResumptionToken } from "./resumption-token";
import { escapeAttribute, escapeText, textElement } from "./oai-xml";
import { defaultDcMapping, dcMappingSchema, dublinCoreOf } from "./dublin-core";
import type { FieldDefinition } from "../field-definitions";

const codeOf = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    if (error instanceof OaiError) return error.code;
    throw error;
  }
  return "none";
};
const parse = (query: string) => parseOaiRequest(new URLSearchParams(query));
const codeFor = (query: string) => codeOf(() => parse(query));

describe("OAI-PMH arguments", () => {
  it("reads each verb with its arguments", () => {
    expect(parse("verb=Identify")).toEqual({ verb: "Identify" });
    expect(parse("verb=GetRecord&identifier=oai:x.org:1&metadataPrefix=oai_dc")).toEqual({
      verb: "GetRecord",
      identifier: "oai:x.org:1",
      metadataPrefix: "oai_dc",
    });
    expect(parse("verb=ListRecords&metadataPrefix=oai_dc&from=2026-01-01&until=2026-01-31&set=project:collections")).toEqual({
      verb: "ListRecords",
      list: {
        metadataPrefix: "oai_dc",
        from: { sql: "2026-01-01 00:00:00", granularity: "day" },
        until: { sql: "2026-01-31 23:59:59", granularity: "day" },
        set: { kind: "project", slug: "collections" },
      },
    });
    expect(parse("verb=ListIdentifiers&resumptionToken=abc")).toEqual({ verb: "ListIdentifiers", resumptionToken: "abc" });
  });

  it("answers badVerb for a missing, repeated or unknown verb", () => {
    expect(codeFor("")).toBe("badVerb");
    expect(codeFor("metadataPrefix=oai_dc")).toBe("badVerb");
    expect(codeFor("verb=Identify&verb=Identify")).toBe("badVerb");
    expect(codeFor("verb=identify")).toBe("badVerb");
    expect(codeFor("verb=ListAll")).toBe("badVerb");
  });

  it("answers badArgument for repeated, illegal, missing and malformed arguments", () => {
    expect(codeFor("verb=Identify&set=a")).toBe("badArgument");
    expect(codeFor("verb=ListRecords&metadataPrefix=oai_dc&metadataPrefix=oai_dc")).toBe("badArgument");
    expect(codeFor("verb=ListRecords")).toBe("badArgument");
    expect(codeFor("verb=GetRecord&identifier=oai:x.org:1")).toBe("badArgument");
    expect(codeFor("verb=GetRecord&metadataPrefix=oai_dc")).toBe("badArgument");
    expect(codeFor("verb=ListRecords&metadataPrefix=oai_dc&from=2026-02-30")).toBe("badArgument");
    expect(codeFor("verb=ListRecords&metadataPrefix=oai_dc&from=2026-01-01T10:00:00")).toBe("badArgument");
    expect(codeFor("verb=ListRecords&metadataPrefix=oai_dc&until=2026-01-01T24:00:00Z")).toBe("badArgument");
    expect(codeFor("verb=ListRecords&metadataPrefix=oai_dc&from=2026-01-01&until=2026-01-02T00:00:00Z")).toBe("badArgument");
    expect(codeFor("verb=ListRecords&metadataPrefix=oai_dc&from=2026-02-01&until=2026-01-01")).toBe("badArgument");
    expect(codeFor("verb=ListRecords&metadataPrefix=oai_dc&set=not a set")).toBe("badArgument");
    expect(codeFor("verb=ListRecords&metadataPrefix=oai_dc&resumptionToken=abc")).toBe("badArgument");
    expect(codeFor("verb=ListRecords&metadataPrefix=oai%20dc")).toBe("badArgument");
    expect(codeFor(`verb=ListRecords&resumptionToken=${"a".repeat(3000)}`)).toBe("badArgument");
  });

  it("answers cannotDisseminateFormat for any format but oai_dc, after the arguments are checked", () => {
    expect(codeFor("verb=ListRecords&metadataPrefix=marc21")).toBe("cannotDisseminateFormat");
    expect(codeFor("verb=GetRecord&identifier=oai:x.org:1&metadataPrefix=mods")).toBe("cannotDisseminateFormat");
    expect(codeFor("verb=ListRecords&metadataPrefix=marc21&from=nonsense")).toBe("badArgument");
  });

  it("accepts both granularities, inclusive at either end", () => {
    expect(parseDateBound("2026-03-04", "from")).toEqual({ sql: "2026-03-04 00:00:00", granularity: "day" });
    expect(parseDateBound("2026-03-04", "until")).toEqual({ sql: "2026-03-04 23:59:59", granularity: "day" });
    expect(parseDateBound("2026-03-04T05:06:07Z", "until")).toEqual({ sql: "2026-03-04 05:06:07", granularity: "seconds" });
    expect(parseDateBound("2024-02-29", "from")).not.toBeNull();
    expect(parseDateBound("2025-02-29", "from")).toBeNull();
    expect(parseDateBound("2026-03-04T05:06:07+01:00", "from")).toBeNull();
  });

  it("reads sets and identifiers of this repository only", () => {
    expect(parseSetSpec("section:oral-histories")).toEqual({ kind: "section", slug: "oral-histories" });
    expect(parseSetSpec("collection:x")).toBeNull();
    expect(setSpecOf("project", "a b")).toBeNull();
    const id = "0b3c9d8e-1f2a-4b5c-8d9e-0f1a2b3c4d5e";
    expect(recordIdOf(`oai:archive.example.org:${id}`, "archive.example.org")).toBe(id);
    expect(recordIdOf(`oai:other.example.org:${id}`, "archive.example.org")).toBeNull();
    expect(recordIdOf("oai:archive.example.org:../../etc/passwd", "archive.example.org")).toBeNull();
  });
});

describe("resumption tokens", () => {
  const state = { verb: "ListRecords" as const, until: "2026-05-01 00:00:00", after: { datestamp: "2026-04-01 10:00:00", id: "abc" }, total: 250, cursor: 100 };
  const now = new Date("2026-05-01T00:00:00Z");

  it("round-trip the list's state", () => {
    const { token, expiresAt } = encodeResumptionToken(state, { key: "k", now });
    expect(token).toMatch(/^[A-Za-z0-9_.-]+$/);
    expect(expiresAt.getTime()).toBeGreaterThan(now.getTime());
    expect(decodeResumptionToken(token, { key: "k", now, verb: "ListRecords" })).toEqual(state);
  });

  it("refuse a token altered, cut, expired, keyed otherwise or of the other verb", () => {
    const { token } = encodeResumptionToken(state, { key: "k", now });
    const decode = (text: string, options: Partial<{ key: string; now: Date; verb: "ListRecords" | "ListIdentifiers" }> = {}) =>
      codeOf(() => decodeResumptionToken(text, { key: "k", now, verb: "ListRecords", ...options }));
    const flipped = `${token.slice(0, 5)}${token[5] === "A" ? "B" : "A"}${token.slice(6)}`;
    expect(decode(flipped)).toBe("badResumptionToken");
    expect(decode(token.slice(0, -1))).toBe("badResumptionToken");
    expect(decode(token.split(".")[0]!)).toBe("badResumptionToken");
    expect(decode(token, { key: "other" })).toBe("badResumptionToken");
    expect(decode(token, { verb: "ListIdentifiers" })).toBe("badResumptionToken");
    expect(decode(token, { now: new Date("2026-05-03T00:00:00Z") })).toBe("badResumptionToken");
    expect(decode("' OR 1=1 --")).toBe("badResumptionToken");
  });
});

describe("XML text", () => {
  it("escapes markup and drops characters XML 1.0 cannot carry", () => {
    expect(escapeText("a < b & c > d")).toBe("a &lt; b &amp; c &gt; d");
    expect(escapeText("bell\u0007 nul\u0000 tab\t ok")).toBe("bell nul tab\t ok");
    expect(escapeText("half \uD800 a pair 😀")).toBe("half  a pair 😀");
    expect(escapeAttribute(`say "hi"\n`)).toBe("say &quot;hi&quot;&#10;");
    expect(textElement("dc:title", "]]> <x/>", { "xml:lang": "en" })).toBe('<dc:title xml:lang="en">]]&gt; &lt;x/&gt;</dc:title>');
  });
});

describe("Dublin Core mapping", () => {
  const fields: FieldDefinition[] = [
    { key: "title", label: "Title", type: "text", required: true },
    { key: "summary", label: "Summary", type: "longtext" },
    { key: "period", label: "Period", type: "daterange" },
    { key: "narrator", label: "Narrator", type: "relation", targetSection: "people" },
    { key: "interviewer", label: "Interviewer", type: "relation", targetSection: "people" },
    { key: "places", label: "Places", type: "relation", targetSection: "places", multiple: true },
    { key: "language", label: "Language", type: "category", options: ["ca", "es"] },
    { key: "recording", label: "Recording", type: "media", mediaKind: "audio" },
    { key: "transcript", label: "Transcript", type: "transcript" },
  ];

  it("derives a default from the field types", () => {
    expect(defaultDcMapping(fields)).toEqual({
      title: ["title"],
      description: ["summary"],
      date: ["period"],
      creator: ["narrator"],
      contributor: ["interviewer"],
      coverage: ["places"],
      language: ["language"],
      format: ["recording"],
    });
  });

  it("maps values, naming only readable relation targets", () => {
    const dc = dublinCoreOf(
      {
        title: "Interview",
        url: "https://archive.example.org/records/1",
        sectionName: "Oral histories",
        projectName: "Valley",
        fields,
        values: { title: "Interview with Rosa", period: { from: -50, to: 1962 }, narrator: "r1", places: ["p1", "p2"], language: "ca", recording: "m1" },
        relationTitles: new Map([
          ["r1", "Rosa Vidal"],
          ["p1", "Sant Romà"],
        ]),
        mediaTypes: new Map([["m1", "audio/ogg"]]),
      },
      defaultDcMapping(fields),
    );
    expect(dc).toEqual([
      ["title", "Interview with Rosa"],
      ["creator", "Rosa Vidal"],
      ["date", "-0049/1962"], // 50 BC – 1962: EDTF counts a year zero
      ["type", "Oral histories"],
      ["format", "audio/ogg"],
      ["identifier", "https://archive.example.org/records/1"],
      ["source", "Valley"],
      ["language", "ca"],
      ["coverage", "Sant Romà"],
    ]);
  });

  it("gives dates as EDTF, however they were written", () => {
    const dateOf = (period: unknown) =>
      dublinCoreOf(
        {
          title: "T",
          url: "https://archive.example.org/records/1",
          sectionName: "S",
          projectName: "P",
          fields,
          values: { title: "T", period },
          relationTitles: new Map(),
          mediaTypes: new Map(),
        },
        { date: ["period"] },
      ).filter(([element]) => element === "date");
    expect(dateOf({ from: 1850, to: 1850, edtf: "1850~", text: "c. 1850" })).toEqual([["date", "1850~"]]);
    expect(dateOf({ from: 1700, to: 1799, edtf: "17XX", text: "s. XVIII" })).toEqual([["date", "17XX"]]);
    expect(dateOf({ from: 1923, to: 1923, edtf: "1923-05", text: "1923-05" })).toEqual([["date", "1923-05"]]);
    expect(dateOf({ from: 1962, to: 1962 })).toEqual([["date", "1962"]]);
    expect(dateOf({ edtf: "not EDTF", text: "x" })).toEqual([]);
  });

  it("accepts known elements and the section's field keys only", () => {
    const schema = dcMappingSchema(fields);
    expect(schema.parse({ subject: ["language"], title: [] })).toEqual({ subject: ["language"] });
    expect(schema.safeParse({ abstract: ["summary"] }).success).toBe(false);
    expect(schema.safeParse({ title: ["nope"] }).success).toBe(false);
    expect(schema.safeParse({ title: ["title", "title"] }).success).toBe(false);
    expect(schema.safeParse(["title"]).success).toBe(false);
  });
});
