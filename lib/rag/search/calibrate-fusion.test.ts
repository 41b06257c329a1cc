import { describe, expect, it } from "vitest";
import { type CalibrationQuestion, calibrateFusion } from "./calibrate-fusion";
import { fuseRecords, fusionWeights } from "./search-archive";

const hit = (recordId: string, score: number) => ({ chunkId: `${recordId}-${score}`, recordId, projectId: "p", contributingProjectIds: [], score });
/** A leg that ranks the given records in order. */
const leg = (name: "meaning" | "words", ids: string[]) => ({ leg: name, hits: ids.map((id, index) => hit(id, 100 - index)) });
const noise = (seed: number) => Array.from({ length: 20 }, (_, index) => `noise-${seed}-${index}`);

/** A question whose answer `answer` is found first by `good` and not at all by the other leg. */
function question(language: string, good: "meaning" | "words", seed: number): CalibrationQuestion {
  const answer = `z-answer-${seed}`;
  const found = [answer, ...noise(seed).slice(0, 9)];
  const missed = noise(seed + 1000);
  const other = good === "meaning" ? "words" : "meaning";
  // Its leg is listed second: fusion keeps the lists' order on ties, so equal weights put it second.
  return { language, lists: [leg(other, missed), leg(good, found)], judged: new Map([[answer, 2]]) };
}

/** A question both legs find, fourth: fused with similar weights it comes first. */
function foundByBoth(language: string, seed: number): CalibrationQuestion {
  const answer = `z-answer-${seed}`;
  const list = (offset: number) => [...noise(seed + offset).slice(0, 3), answer, ...noise(seed + offset).slice(3, 9)];
  return { language, lists: [leg("meaning", list(0)), leg("words", list(1000))], judged: new Map([[answer, 2]]) };
}

describe("fusion weights", () => {
  it("maps a meaning share to weights summing to 2, per language, equal without a calibration", () => {
    expect(fusionWeights(null, "en")).toEqual({ meaning: 1, words: 1 });
    const fusion = { meaningShare: { all: 0.3, ca: 0.8 }, figures: {}, source: "", measuredAt: "" };
    expect(fusionWeights(fusion, "ca")).toEqual({ meaning: 1.6, words: expect.closeTo(0.4, 10) });
    expect(fusionWeights(fusion, "es")).toEqual({ meaning: 0.6, words: 1.4 });
    expect(fusionWeights(fusion, null)).toEqual({ meaning: 0.6, words: 1.4 });
  });

  it("a weighted leg wins the ties equal weights would leave to rank", () => {
    const lists = [leg("meaning", ["m", "x"]), leg("words", ["w", "y"])];
    expect(fuseRecords(lists, 60, { meaning: 1.2, words: 0.8 })[0]?.id).toBe("m");
    expect(fuseRecords(lists, 60, { meaning: 0.8, words: 1.2 })[0]?.id).toBe("w");
  });
});

describe("calibrateFusion", () => {
  it("leans towards the leg that finds the answers, and never scores below the better leg", () => {
    // Words find 7 of 10 answers, meaning 3: equal weights lose some of each.
    const questions = Array.from({ length: 10 }, (_, index) => question("en", index < 7 ? "words" : "meaning", index));
    const calibration = calibrateFusion(questions, { k: 60, source: "test" });
    const figures = calibration.figures.all!;
    expect(calibration.meaningShare.all).toBeLessThan(0.5);
    expect(figures.calibrated).toBeGreaterThanOrEqual(Math.max(figures.keyword, figures.semantic));
    expect(figures.calibrated).toBeGreaterThanOrEqual(figures.equal);
    expect(figures.queries).toBe(10);
  });

  it("keeps a share per language that had enough questions", () => {
    const questions = [
      ...Array.from({ length: 8 }, (_, index) => question("ca", "meaning", index)),
      ...Array.from({ length: 8 }, (_, index) => question("en", "words", 100 + index)),
      ...Array.from({ length: 3 }, (_, index) => question("es", "meaning", 200 + index)),
    ];
    const calibration = calibrateFusion(questions, { k: 60, source: "test", minQuestionsPerLanguage: 6 });
    expect(calibration.meaningShare.ca).toBeGreaterThan(0.5);
    expect(calibration.meaningShare.en).toBeLessThan(0.5);
    expect(calibration.meaningShare.es).toBeUndefined();
    expect(calibration.figures.ca?.calibrated).toBe(1);
    expect(calibration.figures.en?.calibrated).toBe(1);
  });

  it("shrinks a language's few questions towards the overall curve, never below the language's better leg", () => {
    const questions = [
      ...Array.from({ length: 30 }, (_, index) => question("en", "words", index)),
      // Catalan: both legs find 4 answers fourth, meaning alone finds 3 — on its own it leans to meaning.
      ...Array.from({ length: 4 }, (_, index) => foundByBoth("ca", 100 + index)),
      ...Array.from({ length: 3 }, (_, index) => question("ca", "meaning", 200 + index)),
    ];
    const alone = calibrateFusion(questions, { k: 60, source: "test", priorQuestions: 0 });
    const shrunk = calibrateFusion(questions, { k: 60, source: "test" });
    expect(alone.meaningShare.ca).toBeGreaterThan(0.5);
    expect(shrunk.meaningShare.ca).toBeLessThan(alone.meaningShare.ca!);
    for (const calibration of [alone, shrunk]) {
      const ca = calibration.figures.ca!;
      expect(ca.calibrated).toBeGreaterThanOrEqual(Math.max(ca.keyword, ca.semantic));
    }
    // The overall share is the overall curve's own best: shrinkage only touches languages.
    expect(shrunk.meaningShare.all).toBe(alone.meaningShare.all);
  });

  it("stays at equal weights when the shares tie, and ignores questions with nothing relevant", () => {
    const both: CalibrationQuestion = { language: "en", lists: [leg("meaning", ["a", "b"]), leg("words", ["a", "c"])], judged: new Map([["a", 1]]) };
    const unjudged: CalibrationQuestion = { language: "en", lists: [leg("meaning", ["z"]), leg("words", ["z"])], judged: new Map([["z", 0]]) };
    const calibration = calibrateFusion([both, unjudged], { k: 60, source: "golden sets", now: new Date("2026-12-01T00:00:00Z") });
    expect(calibration).toMatchObject({ meaningShare: { all: 0.5 }, source: "golden sets", measuredAt: "2026-12-01T00:00:00.000Z" });
    expect(calibration.figures.all?.queries).toBe(1);
  });
});
