import { describe, expect, it } from "vitest";
import { createRng } from "../../prisma/seed/prng";
import {
  type SourceUnit,
  assembleCorpus,
  generateRecord,
  nearestUnits,
  passageVector,
  planArchive,
  projectCount,
  readers,
  sentencesOf,
  unitsOf,
} from "./scale-archive";

/** Units on six topics: a topic's units share most of their vector and their words. */
function fixtureUnits(): SourceUnit[] {
  const rng = createRng("scale-archive-test");
  const dimension = 16;
  return Array.from({ length: 60 }, (_, index) => {
    const topic = index % 6;
    const vector = new Float32Array(dimension);
    for (let d = 0; d < dimension; d++) vector[d] = (d === topic ? 3 : 0) + rng.range(-0.5, 0.5);
    const norm = Math.hypot(...vector);
    for (let d = 0; d < dimension; d++) vector[d]! /= norm;
    const sentences = (language: string) =>
      Array.from({ length: 4 }, (_, s) => `Topic ${topic} ${language} unit ${index} sentence ${s} has words on ${topic} ${index} ${s} ${language}.`);
    return { sentences: { en: sentences("en"), es: sentences("es"), ca: sentences("ca") }, vector };
  });
}
const corpus = assembleCorpus(fixtureUnits(), 8);
const spread = new Float32Array(16).fill(0.1);

describe("the synthetic archive of bench:scale", () => {
  it("cuts abstracts into units of four sentences, the last never a stub", () => {
    expect(sentencesOf("One two three four. Too short. Five six seven eight?")).toEqual(["One two three four.", "Five six seven eight?"]);
    expect(unitsOf(["a", "b", "c", "d", "e", "f", "g", "h", "i"]).map((unit) => unit.length)).toEqual([4, 5]);
    expect(unitsOf(["a", "b", "c", "d", "e", "f"]).map((unit) => unit.length)).toEqual([4, 2]);
  });

  it("finds each unit's topic: its nearest units by vector, itself first", () => {
    const near = nearestUnits(
      corpus.units.map((unit) => unit.vector),
      8,
    );
    expect(near[7]![0]).toBe(7);
    // Ten units per topic: the seven nearest others are all of unit 7's topic.
    expect(Array.from(near[7]!.subarray(1)).every((index) => index % 6 === 7 % 6)).toBe(true);
  });

  it("keeps a record to one topic, in one language, the same on every run", () => {
    const interview = generateRecord(corpus, "interviews", 7, projectCount);
    expect(generateRecord(corpus, "interviews", 7, projectCount)).toEqual(interview);
    expect(generateRecord(corpus, "interviews", 8, projectCount).text).not.toEqual(interview.text);
    const topics = new Set([...interview.text.matchAll(/Topic (\d)/g)].map((match) => match[1]));
    expect(topics.size).toBe(1);
    expect(interview.text).toContain(` ${interview.language} unit `);
  });

  it("makes interviews about a hundred paragraphs long and catalogue records one, with names no archive language uses", () => {
    const interview = generateRecord(corpus, "interviews", 1, projectCount);
    const paragraphs = interview.text.split("\n\n").length;
    expect(paragraphs).toBeGreaterThanOrEqual(80);
    expect(paragraphs).toBeLessThanOrEqual(120);
    expect(generateRecord(corpus, "objects", 1, projectCount).text.split("\n\n")).toHaveLength(1);
    expect(planArchive(1_000_000).interviews).toBe(8_000);
    expect(interview.title).toMatch(/^Interview 1 with [A-Z][a-z]+ [A-Z][a-z]+$/);
  });

  it("gives a passage the vector of the units its sentences come from, with a little noise", () => {
    const unit = corpus.units[12]!;
    const text = `Interview 3 with Zenmok Vek › Text\n${unit.sentences.es.slice(0, 3).join(" ")}`;
    const vector = passageVector(corpus, text, spread, 0.25)!;
    const cosine = vector.reduce((sum, value, d) => sum + value * unit.vector[d]!, 0);
    expect(cosine).toBeGreaterThan(0.95);
    expect(cosine).toBeLessThan(1);
    expect(passageVector(corpus, text, spread, 0.25)).toEqual(vector);
    // Half from a unit of another topic: the vector sits between the two.
    const other = corpus.units[13]!;
    const mixed = passageVector(corpus, `${unit.sentences.en.slice(0, 2).join(" ")} ${other.sentences.en.slice(0, 2).join(" ")}`, spread, 0)!;
    const toUnit = mixed.reduce((sum, value, d) => sum + value * unit.vector[d]!, 0);
    const toOther = mixed.reduce((sum, value, d) => sum + value * other.vector[d]!, 0);
    expect(Math.abs(toUnit - toOther)).toBeLessThan(0.1);
    expect(toUnit).toBeGreaterThan(0.6);
    expect(passageVector(corpus, "Nothing of the corpus here.", spread, 0.25)).toBeNull();
    // A sentence cut at the passage's end is known by its first words, one cut at its start by its last.
    const head = unit.sentences.en[0]!.split(" ").slice(0, 6).join(" ");
    const tail = unit.sentences.en[1]!.split(" ").slice(-6).join(" ");
    for (const cut of [head, tail])
      expect(passageVector(corpus, `Heading › Text\n${cut}`, spread, 0)!.reduce((sum, value, d) => sum + value * unit.vector[d]!, 0)).toBeGreaterThan(0.999);
  });

  it("gives the 2% reader about 2% of the records and the 50% reader about half", () => {
    const plan = planArchive(100_000);
    const projects = Object.entries(plan).flatMap(([kind, count]) =>
      Array.from({ length: Math.min(count, 2000) }, (_, index) => generateRecord(corpus, kind as keyof typeof plan, index, projectCount).project),
    );
    const share = (readable: readonly number[]) => projects.filter((project) => readable.includes(project)).length / projects.length;
    expect(share(readers["reader 2%"])).toBeGreaterThan(0.01);
    expect(share(readers["reader 2%"])).toBeLessThan(0.03);
    expect(share(readers["reader 50%"])).toBeGreaterThan(0.45);
    expect(share(readers["reader 50%"])).toBeLessThan(0.55);
    const languages = new Set(Array.from({ length: 200 }, (_, index) => generateRecord(corpus, "people", index, projectCount).language));
    expect([...languages].sort()).toEqual(["ca", "en", "es"]);
  });
});
