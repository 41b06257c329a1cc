import { describe, expect, it } from "vitest";
import type { FieldDefinition } from "../field-definitions";
import { type DcSource, authorityDcElement, defaultDcMapping, dublinCoreOf } from "./dublin-core";

const fields: FieldDefinition[] = [
  { key: "title", label: "Title", type: "text", required: true },
  { key: "subjects", label: "Subjects", type: "authority", multiple: true },
  { key: "findspot", label: "Findspot", type: "authority", authorities: ["tgn", "geonames"] },
  { key: "mint", label: "Mint", type: "authority", authorities: ["nomisma"], dublinCore: "coverage" },
  { key: "maker", label: "Maker", type: "authority", authorities: ["ulan", "tgn"] },
];

function source(values: Record<string, unknown>): DcSource {
  return {
    title: "A coin",
    url: "https://archive.example/records/1",
    sectionName: "Coins",
    projectName: "Public Collections",
    fields,
    values,
    relationTitles: new Map(),
    mediaTypes: new Map(),
  };
}

describe("authority links in Dublin Core", () => {
  it("are coverage when every accepted scheme names places or the field says so, else subjects", () => {
    const byKey = (key: string) => fields.find((field) => field.key === key) as Extract<FieldDefinition, { type: "authority" }>;
    expect(["subjects", "findspot", "mint", "maker"].map((key) => authorityDcElement(byKey(key)))).toEqual(["subject", "coverage", "coverage", "subject"]);
    expect(defaultDcMapping(fields)).toMatchObject({ subject: ["subjects", "maker"], coverage: ["findspot", "mint"] });
  });

  it("give each link's label and then its URI; a link without a label its URI alone", () => {
    const dc = dublinCoreOf(
      source({
        title: "Denarius",
        subjects: [{ uri: "http://www.wikidata.org/entity/Q1492", label: "Barcelona" }, { uri: "http://vocab.getty.edu/aat/300008063" }],
        findspot: { uri: "https://sws.geonames.org/3128760/", label: "Barcelona" },
        mint: { uri: "http://nomisma.org/id/rome", label: "Rome" },
      }),
      defaultDcMapping(fields),
    );
    expect(dc.filter(([element]) => element === "subject" || element === "coverage")).toEqual([
      ["subject", "Barcelona"],
      ["subject", "http://www.wikidata.org/entity/Q1492"],
      ["subject", "http://vocab.getty.edu/aat/300008063"],
      ["coverage", "Barcelona"],
      ["coverage", "https://sws.geonames.org/3128760/"],
      ["coverage", "Rome"],
      ["coverage", "http://nomisma.org/id/rome"],
    ]);
  });

  it("give nothing for a value that is not a link", () => {
    const dc = dublinCoreOf(source({ title: "Denarius", subjects: "Barcelona", findspot: [{ label: "no uri" }] }), defaultDcMapping(fields));
    expect(dc.filter(([element]) => element === "subject" || element === "coverage")).toEqual([]);
  });
});
