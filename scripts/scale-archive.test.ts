import { describe, expect, it } from "vitest";
import { generateRecord, loadCorpus, planArchive, projectCount, readers, sentencesOf } from "./scale-archive";

const corpus = loadCorpus();

describe("the synthetic archive of bench:scale", () => {
  it("draws its text from the demo in all three languages", () => {
    for (const language of ["en", "es", "ca"] as const) {
      expect(corpus.sentences[language].length).toBeGreaterThan(50);
      expect(corpus.words[language].length).toBeGreaterThan(1000);
    }
    expect(sentencesOf("One two three four. Too short. Five six seven eight?")).toEqual(["One two three four.", "Five six seven eight?"]);
  });

  it("is the same on every run, and different from record to record", () => {
    expect(generateRecord(corpus, "interviews", 7, projectCount)).toEqual(generateRecord(corpus, "interviews", 7, projectCount));
    expect(generateRecord(corpus, "interviews", 7, projectCount).text).not.toEqual(generateRecord(corpus, "interviews", 8, projectCount).text);
  });

  it("makes interviews about a hundred paragraphs long and catalogue records one", () => {
    const interview = generateRecord(corpus, "interviews", 1, projectCount);
    const paragraphs = interview.text.split("\n\n").length;
    expect(paragraphs).toBeGreaterThanOrEqual(80);
    expect(paragraphs).toBeLessThanOrEqual(120);
    expect(generateRecord(corpus, "objects", 1, projectCount).text.split("\n\n")).toHaveLength(1);
    const plan = planArchive(1_000_000);
    expect(plan.interviews).toBe(8_000);
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
