import { describe, expect, it } from "vitest";
import type { FieldDefinition } from "../field-definitions";
import { archivalDate, coveringYears } from "./dates";
import { type DescribedRecord, describedValues, recordCreators, recordDate } from "./describe-record";
import { eacCpfDocument } from "./eac-cpf";
import { type FindingAidInput, type FindingAidRecord, ead3Document } from "./ead3";
import { archivalLanguage, languagesOf } from "../languages";
import { linkedFacetSections } from "../list-records";
import { eacCpfHref, ead3Href, personSectionSlug } from "./links";

const interviewFields: FieldDefinition[] = [
  { key: "title", label: "Title", type: "text", required: true },
  { key: "language", label: "Language", type: "category", options: ["en", "es", "ca"] },
  { key: "narrator", label: "Narrator", type: "relation", targetSection: "people" },
  { key: "recordedOn", label: "Recorded on", type: "date" },
  { key: "summary", label: "Summary", type: "longtext" },
  { key: "recording", label: "Recording", type: "media", mediaKind: "audio" },
  { key: "transcript", label: "Transcript", type: "transcript", mediaField: "recording" },
  { key: "mint", label: "Mint", type: "authority", authorities: ["nomisma", "tgn"], multiple: true },
];

const personFields: FieldDefinition[] = [
  { key: "name", label: "Name", type: "text", required: true },
  { key: "occupation", label: "Occupation", type: "text" },
  { key: "born", label: "Born", type: "date" },
  { key: "died", label: "Died", type: "date" },
  { key: "biography", label: "Biography", type: "longtext" },
  { key: "places", label: "Places", type: "relation", targetSection: "places", multiple: true },
  { key: "sameAs", label: "Same as", type: "authority", multiple: true },
];

const narrator = "11111111-1111-4111-8111-111111111111";
const hiddenPerson = "22222222-2222-4222-8222-222222222222";

function interview(values: Record<string, unknown>, extra: Partial<FindingAidRecord> = {}): FindingAidRecord {
  return {
    id: "33333333-3333-4333-8333-333333333333",
    title: "Interview with Marta",
    values,
    section: { slug: "oral-histories", name: "Oral histories", fields: interviewFields },
    relations: { [narrator]: { title: "Marta Puig", authorityUri: "http://www.wikidata.org/entity/Q42" } },
    media: { m1: { kind: "audio", durationSeconds: 125 } },
    years: { from: 1962, to: 1962 },
    pageUrl: "https://archive.example/records/33333333-3333-4333-8333-333333333333",
    ...extra,
  };
}

function findingAid(records: FindingAidRecord[], project: Partial<FindingAidInput["project"]> = {}): string {
  return ead3Document({
    project: { slug: "valley", name: "The drowned valley", description: "Interviews about a valley.", restricted: false, isPublic: false, ...project },
    series: [{ slug: "oral-histories", name: "Oral histories", description: "Interviews.", records }],
    url: "https://archive.example/api/projects/valley/ead3",
    generatedAt: new Date("2026-01-02T03:04:05.678Z"),
    agency: "Mnemo (archive.example)",
  });
}

describe("EDTF as ISO 8601 for the archival formats", () => {
  it("keeps plain dates and intervals as they are", () => {
    expect(archivalDate("1962-04-18")).toMatchObject({ normal: "1962-04-18", from: "1962-04-18", to: "1962-04-18" });
    expect(archivalDate("1850/1860")).toMatchObject({ normal: "1850/1860", from: "1850", to: "1860" });
    expect(archivalDate("1850")?.certainty).toBeUndefined();
  });

  it("says how sure a qualified date is beside its ISO form", () => {
    expect(archivalDate({ edtf: "1850~", text: "c. 1850" })).toEqual({
      text: "c. 1850",
      edtf: "1850~",
      normal: "1850",
      from: "1850",
      to: "1850",
      certainty: "approximate",
    });
    expect(archivalDate("1850?")).toMatchObject({ normal: "1850", certainty: "uncertain" });
    expect(archivalDate("1850%")).toMatchObject({ normal: "1850", certainty: "approximate-and-uncertain" });
    expect(archivalDate("1850~/1860")).toMatchObject({ normal: "1850/1860", certainty: "approximate" });
  });

  it("gives unspecified digits, seasons and sets the years they cover", () => {
    expect(archivalDate({ from: 1700, to: 1799, edtf: "17XX", text: "s. XVIII" })).toMatchObject({ text: "s. XVIII", normal: "1700/1799" });
    expect(archivalDate("1950-21")?.normal).toBe("1950");
    expect(archivalDate("[1850, 1860]")?.normal).toBe("1850/1860");
    expect(archivalDate("-0044-03-15")?.normal).toBe("-0044-03-15");
  });

  it("gives an open end no normal form, and reads year ranges stored before EDTF", () => {
    expect(archivalDate("1850/..")).toMatchObject({ edtf: "1850/.." });
    expect(archivalDate("1850/..")?.normal).toBeUndefined();
    expect(archivalDate({ from: 1923, to: 1930 })?.normal).toBe("1923/1930");
    expect(archivalDate("not a date")).toBeNull();
    expect(
      coveringYears([
        { from: 1962, to: 1962 },
        { from: 1850, to: 1860 },
        { from: null, to: null },
      ]),
    ).toEqual({ normal: "1850/1962", from: "1850", to: "1962" });
    expect(coveringYears([{ from: null, to: null }])).toBeNull();
  });
});

describe("record languages", () => {
  it("names ISO 639-1 and 639-2 codes and names, and keeps unknown words without a code", () => {
    expect(archivalLanguage("ca")).toEqual({ code: "cat", name: "Catalan" });
    expect(archivalLanguage("es-ES")).toEqual({ code: "spa", name: "Spanish" });
    expect(archivalLanguage("deu")).toEqual({ code: "ger", name: "German" });
    expect(archivalLanguage("Aranese")).toEqual({ name: "Aranese" });
    expect(languagesOf(["en", ["es", "en"], "ca; Latin", 5])).toEqual([
      { code: "eng", name: "English" },
      { code: "spa", name: "Spanish" },
      { code: "cat", name: "Catalan" },
      { code: "lat", name: "Latin" },
    ]);
  });
});

describe("describing a record", () => {
  it("names only the readable people a creator field links to", () => {
    const record = interview({ narrator: hiddenPerson });
    expect(recordCreators(record)).toEqual([]);
    expect(recordCreators(interview({ narrator }))).toEqual([{ name: "Marta Puig", role: "Narrator", identifier: "http://www.wikidata.org/entity/Q42" }]);
  });

  it("dates a record by its dating field, never by a life's born or died", () => {
    const person: Pick<DescribedRecord, "values" | "section"> = { values: { born: "1901" }, section: { slug: "people", name: "People", fields: personFields } };
    expect(recordDate(person)).toBeNull();
    expect(recordDate(interview({ recordedOn: "1962-04-18" }))).toMatchObject({ normal: "1962-04-18", label: "Recorded on" });
  });

  it("leaves transcripts and other long texts behind", () => {
    expect(describedValues(interviewFields, { title: "x", summary: "kept", transcript: [{ speaker: "A", start: 0, end: 1, text: "long" }] })).toEqual({
      title: "x",
      summary: "kept",
    });
  });
});

describe("EAD3 finding aid", () => {
  it("writes the collection, a series per section and an item per record", () => {
    const xml = findingAid([
      interview(
        {
          language: "ca",
          narrator,
          recordedOn: { edtf: "1962~", text: "c. 1962" },
          summary: "First paragraph.\n\nSecond paragraph.",
          recording: "m1",
          mint: [{ uri: "http://nomisma.org/id/rome", label: "Rome" }, { uri: "http://vocab.getty.edu/tgn/7000874" }],
        },
        { manifestUrl: "https://archive.example/iiif/33333333-3333-4333-8333-333333333333/manifest" },
      ),
    ]);
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<ead xmlns="http:\/\/ead3.archivists.org\/schema\/">/);
    expect(xml).toContain('<recordid instanceurl="https://archive.example/api/projects/valley/ead3">valley</recordid>');
    expect(xml).toContain('<eventdatetime standarddatetime="2026-01-02T03:04:05Z">2026-01-02T03:04:05Z</eventdatetime>');
    expect(xml).toContain('<archdesc level="collection">');
    expect(xml).toContain('<unitdatestructured unitdatetype="inclusive"><datesingle standarddate="1962">1962</datesingle></unitdatestructured>');
    expect(xml).toContain(
      '<physdescstructured physdescstructuredtype="materialtype" coverage="whole"><quantity>1</quantity><unittype>record</unittype></physdescstructured>',
    );
    expect(xml).toContain("<abstract>Interviews about a valley.</abstract>");
    expect(xml).toContain("<accessrestrict><p>Only the project's members may read its records.</p></accessrestrict>");
    expect(xml).toContain('<c level="series"><did><unitid>oral-histories</unitid><unittitle>Oral histories</unittitle>');
    expect(xml).toContain('<unitdate normal="1962" certainty="approximate" label="Recorded on">c. 1962</unitdate>');
    expect(xml).toContain('<langmaterial><language langcode="cat">Catalan</language></langmaterial>');
    expect(xml).toContain("<physdesc>Audio recording, 02:05</physdesc>");
    expect(xml).toContain(
      '<origination><persname relator="narrator" identifier="http://www.wikidata.org/entity/Q42"><part>Marta Puig</part></persname></origination>',
    );
    expect(xml).toContain(
      '<dao daotype="unknown" href="https://archive.example/iiif/33333333-3333-4333-8333-333333333333/manifest" linktitle="IIIF manifest" localtype="iiif-manifest"/>',
    );
    expect(xml).toContain("<scopecontent><p>First paragraph.</p><p>Second paragraph.</p></scopecontent>");
    expect(xml).toContain('<subject identifier="http://nomisma.org/id/rome" source="nomisma"><part>Rome</part></subject>');
    expect(xml).toContain('<geogname identifier="http://vocab.getty.edu/tgn/7000874" source="tgn"><part>Getty TGN 7000874</part></geogname>');
  });

  it("says whether the project is open or restricted", () => {
    expect(findingAid([], { isPublic: true })).toContain("Open: the project is public");
    expect(findingAid([], { restricted: true })).toContain("Restricted: only the project's members may read its records.");
  });

  it("never names a linked person the reader may not read", () => {
    const xml = findingAid([interview({ narrator: hiddenPerson }, { relations: {} })]);
    expect(xml).not.toContain("origination");
    expect(xml).not.toContain(hiddenPerson);
  });

  it("escapes markup and drops characters XML 1.0 cannot hold", () => {
    const xml = findingAid([interview({ summary: 'Fish & <chips> "here"\u0000\u0007 and \uD800 done' }, { title: "A <b>bold</b> title\u001F" })], {
      name: 'Valley "&" <dam>\u0001',
    });
    expect(xml).toContain("<unittitle>A &lt;b&gt;bold&lt;/b&gt; title</unittitle>");
    expect(xml).toContain('<p>Fish &amp; &lt;chips&gt; "here" and  done</p>');
    expect(xml).toContain('<titleproper>Valley "&amp;" &lt;dam&gt;</titleproper>');
    expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]|[\uD800-\uDFFF]/);
  });
});

describe("EAC-CPF person", () => {
  const place = "44444444-4444-4444-8444-444444444444";
  const person = {
    id: "55555555-5555-4555-8555-555555555555",
    title: "Marta Puig",
    values: {
      occupation: "Miller",
      born: { edtf: "1901~", text: "c. 1901" },
      died: "1980/1985",
      biography: "Born in the valley.\n\nMoved to the town.",
      places: [place, hiddenPerson],
      sameAs: [{ uri: "http://www.wikidata.org/entity/Q42" }, { uri: "http://vocab.getty.edu/tgn/7000874", label: "Vilanova" }],
    },
    section: { slug: "people", name: "People", fields: personFields },
    relations: { [place]: { title: "Sant Romà", authorityUri: "https://sws.geonames.org/3128760/" } },
    media: {},
    pageUrl: "https://archive.example/records/55555555-5555-4555-8555-555555555555",
  };

  it("writes identity, description and relations", () => {
    const xml = eacCpfDocument({
      person,
      relations: [{ title: "Interview with Marta", url: "https://archive.example/records/33333333-3333-4333-8333-333333333333", role: "Narrator" }],
      generatedAt: new Date("2026-01-02T03:04:05Z"),
      agency: "Mnemo (archive.example)",
    });
    expect(xml).toContain('<eac xmlns="https://archivists.org/ns/eac/v2"><control maintenanceStatus="derived"');
    expect(xml).toContain("<recordId>55555555-5555-4555-8555-555555555555</recordId>");
    expect(xml).toContain('<entityType value="person"/><nameEntry status="authorized"><part>Marta Puig</part></nameEntry>');
    expect(xml).toContain(
      '<identityId valueURI="http://www.wikidata.org/entity/Q42" vocabularySource="wikidata">http://www.wikidata.org/entity/Q42</identityId>',
    );
    expect(xml).toContain("<occupations><occupation><term>Miller</term></occupation></occupations>");
    expect(xml).toContain('<place><placeName valueURI="https://sws.geonames.org/3128760/">Sant Romà</placeName></place>');
    expect(xml).toContain('<place><placeName valueURI="http://vocab.getty.edu/tgn/7000874" vocabularySource="tgn">Vilanova</placeName></place>');
    expect(xml).toContain(
      '<existDates><dateRange><fromDate standardDate="1901" certainty="approximate">c. 1901</fromDate><toDate notBefore="1980" notAfter="1985">1980 – 1985</toDate></dateRange></existDates>',
    );
    expect(xml).toContain("<biogHist><p>Born in the valley.</p><p>Moved to the town.</p></biogHist>");
    expect(xml).toContain(
      '<relation><targetEntity targetType="resource" valueURI="https://archive.example/records/33333333-3333-4333-8333-333333333333"><part>Interview with Marta</part></targetEntity><relationType>Narrator</relationType></relation>',
    );
    expect(xml).not.toContain(hiddenPerson);
  });

  it("writes a person known by name alone, with only a death date", () => {
    const xml = eacCpfDocument({ person: { ...person, values: { died: "1980" }, relations: {} }, relations: [], generatedAt: new Date(0), agency: "Mnemo" });
    expect(xml).toContain('<existDates><dateRange><toDate standardDate="1980">1980</toDate></dateRange></existDates>');
    expect(xml).not.toContain("<relations>");
    expect(xml).not.toContain("<identityId");
  });
});

describe("where the finding aids are", () => {
  it("exports as people the section the People facet reads, and escapes the paths", () => {
    expect(personSectionSlug).toBe(linkedFacetSections.person);
    expect(ead3Href("valley/../x")).toBe("/api/projects/valley%2F..%2Fx/ead3");
    expect(eacCpfHref("a b")).toBe("/api/records/a%20b/eac-cpf");
  });
});
