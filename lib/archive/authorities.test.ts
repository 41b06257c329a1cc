import { describe, expect, it } from "vitest";
import { authorityHint, authorityLabel, recogniseAuthorityUri } from "./authorities";
import { validateRecordValues } from "./validate-record-values";
import type { FieldDefinition } from "./field-definitions";

describe("recogniseAuthorityUri", () => {
  it.each([
    ["https://www.wikidata.org/wiki/Q1492", "wikidata", "http://www.wikidata.org/entity/Q1492"],
    ["http://www.wikidata.org/entity/q1492", "wikidata", "http://www.wikidata.org/entity/Q1492"],
    ["https://m.wikidata.org/wiki/Q1492#sitelinks", "wikidata", "http://www.wikidata.org/entity/Q1492"],
    ["http://vocab.getty.edu/page/aat/300015050", "aat", "http://vocab.getty.edu/aat/300015050"],
    ["http://vocab.getty.edu/aat/300015050.json", "aat", "http://vocab.getty.edu/aat/300015050"],
    ["http://vocab.getty.edu/tgn/7008038", "tgn", "http://vocab.getty.edu/tgn/7008038"],
    ["https://vocab.getty.edu/page/ulan/500115493", "ulan", "http://vocab.getty.edu/ulan/500115493"],
    ["https://www.geonames.org/3128760/barcelona.html", "geonames", "https://sws.geonames.org/3128760/"],
    ["http://sws.geonames.org/3128760", "geonames", "https://sws.geonames.org/3128760/"],
    ["https://viaf.org/viaf/96994048/", "viaf", "http://viaf.org/viaf/96994048"],
    ["https://nomisma.org/id/athens", "nomisma", "http://nomisma.org/id/athens"],
    ["http://nomisma.org/id/ar#this", "nomisma", "http://nomisma.org/id/ar"],
    ["http://numismatics.org/ocre/id/ric.1(2).ner.53", "ocre", "http://numismatics.org/ocre/id/ric.1(2).ner.53"],
    ["https://numismatics.org/crro/id/rrc-44.5", "crro", "http://numismatics.org/crro/id/rrc-44.5"],
    ["http://numismatics.org/crro/id/rrc-117A.1", "crro", "http://numismatics.org/crro/id/rrc-117A.1"],
    ["http://numismatics.org/crro/id/rrc-197-8B.1", "crro", "http://numismatics.org/crro/id/rrc-197-8B.1"],
    ["http://nomisma.org/id/10-Taler", "nomisma", "http://nomisma.org/id/10-Taler"],
    ["http://numismatics.org/ocre/id/ric.3.com.251_denarius", "ocre", "http://numismatics.org/ocre/id/ric.3.com.251_denarius"],
  ])("%s is %s, stored as %s", (written, scheme, uri) => {
    expect(recogniseAuthorityUri(written)).toMatchObject({ scheme, uri });
  });

  it.each([
    "Q1492",
    "https://example.org/wiki/Q1492",
    "http://vocab.getty.edu/aat/123",
    "http://vocab.getty.edu/ulan/300015050",
    "http://nomisma.org/id/ath ens",
    "http://numismatics.org/crro/id/rrc-44",
    "http://numismatics.org/ocre/id/",
    "javascript:alert(1)//wikidata.org/entity/Q1",
    " ",
  ])("refuses %j", (written) => {
    expect(recogniseAuthorityUri(written)).toBeNull();
  });

  it("accepts only the schemes allowed", () => {
    expect(recogniseAuthorityUri("http://nomisma.org/id/athens", ["wikidata", "tgn"])).toBeNull();
    expect(authorityHint(["wikidata", "tgn"])).toBe("write a Wikidata or Getty TGN URI, such as http://www.wikidata.org/entity/Q1492");
  });

  it("labels a link by its label, or by its authority and id", () => {
    expect(authorityLabel({ uri: "http://nomisma.org/id/athens", label: " Athens " })).toBe("Athens");
    expect(authorityLabel({ uri: "http://vocab.getty.edu/aat/300015050" })).toBe("Getty AAT 300015050");
  });
});

describe("authority fields", () => {
  const fields: FieldDefinition[] = [
    { key: "title", label: "Title", type: "text", required: true },
    { key: "mint", label: "Mint", type: "authority", authorities: ["nomisma"] },
    { key: "materials", label: "Materials", type: "authority", multiple: true },
  ];

  it("stores canonical URIs with their labels, once each", () => {
    const result = validateRecordValues(fields, {
      title: "A coin",
      mint: { uri: "https://nomisma.org/id/athens", label: "  Athens " },
      materials: [
        "http://vocab.getty.edu/page/aat/300015050",
        { uri: "http://vocab.getty.edu/aat/300015050", label: "oil paint" },
        { uri: "http://vocab.getty.edu/aat/300014078", label: "canvas" },
      ],
    });
    expect(result).toEqual({
      ok: true,
      values: {
        title: "A coin",
        mint: { uri: "http://nomisma.org/id/athens", label: "Athens" },
        materials: [{ uri: "http://vocab.getty.edu/aat/300015050" }, { uri: "http://vocab.getty.edu/aat/300014078", label: "canvas" }],
      },
    });
  });

  it("quotes a value that is not a URI of an accepted authority", () => {
    const result = validateRecordValues(fields, { title: "A coin", mint: "http://www.wikidata.org/entity/Q1524" });
    expect(result).toEqual({
      ok: false,
      fieldErrors: { mint: ['Mint "http://www.wikidata.org/entity/Q1524" is not an authority URI: write a Nomisma URI, such as http://nomisma.org/id/athens'] },
    });
    expect(validateRecordValues(fields, { title: "A coin", mint: ["http://nomisma.org/id/athens", "http://nomisma.org/id/rome"] })).toMatchObject({
      ok: false,
      fieldErrors: { mint: ["Mint takes one authority link"] },
    });
    expect(validateRecordValues(fields, { title: "A coin", materials: [{ uri: 5 }] })).toMatchObject({
      ok: false,
      fieldErrors: { materials: ["Materials must be authority links: a URI and an optional label"] },
    });
  });
});
