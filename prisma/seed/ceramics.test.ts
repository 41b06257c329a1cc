import { describe, expect, it } from "vitest";
import { sectionFieldsSchema } from "../../lib/archive/field-definitions";
import { MATERIAL_WORDS, PERIOD_WORDS, TYPOLOGY_WORDS, type Lang } from "./ceramic-text";
import { CERAMIC_COUNT, PERIOD_YEARS, SITES, ceramicsSection, generateCeramics, isPlausibleCeramic, type CeramicPeriod } from "./ceramics";
import { expectValuesMatchSection } from "./seed-test-helpers";

const ceramics = generateCeramics();
interface CeramicFields {
  title: string;
  typology: string;
  period: string;
  material: string;
  date: { from: number; to: number };
  findspot: string;
  inventoryNumber: string;
  dimensions: string;
  description: string;
}
const f = (o: (typeof ceramics)[number]) => o.fields as unknown as CeramicFields;

describe("generateCeramics", () => {
  it("makes about 240 records that fit the section", () => {
    expect(ceramics).toHaveLength(CERAMIC_COUNT);
    expect(sectionFieldsSchema.safeParse(ceramicsSection.fields).success).toBe(true);
    expectValuesMatchSection(ceramicsSection, ceramics);
    expect(new Set(ceramics.map((c) => c.key)).size).toBe(ceramics.length);
    expect(new Set(ceramics.map((c) => f(c).inventoryNumber)).size).toBe(ceramics.length);
  });

  it("is deterministic", () => {
    const again = generateCeramics();
    expect(again.map((c) => [c.key, c.fields])).toEqual(ceramics.map((c) => [c.key, c.fields]));
  });

  it("uses every typology, period and material", () => {
    for (const key of ["typology", "period", "material"]) {
      const field = ceramicsSection.fields.find((x) => x.key === key);
      const used = new Set(ceramics.map((c) => c.fields[key]));
      expect(field?.type === "category" && field.options.filter((o) => !used.has(o))).toEqual([]);
    }
  });

  it("only makes plausible combinations", () => {
    expect(isPlausibleCeramic("Iberian", "porcelain", "amphora")).toBe(false);
    expect(isPlausibleCeramic("Roman Imperial", "terra sigillata", "amphora")).toBe(false);
    expect(isPlausibleCeramic("Roman Imperial", "terra sigillata", "bowl")).toBe(true);
    for (const c of ceramics) expect(isPlausibleCeramic(f(c).period, f(c).material, f(c).typology), c.key).toBe(true);
    const porcelain = ceramics.filter((c) => f(c).material === "porcelain");
    expect(porcelain.every((c) => ["Early Modern", "Modern"].includes(f(c).period) && c.fields.typology !== "amphora")).toBe(true);
  });

  it("dates each record within its period", () => {
    for (const c of ceramics) {
      const [from, to] = PERIOD_YEARS[f(c).period as CeramicPeriod];
      expect(f(c).date.from, c.key).toBeGreaterThanOrEqual(from);
      expect(f(c).date.to, c.key).toBeLessThanOrEqual(to);
    }
    const majolica = ceramics.filter((c) => f(c).material.startsWith("tin-glazed") && f(c).period === "Medieval");
    expect(majolica.every((c) => f(c).date.from >= 1250)).toBe(true);
  });

  it("places finds at one of the two sites with a context", () => {
    for (const c of ceramics) expect(f(c).findspot).toMatch(new RegExp(`^(${SITES.port}|${SITES.vall}), .+\\d{4}`));
    expect(ceramics.some((c) => f(c).findspot.startsWith(SITES.port))).toBe(true);
    expect(ceramics.some((c) => f(c).findspot.startsWith(SITES.vall))).toBe(true);
  });

  it("describes each record in 2–4 sentences naming typology, material and period", () => {
    const langs: Record<Lang, number> = { en: 0, es: 0, ca: 0 };
    for (const c of ceramics) {
      const text = f(c).description;
      const sentences = text.split(/(?<=[.!?])\s+(?=[A-ZÀ-ÚÑ])/);
      expect(sentences.length, text).toBeGreaterThanOrEqual(2);
      expect(sentences.length, text).toBeLessThanOrEqual(4);
      const lang = (["en", "es", "ca"] as const).find(
        (l) =>
          text.toLowerCase().includes((TYPOLOGY_WORDS[f(c).typology] as Record<Lang, string>)[l].toLowerCase()) &&
          text.includes((MATERIAL_WORDS[f(c).material] as Record<Lang, string>)[l]) &&
          text.includes((PERIOD_WORDS[f(c).period] as Record<Lang, string>)[l]),
      );
      expect(lang, text).toBeDefined();
      if (lang) langs[lang]++;
    }
    expect(langs.es).toBeGreaterThan(CERAMIC_COUNT * 0.08);
    expect(langs.ca).toBeGreaterThan(CERAMIC_COUNT * 0.08);
    expect(new Set(ceramics.map((c) => f(c).description)).size).toBeGreaterThan(CERAMIC_COUNT * 0.95);
  });

  it("says the catalogue is synthetic", () => {
    expect(ceramicsSection.description).toMatch(/SYNTHETIC/);
  });
});
