import { describe, expect, it } from "vitest";
import type { FieldDefinition } from "../field-definitions";
import { jsonLdScriptText } from "./json-ld";
import { linkedArtContentType, linkedArtObject, linkedArtUrl } from "./linked-art";
import type { LinkedDataRecord } from "./record-values";
import { schemaOrgKind, schemaOrgRecord } from "./schema-org";

const origin = "https://archive.example/";
const page = (id: string) => `https://archive.example/records/${id}`;
const readable = "11111111-1111-4111-8111-111111111111";
const unreadable = "22222222-2222-4222-8222-222222222222";

function record(fields: FieldDefinition[], values: Record<string, unknown>, extra: Partial<LinkedDataRecord> = {}): LinkedDataRecord {
  return {
    id: "00000000-0000-4000-8000-00000000000a",
    title: "A record",
    values,
    project: { name: "Public Collections" },
    section: { slug: "things", name: "Things", fields },
    relations: {},
    media: {},
    ...extra,
  };
}

const personFields: FieldDefinition[] = [
  { key: "name", label: "Name", type: "text", required: true },
  { key: "born", label: "Born", type: "date" },
  { key: "died", label: "Died", type: "date" },
  { key: "biography", label: "Biography", type: "longtext" },
  { key: "wikidata", label: "Wikidata", type: "authority", authorities: ["wikidata"] },
  { key: "occupation", label: "Occupation", type: "authority", authorities: ["aat", "wikidata"], multiple: true },
];

const interviewFields: FieldDefinition[] = [
  { key: "title", label: "Title", type: "text", required: true },
  { key: "narrator", label: "Narrator", type: "relation", targetSection: "people" },
  { key: "interviewer", label: "Interviewer", type: "relation", targetSection: "people" },
  { key: "recordedOn", label: "Recorded on", type: "date" },
  { key: "summary", label: "Summary", type: "longtext" },
  { key: "subjects", label: "Subjects", type: "authority", multiple: true },
  { key: "places", label: "Places", type: "authority", authorities: ["tgn", "geonames"], multiple: true },
];

const coinFields: FieldDefinition[] = [
  { key: "title", label: "Title", type: "text", required: true },
  { key: "date", label: "Date", type: "daterange" },
  { key: "accessionNumber", label: "Accession number", type: "text" },
  { key: "description", label: "Description", type: "longtext" },
  { key: "coinType", label: "Coin type", type: "authority", authorities: ["ocre", "crro"] },
  { key: "mint", label: "Mint", type: "authority", authorities: ["nomisma"] },
  { key: "material", label: "Material", type: "authority", authorities: ["nomisma", "aat"] },
  { key: "denomination", label: "Denomination", type: "authority", authorities: ["nomisma"] },
  { key: "period", label: "Period", type: "authority", authorities: ["nomisma", "wikidata"] },
  { key: "maker", label: "Maker", type: "relation", targetSection: "people", multiple: true },
  { key: "obverse", label: "Obverse", type: "image", view: "obverse" },
];

describe("schema.org JSON-LD of a record", () => {
  it("makes a person a Person, its own Wikidata link sameAs and its EDTF dates ISO dates when they are exact", () => {
    const person = record(
      personFields,
      {
        name: "Roser Vidal",
        born: "1931-05-02",
        died: { edtf: "1999~", text: "c. 1999" },
        biography: "Miller's daughter.",
        wikidata: { uri: "http://www.wikidata.org/entity/Q42", label: "Roser Vidal" },
        occupation: [{ uri: "http://vocab.getty.edu/aat/300025093", label: "millers" }],
      },
      { title: "Roser Vidal", section: { slug: "people", name: "People", fields: personFields } },
    );
    const node = schemaOrgRecord(person, { origin, object: false });
    expect(node).toMatchObject({
      "@context": "https://schema.org",
      "@type": "Person",
      "@id": page(person.id),
      name: "Roser Vidal",
      description: "Miller's daughter.",
      birthDate: "1931-05-02",
    });
    // An approximate death date is no ISO date: left out rather than stated as exact.
    expect(node.deathDate).toBeUndefined();
    // The occupation is a link of another kind, in a list: not the person's identity.
    expect(node.sameAs).toEqual(["http://www.wikidata.org/entity/Q42"]);
    expect(node.subjectOf).toMatchObject({
      "@type": ["CreativeWork", "ArchiveComponent"],
      url: page(person.id),
      isPartOf: { "@type": "Collection", name: "Public Collections" },
    });
    expect(node.isPartOf).toBeUndefined();
  });

  it("makes a place a Place with its TGN link as sameAs", () => {
    const fields: FieldDefinition[] = [
      { key: "name", label: "Name", type: "text", required: true },
      { key: "coordinates", label: "Coordinates", type: "text" },
      { key: "tgn", label: "Getty TGN", type: "authority", authorities: ["tgn"] },
    ];
    const place = record(
      fields,
      { name: "Sant Romà de Vall", tgn: { uri: "http://vocab.getty.edu/tgn/7008038" } },
      { section: { slug: "places", name: "Places", fields } },
    );
    expect(schemaOrgKind(place, false)).toBe("place");
    expect(schemaOrgRecord(place, { origin, object: false })).toMatchObject({ "@type": "Place", sameAs: ["http://vocab.getty.edu/tgn/7008038"] });
  });

  it("makes an interview a CreativeWork: subject links about, place links spatialCoverage, readable people as author and contributor only", () => {
    const interview = record(
      interviewFields,
      {
        title: "Les campanes",
        narrator: readable,
        interviewer: unreadable,
        recordedOn: "1998-04-18",
        subjects: [{ uri: "http://www.wikidata.org/entity/Q1492", label: "Barcelona" }, { uri: "http://vocab.getty.edu/aat/300008063" }],
        places: [{ uri: "https://sws.geonames.org/3128760/", label: "Barcelona" }],
      },
      { relations: { [readable]: { title: "Roser Vidal" } } },
    );
    const node = schemaOrgRecord(interview, { origin, object: false });
    expect(node["@type"]).toEqual(["CreativeWork", "ArchiveComponent"]);
    expect(node.dateCreated).toBe("1998-04-18");
    expect(node.about).toEqual([
      { "@id": "http://www.wikidata.org/entity/Q1492", name: "Barcelona" },
      { "@id": "http://vocab.getty.edu/aat/300008063", name: "Getty AAT 300008063" },
    ]);
    expect(node.spatialCoverage).toEqual([{ "@type": "Place", "@id": "https://sws.geonames.org/3128760/", name: "Barcelona" }]);
    expect(node.author).toEqual([{ "@type": "Person", "@id": page(readable), name: "Roser Vidal" }]);
    // The interviewer's record is not among the readable ones: neither its id nor anything else.
    expect(node.contributor).toBeUndefined();
    expect(JSON.stringify(node)).not.toContain(unreadable);
    expect(node.isPartOf).toEqual({ "@type": "Collection", name: "Public Collections" });
  });

  it("gives an approximate date or a range as the years it covers", () => {
    const circa = schemaOrgRecord(record(interviewFields, { title: "t", recordedOn: { edtf: "1850~", text: "c. 1850" } }), { origin, object: false });
    expect(circa.dateCreated).toBeUndefined();
    expect(circa.temporalCoverage).toBe("1850");
    const range = schemaOrgRecord(record(coinFields, { title: "t", date: { from: -44, to: -42 } }), { origin, object: true });
    expect(range["@type"]).toBe("ArchiveComponent");
    expect(range.temporalCoverage).toBe("-0043/-0041"); // 44–42 BC in ISO 8601's years, which count a year zero
    const century = schemaOrgRecord(record(coinFields, { title: "t", date: { from: 1701, to: 1800, edtf: "17XX", text: "18th century" } }), {
      origin,
      object: true,
    });
    expect(century.temporalCoverage).toBe("1700/1799");
  });
});

describe("JSON-LD in a page's script element", () => {
  it("escapes < so a value holding </script> cannot end the element, and reads back the same", () => {
    const hostile = { name: "</script><script>alert(1)</script><!-- & \u2028" };
    const text = jsonLdScriptText(hostile);
    expect(text).not.toMatch(/[<>&\u2028]/);
    expect(text.toLowerCase()).not.toContain("</script");
    expect(JSON.parse(text)).toEqual(hostile);
  });

  it("escapes a record's title in the whole schema.org document", () => {
    const text = jsonLdScriptText(
      schemaOrgRecord(record(interviewFields, { title: "x" }, { title: "Bells </script><img src=x onerror=alert(1)>" }), { origin, object: false }),
    );
    expect(text).not.toContain("<");
    expect(JSON.parse(text).name).toBe("Bells </script><img src=x onerror=alert(1)>");
  });
});

describe("Linked Art of an object", () => {
  const coin = record(
    coinFields,
    {
      title: "Denarius of Augustus",
      date: { from: -19, to: -18, edtf: "-0018/-0017", text: "19–18 BC" },
      accessionNumber: "1944.100.39",
      description: "Head of Augustus.",
      coinType: { uri: "http://numismatics.org/ocre/id/ric.1(2).aug.37a", label: "RIC I (second edition) Augustus 37A" },
      mint: { uri: "http://nomisma.org/id/colonia_patricia", label: "Colonia Patricia" },
      material: [{ uri: "http://nomisma.org/id/ar", label: "Silver" }],
      denomination: { uri: "http://nomisma.org/id/denarius", label: "Denarius" },
      period: { uri: "http://nomisma.org/id/roman_empire", label: "Roman Empire" },
      maker: [readable, unreadable],
      obverse: "m1",
    },
    {
      title: "Denarius of Augustus",
      relations: { [readable]: { title: "Workshop of the mint" } },
      media: { m1: { id: "m1", kind: "image", imageCheck: "decoded" } },
    },
  );

  it("is a HumanMadeObject named by title and accession number, classified, made of and produced as its links say", () => {
    const object = linkedArtObject(coin, { origin, manifest: true });
    const id = "https://archive.example/api/records/00000000-0000-4000-8000-00000000000a/linked-art";
    expect(linkedArtUrl(origin, coin.id)).toBe(id);
    expect(linkedArtContentType).toBe('application/ld+json;profile="https://linked.art/ns/v1/linked-art.json"');
    expect(object).toMatchObject({ "@context": "https://linked.art/ns/v1/linked-art.json", id, type: "HumanMadeObject", _label: "Denarius of Augustus" });
    expect(object.identified_by).toEqual([
      { type: "Name", content: "Denarius of Augustus", classified_as: [{ id: "http://vocab.getty.edu/aat/300404670", type: "Type", _label: "Primary Name" }] },
      { type: "Identifier", content: "1944.100.39", classified_as: [{ id: "http://vocab.getty.edu/aat/300312355", type: "Type", _label: "Accession Number" }] },
    ]);
    const classified = object.classified_as as { id: string; classified_as: { id: string }[] }[];
    expect(classified.map((type) => [type.id, type.classified_as[0]!.id])).toEqual([
      ["http://numismatics.org/ocre/id/ric.1(2).aug.37a", "http://vocab.getty.edu/aat/300435443"],
      ["http://nomisma.org/id/denarius", "http://vocab.getty.edu/aat/300435443"],
      ["http://nomisma.org/id/roman_empire", "http://vocab.getty.edu/aat/300015646"],
    ]);
    expect(object.made_of).toEqual([{ id: "http://nomisma.org/id/ar", _label: "Silver", type: "Material" }]);
    expect(object.produced_by).toMatchObject({
      type: "Production",
      took_place_at: [{ id: "http://nomisma.org/id/colonia_patricia", type: "Place", _label: "Colonia Patricia" }],
      carried_out_by: [{ id: page(readable), type: "Person", _label: "Workshop of the mint" }],
      timespan: {
        type: "TimeSpan",
        identified_by: [{ type: "Name", content: "19–18 BC" }],
        begin_of_the_begin: "-0018-01-01T00:00:00Z",
        end_of_the_end: "-0017-12-31T23:59:59Z",
      },
    });
    expect(JSON.stringify(object)).not.toContain(unreadable);
    expect(object.referred_to_by).toEqual([expect.objectContaining({ type: "LinguisticObject", content: "Head of Augustus." })]);
    expect(object.representation).toEqual([
      expect.objectContaining({
        type: "VisualItem",
        digitally_shown_by: [
          expect.objectContaining({ access_point: [{ id: "https://archive.example/iiif/image/m1/full/max/0/default.jpg", type: "DigitalObject" }] }),
        ],
      }),
    ]);
    const carriers = (object.subject_of as { digitally_carried_by: { access_point: { id: string }[]; conforms_to?: { id: string }[] }[] }[]).map(
      (item) => item.digitally_carried_by[0]!,
    );
    expect(carriers.map((carrier) => carrier.access_point[0]!.id)).toEqual([page(coin.id), `https://archive.example/iiif/${coin.id}/manifest`]);
    expect(carriers[1]!.conforms_to).toEqual([{ id: "http://iiif.io/api/presentation", type: "InformationObject" }]);
  });

  it("leaves out the manifest when there is none, and the timespan's ends when the date is open", () => {
    const open = linkedArtObject(record(coinFields, { title: "t", date: { edtf: "1850/..", text: "1850 onwards" } }), { origin, manifest: false });
    expect((open.subject_of as unknown[]).length).toBe(1);
    expect(open.representation).toBeUndefined();
    expect((open.produced_by as { timespan: unknown }).timespan).toEqual({
      type: "TimeSpan",
      identified_by: [{ type: "Name", content: "1850 onwards" }],
      begin_of_the_begin: "1850-01-01T00:00:00Z",
    });
    expect(linkedArtObject(record(coinFields, { title: "t" }), { origin, manifest: false }).produced_by).toBeUndefined();
  });

  it("takes the object context's date role before other dates", () => {
    const fields: FieldDefinition[] = [...coinFields, { key: "acquired", label: "Acquired", type: "date" }];
    const object = linkedArtObject(record(fields, { title: "t", acquired: "1950", date: { from: 1, to: 2 } }), {
      origin,
      manifest: false,
      dateKey: "acquired",
    });
    expect((object.produced_by as { timespan: { begin_of_the_begin: string } }).timespan.begin_of_the_begin).toBe("1950-01-01T00:00:00Z");
  });
});
