import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sectionFieldsSchema } from "../../lib/archive/field-definitions";
import { aatLinks, aatTerms, loadMuseumObjects, museumMaterial, museumObjectSection, museumPeriod, museumTypology, parseYearMade } from "./museum-objects";
import { expectValuesMatchSection } from "./seed-test-helpers";

const objects = loadMuseumObjects(join(import.meta.dirname, "data", "heritage"));

describe("parseYearMade", () => {
  it.each([
    ["1870", { from: 1870, to: 1870 }],
    ["ca. 1880", { from: 1875, to: 1885 }],
    ["ca.1844", { from: 1839, to: 1849 }],
    ["c .1957", { from: 1952, to: 1962 }],
    ["1902-1905", { from: 1902, to: 1905 }],
    ["ca. 1879-1880", { from: 1879, to: 1880 }],
    ["1971-72", { from: 1971, to: 1972 }],
    ["1955- 1956", { from: 1955, to: 1956 }],
    ["19th century", { from: 1800, to: 1899 }],
    ["20th century", { from: 1900, to: 1999 }],
    ["1940s", { from: 1940, to: 1949 }],
    ["1920's", { from: 1920, to: 1929 }],
    ["early 1960s", { from: 1960, to: 1963 }],
    ["ca. late 1965-1969", { from: 1965, to: 1969 }],
    ["2004 (Printed 2005)", { from: 2004, to: 2005 }],
    ["1962, reworked 1963", { from: 1962, to: 1963 }],
    ["ca. 1963; reworked 1970s", { from: 1963, to: 1979 }],
    ["modeled 1903; cast 1907", { from: 1903, to: 1907 }],
    ["1891 AND 1895", { from: 1891, to: 1895 }],
    ["After 1893", { from: 1893, to: 1903 }],
    ["1855 or after", { from: 1855, to: 1865 }],
    ["189-1880", null],
    ["1879-11880", null],
    ["undated", null],
    ["", null],
    [null, null],
  ])("%s", (text, expected) => {
    expect(parseYearMade(text)).toEqual(expected);
  });
});

describe("classification", () => {
  const t = (aat: string, media: string | null = null) => {
    const terms = aatTerms(aat);
    const typology = museumTypology(terms, media);
    return [typology, museumMaterial(terms, typology)];
  };
  it.each([
    ["oil paint (paint) AAT:(300015050), canvas AAT:(300014078)", null, ["painting", "oil paint"]],
    ["etchings (prints) AAT:(300041365), ink AAT:(300015012), paper (fiber product) AAT:(300014109)", null, ["print", "ink"]],
    ["chalk AAT:(300011727), pencils (drawing and writing equipment) AAT:(300022439), paper (fiber product) AAT:(300014109)", null, ["drawing", "graphite"]],
    ["watercolors (paintings) AAT:(300078925), graphite (mineral) AAT:(300011098)", null, ["painting", "watercolor"]],
    ["gelatin silver prints AAT:(300128695)", null, ["photograph", "gelatin silver"]],
    ["tintypes (prints) AAT:(300134759)", null, ["photograph", "photographic print"]],
    ["bronze (metal) AAT:(300010957)", "Bronze", ["sculpture", "bronze"]],
    ["glass (material) AAT:(300010797), bronze (metal) AAT:(300010957)", "Leaded glass on bronze base", ["decorative art", "glass"]],
    ["paint (coating) AAT:(300015029), wood (plant material) AAT:(300011914)", "Painted wood", ["sculpture", "wood"]],
    ["paper (fiber product) AAT:(300014109)", "Bound set of 80 intaglios on cream laid paper", ["print", "paper"]],
    ["", null, ["other", "other"]],
  ])("%s", (aat, media, expected) => {
    expect(t(aat, media)).toEqual(expected);
  });

  it("assigns periods from the middle of the range", () => {
    expect(museumPeriod(null)).toBe("undated");
    expect(museumPeriod({ from: 1647, to: 1657 })).toBe("before 1800");
    expect(museumPeriod({ from: 1879, to: 1880 })).toBe("1850–1899");
    expect(museumPeriod({ from: 1940, to: 1949 })).toBe("1900–1945");
    expect(museumPeriod({ from: 1946, to: 1947 })).toBe("1946–1979");
    expect(museumPeriod({ from: 1985, to: 1989 })).toBe("1980 and later");
  });
});

describe("aatLinks", () => {
  const aat = (id: string) => `http://vocab.getty.edu/aat/${id}`;
  it("links each AAT term with the catalogue's label, in order", () => {
    expect(aatLinks("oil paint (paint) AAT:(300015050), canvas AAT:(300014078)")).toEqual([
      { uri: aat("300015050"), label: "oil paint (paint)" },
      { uri: aat("300014078"), label: "canvas" },
    ]);
  });
  it("links a term named twice once", () => {
    const media =
      "etchings (prints) AAT:(300041365), ink AAT:(300015012), ink AAT:(300015012), wash (material) AAT:(300011051), crayons (drawing material) AAT:(300022415), laid paper AAT:(300014184)";
    expect(aatLinks(media).map((link) => link.label)).toEqual(["etchings (prints)", "ink", "wash (material)", "crayons (drawing material)", "laid paper"]);
  });
  it("links nothing without AAT ids", () => {
    expect(aatLinks("")).toEqual([]);
    expect(aatLinks(null)).toEqual([]);
    expect(aatLinks("Oil on canvas")).toEqual([]);
  });
});

describe("museum object records", () => {
  it("builds one valid record per object", () => {
    expect(objects).toHaveLength(1952);
    expect(sectionFieldsSchema.safeParse(museumObjectSection.fields).success).toBe(true);
    expectValuesMatchSection(museumObjectSection, objects);
    expect(new Set(objects.map((o) => o.key)).size).toBe(objects.length);
  });

  it("parses most year_made values and leaves the rest undated", () => {
    const dated = objects.filter((o) => o.fields.date !== undefined).length;
    expect(dated / objects.length).toBeGreaterThan(0.95);
    for (const o of objects) expect(o.fields.period === "undated").toBe(o.fields.date === undefined);
  });

  it("stores the AAT links beside the catalogue's medium", () => {
    const katahdin = objects.find((o) => o.title === "View of Mt. Katahdin from the West Bank of the Penobscot River");
    expect(katahdin?.fields.medium).toBeTypeOf("string");
    expect(katahdin?.fields.materialsAat).toEqual([
      { uri: "http://vocab.getty.edu/aat/300015050", label: "oil paint (paint)" },
      { uri: "http://vocab.getty.edu/aat/300014078", label: "canvas" },
    ]);
    expect(objects.find((o) => o.title === "Mokuobji Temple, Uchigawa inlet, Gozensaihata")?.fields).not.toHaveProperty("materialsAat");
    // 1,934 of the 1,952 objects carry AAT ids, 4,390 links in all (a term named twice is linked once).
    const linked = objects.filter((o) => Array.isArray(o.fields.materialsAat));
    expect(linked).toHaveLength(1934);
    expect(linked.reduce((sum, o) => sum + (o.fields.materialsAat as unknown[]).length, 0)).toBe(4390);
  });

  it("uses every typology and period option", () => {
    for (const key of ["typology", "period"]) {
      const field = museumObjectSection.fields.find((x) => x.key === key);
      const used = new Set(objects.map((o) => o.fields[key]));
      expect(field?.type === "category" && field.options.filter((o) => !used.has(o))).toEqual([]);
    }
  });
});
