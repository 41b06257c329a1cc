import { describe, expect, it } from "vitest";
import {
  type CalibrationQuestion,
  type MeasuredQuestion,
  calibrateFusion,
  calibrateSpace,
  chooseLengthNormalisation,
  crossValidateSpace,
  legNdcg,
  pickShare,
} from "./calibrate-fusion";
import { fuseRecords, fusionWeights, lengthNormalisationFor } from "./fuse-legs";

const hit = (recordId: string, score: number) => ({ chunkId: `${recordId}-${score}`, recordId, projectId: "p", contributingProjectIds: [], score });
/** A leg that ranks the given records in order, with scores shaped like the real legs': close cosines, spread-out BM25. */
const leg = (name: "meaning" | "words", ids: string[]) => ({
  leg: name,
  hits: ids.map((id, index) => hit(id, name === "meaning" ? 0.65 - 0.01 * index : 30 - 1.1 * index)),
});
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

/** A question both legs find, fourth: fused with similar weights it comes first, with either leg alone it does not. */
function foundByBoth(language: string, seed: number): CalibrationQuestion {
  const answer = `z-answer-${seed}`;
  const list = (offset: number) => [...noise(seed + offset).slice(0, 3), answer, ...noise(seed + offset).slice(3, 9)];
  return { language, lists: [leg("meaning", list(0)), leg("words", list(1000))], judged: new Map([[answer, 2]]) };
}

describe("fusion weights", () => {
  it("gives meaning the measured share and words the rest, per language, equal without a calibration", () => {
    expect(fusionWeights(null, "en")).toEqual({ meaning: 0.5, words: 0.5 });
    const fusion = { method: "scores" as const, meaningShare: { all: 0.3, ca: 0.8 }, figures: {}, source: "", measuredAt: "" };
    expect(fusionWeights(fusion, "ca")).toEqual({ meaning: 0.8, words: expect.closeTo(0.2, 10) });
    expect(fusionWeights(fusion, "es")).toEqual({ meaning: 0.3, words: 0.7 });
    expect(fusionWeights(fusion, null)).toEqual({ meaning: 0.3, words: 0.7 });
  });

  it("a weighted leg wins the ties equal weights would leave to rank", () => {
    const lists = [
      { leg: "meaning" as const, hits: [hit("m", 0.9), hit("x", 0.3)] },
      { leg: "words" as const, hits: [hit("w", 10), hit("y", 5)] },
    ];
    // m: share × 1; w: (1 − share) × 1 + share × the meaning leg's lowest 0.3/0.9.
    expect(fuseRecords(lists, { meaning: 0.7, words: 0.3 })[0]?.id).toBe("m");
    expect(fuseRecords(lists, { meaning: 0.5, words: 0.5 })[0]?.id).toBe("w");
  });
});

describe("calibrateFusion", () => {
  it("follows the leg that finds the answers, and never scores below the better leg", () => {
    // A record only words found keeps the meaning leg's lowest cosine, so meaning needs most of the
    // weight before its own finds come first: with 7 of 10 answers it gets it, with 3 it does not.
    for (const meaningFinds of [3, 7]) {
      const questions = Array.from({ length: 10 }, (_, index) => question("en", index < meaningFinds ? "meaning" : "words", index));
      const calibration = calibrateFusion(questions, { source: "test" });
      const figures = calibration.figures.all!;
      if (meaningFinds > 5) expect(calibration.meaningShare.all).toBeGreaterThan(0.5);
      else expect(calibration.meaningShare.all).toBeLessThanOrEqual(0.5);
      expect(figures.calibrated).toBeGreaterThanOrEqual(Math.max(figures.keyword, figures.semantic));
      expect(figures.calibrated).toBeGreaterThanOrEqual(figures.equal);
      expect(figures.calibrated).toBe(0.7);
      expect(figures.queries).toBe(10);
    }
  });

  it("keeps a share per language that had enough questions", () => {
    const questions = [
      ...Array.from({ length: 8 }, (_, index) => question("ca", "meaning", index)),
      ...Array.from({ length: 8 }, (_, index) => question("en", "words", 100 + index)),
      ...Array.from({ length: 3 }, (_, index) => question("es", "meaning", 200 + index)),
    ];
    const calibration = calibrateFusion(questions, { source: "test", minQuestionsPerLanguage: 6 });
    expect(calibration.meaningShare.ca).toBeGreaterThan(0.5);
    expect(calibration.meaningShare.en).toBeLessThanOrEqual(0.5);
    expect(calibration.meaningShare.es).toBeUndefined();
    expect(calibration.figures.ca?.calibrated).toBe(1);
    expect(calibration.figures.en?.calibrated).toBe(1);
  });

  it("shrinks a language's few questions towards the overall curve, never below the language's better leg", () => {
    const questions = [
      ...Array.from({ length: 30 }, (_, index) => question("en", "words", index)),
      // Catalan: both legs find 5 answers fourth, meaning alone finds 1 — on its own it leans to meaning.
      ...Array.from({ length: 5 }, (_, index) => foundByBoth("ca", 100 + index)),
      question("ca", "meaning", 200),
    ];
    const alone = calibrateFusion(questions, { source: "test", priorQuestions: 0 });
    const shrunk = calibrateFusion(questions, { source: "test" });
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
    const calibration = calibrateFusion([both, unjudged], { source: "golden sets", now: new Date("2026-12-01T00:00:00Z") });
    expect(calibration).toMatchObject({ meaningShare: { all: 0.5 }, source: "golden sets", measuredAt: "2026-12-01T00:00:00.000Z" });
    expect(calibration.figures.all?.queries).toBe(1);
  });
});

describe("pickShare", () => {
  const shares = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];
  // A plateau around equal weights, and a lone spike at 0.8 beside the cliff to meaning alone.
  const spiky = [0.6, 0.6, 0.61, 0.62, 0.63, 0.63, 0.63, 0.58, 0.66, 0.45, 0.3];
  const options = { questions: 12, priorQuestions: 0, betterLeg: 0.6 };

  it("takes the raw best share without smoothing and the plateau with it", () => {
    expect(shares[pickShare(shares, spiky, { ...options, smoothing: 0 })]).toBe(0.8);
    expect(shares[pickShare(shares, spiky, { ...options, smoothing: 1 })]).toBe(0.5);
  });

  it("leans towards the overall curve by the prior's weight", () => {
    const overall = [0.5, 0.52, 0.54, 0.56, 0.58, 0.6, 0.62, 0.64, 0.66, 0.68, 0.5];
    const own = [0.71, 0.7, 0.69, 0.68, 0.67, 0.66, 0.65, 0.64, 0.63, 0.62, 0.5];
    expect(shares[pickShare(shares, own, { ...options, smoothing: 0, overall })]).toBe(0);
    expect(shares[pickShare(shares, own, { ...options, smoothing: 0, overall, priorQuestions: 48 })]).toBeGreaterThanOrEqual(0.8);
  });

  it("never picks a share whose own figure is below the better leg", () => {
    // Smoothed, 0.9 and 1 look best; unsmoothed, 0.9 falls below the better leg (0.7).
    const own = [0.7, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.9, 0.69, 0.95];
    const picked = pickShare(shares, own, { ...options, smoothing: 1, betterLeg: 0.7 });
    expect(own[picked]).toBeGreaterThanOrEqual(0.7);
    expect(shares[picked]).toBe(1);
    expect(pickShare([], [], { ...options, smoothing: 1 })).toBe(-1);
  });
});

/** A measured question whose words leg is the same at every b, unless `atB` gives one per b. */
function measured(question: CalibrationQuestion, atB?: MeasuredQuestion["words"]): MeasuredQuestion {
  const words = question.lists.find((list) => list.leg === "words")!;
  return { ...question, words: atB ?? [words, words, words, words] };
}

describe("calibrateSpace and crossValidateSpace", () => {
  it("ranks each question at the share chosen without it", () => {
    // Five questions only words answers and five only meaning answers, and no share serves both
    // kinds: in sample, one kind is served. Held out, each question is ranked at the share the
    // other nine chose — the other kind's, since its own kind is then one short.
    const questions = [
      ...Array.from({ length: 5 }, (_, index) => question("en", "words", index)),
      ...Array.from({ length: 5 }, (_, index) => question("en", "meaning", 50 + index)),
    ].map((entry) => measured(entry));
    const options = { defaultB: 0.75, smoothing: 0, priorQuestions: 0 };
    const held = crossValidateSpace(questions, options);
    const inSample = calibrateSpace(questions, { ...options, source: "test" });
    expect(held.byLanguage.en?.queries).toBe(10);
    expect(inSample.figures.all!.calibrated).toBeGreaterThanOrEqual(0.5);
    expect(held.all).toBeLessThan(0.5);
    // Alike questions: holding one out changes nothing.
    const alike = Array.from({ length: 6 }, (_, index) => measured(foundByBoth("ca", index)));
    expect(crossValidateSpace(alike, { defaultB: 0.75 }).all).toBe(calibrateSpace(alike, { defaultB: 0.75, source: "test" }).figures.all!.calibrated);
  });

  it("chooses b first and measures the share with each question's words leg at its language's b", () => {
    // The words leg finds the answer only at b 0.25; at the other b it finds noise.
    const questions = Array.from({ length: 8 }, (_, index) => {
      const base = question("en", "words", index);
      const found = base.lists.find((list) => list.leg === "words")!;
      const missed = leg("words", noise(index + 500));
      return measured(base, [found, missed, missed, missed]);
    });
    const calibration = calibrateSpace(questions, { defaultB: 0.75, source: "test" });
    expect(calibration.lengthNormalisation?.en).toBe(0.25);
    expect(calibration.figures.en?.keyword).toBe(1);
    expect(calibrateSpace(questions, { defaultB: 0.75, source: "test", measureLength: false }).lengthNormalisation).toEqual({ all: 0.75 });
    expect(calibrateSpace(questions, { defaultB: 0.75, source: "test", measureLength: false }).figures.en?.keyword).toBe(0);
  });
});

describe("a record's second passage, per space", () => {
  /**
   * The answer has one strong passage; a rival record has two middling ones. Adding the second
   * passage whole puts the rival first; the best passage alone, or a quarter of the second, the
   * answer. `twoPassageAnswer` flips it: the answer's evidence is spread over two passages.
   */
  function spread(seed: number, twoPassageAnswer: boolean): CalibrationQuestion {
    const answer = `z-answer-${seed}`;
    const rival = `rival-${seed}`;
    const words = twoPassageAnswer
      ? [hit(rival, 10), { ...hit(answer, 8), chunkId: `${answer}-a` }, { ...hit(answer, 3), chunkId: `${answer}-b` }]
      : [hit(answer, 10), { ...hit(rival, 7), chunkId: `${rival}-a` }, { ...hit(rival, 6.5), chunkId: `${rival}-b` }];
    return { language: "en", lists: [leg("meaning", noise(seed)), { leg: "words" as const, hits: words }], judged: new Map([[answer, 2]]) };
  }

  it("takes the share whose words leg ranks best, ties to the default", () => {
    const chosen = (questions: CalibrationQuestion[], defaultShare: number) => {
      const calibration = calibrateSpace(
        questions.map((entry) => measured(entry)),
        { defaultB: 0.75, defaultSecondPassage: defaultShare, source: "test" },
      );
      return { secondPassage: calibration.secondPassage, secondPassageFigures: calibration.secondPassageFigures };
    };
    const abstracts = Array.from({ length: 6 }, (_, index) => spread(index, false));
    expect(chosen(abstracts, 1)).toMatchObject({ secondPassage: 0.25 });
    expect(chosen(abstracts, 0)).toMatchObject({ secondPassage: 0 });
    const testimonies = Array.from({ length: 6 }, (_, index) => spread(index, true));
    expect(chosen(testimonies, 0)).toMatchObject({ secondPassage: 1 });
    expect(chosen(testimonies, 0).secondPassageFigures?.map((point) => point.keyword)).toEqual([0.6309, 0.6309, 0.6309, 1]);
    expect(chosen([], 1)).toEqual({ secondPassage: undefined, secondPassageFigures: undefined });
  });

  it("is stored by calibrateSpace, used for the fusion it measures and for each held-out question", () => {
    const questions = Array.from({ length: 6 }, (_, index) => measured(spread(index, false)));
    const calibration = calibrateSpace(questions, { defaultB: 0.75, source: "test" });
    expect(calibration.secondPassage).toBe(0.25);
    expect(calibration.figures.all?.keyword).toBe(1);
    const unmeasured = calibrateSpace(questions, { defaultB: 0.75, source: "test", measureSecondPassage: false });
    expect(unmeasured.secondPassage).toBeUndefined();
    expect(unmeasured.figures.all?.keyword).toBeLessThan(1);
    expect(crossValidateSpace(questions, { defaultB: 0.75 }).all).toBe(1);
  });

  it("is chosen with b, whatever share the space's last calibration left on the measured legs", () => {
    // At b 0.25 the answer has one strong passage (best at a small share); at b 0.75 its evidence
    // is spread over two (best at share 1). Each pair (b 0.25, share 0.25) and (b 0.75, share 1)
    // ranks every answer first: the tie goes to the default share, 1, and its b.
    const questions = (stored: number) =>
      Array.from({ length: 6 }, (_, index) => {
        const strong = spread(index, false).lists.find((list) => list.leg === "words")!;
        const spreadOut = spread(index, true);
        const words = spreadOut.lists.find((list) => list.leg === "words")!;
        const carried = <T extends object>(list: T) => ({ ...list, secondPassage: stored });
        return measured({ ...spreadOut, lists: spreadOut.lists.map((list) => (list.leg === "words" ? carried(list) : list)) }, [
          carried(strong),
          carried(words),
          carried(words),
          carried(words),
        ]);
      });
    const options = { defaultB: 0.75, defaultSecondPassage: 1, source: "test", now: new Date(0) };
    const afterSmallShare = calibrateSpace(questions(0.25), options);
    const afterWholeShare = calibrateSpace(questions(1), options);
    expect(afterSmallShare).toEqual(afterWholeShare);
    expect(afterSmallShare.secondPassage).toBe(1);
    expect(afterSmallShare.lengthNormalisation?.en).toBe(0.75);
    expect(afterSmallShare.secondPassageFigures?.map((point) => point.keyword)).toEqual([1, 1, 0.6309, 1]);
  });
});

describe("BM25 length normalisation per query language", () => {
  // nDCG@10 of the words leg at b 0.25, 0.5, 0.75, 1.
  const at = (language: string, keyword: number[], judged = true) => ({ language, keyword, judged });
  const repeat = <T>(count: number, make: () => T) => Array.from({ length: count }, make);

  it("picks for each language with enough questions the b its words leg ranked best at, ties to the default", () => {
    const questions = [
      ...repeat(20, () => at("en", [0.9, 0.8, 0.7, 0.6])),
      ...repeat(10, () => at("es", [0.4, 0.5, 0.6, 0.6])),
      ...repeat(3, () => at("ca", [0.1, 0.1, 0.1, 0.9])),
      at("und", [1, 1, 1, 1]),
      at("en", [0, 0, 0, 0], false),
    ];
    const { lengthNormalisation, lengthFigures } = chooseLengthNormalisation(questions, { defaultB: 0.75, priorQuestions: 0 });
    // es: 0.75 and 1 tie, so the default wins; ca has too few questions and takes the overall b.
    expect(lengthNormalisation).toEqual({ all: 0.25, en: 0.25, es: 0.75 });
    expect(lengthFigures?.en?.map((point) => point.b)).toEqual([0.25, 0.5, 0.75, 1]);
    expect(lengthFigures?.en?.[0]?.keyword).toBeCloseTo(0.9);
    expect(lengthFigures?.ca).toBeUndefined();
    expect(chooseLengthNormalisation([at("en", [1, 1, 1, 1], false)], { defaultB: 0.75 })).toEqual({});
  });

  it("shrinks a small language's curve towards the overall one", () => {
    const questions = [...repeat(40, () => at("en", [0.2, 0.4, 0.8, 0.6])), ...repeat(6, () => at("ca", [0.3, 0.4, 0.5, 0.52]))];
    expect(chooseLengthNormalisation(questions, { defaultB: 0.75, priorQuestions: 0 }).lengthNormalisation?.ca).toBe(1);
    expect(chooseLengthNormalisation(questions, { defaultB: 0.75, priorQuestions: 12 }).lengthNormalisation?.ca).toBe(0.75);
  });

  it("is applied per query language, else the overall b, else none (the bm25B setting)", () => {
    const fusion = {
      method: "scores" as const,
      meaningShare: { all: 0.5 },
      figures: {},
      source: "",
      measuredAt: "",
      lengthNormalisation: { all: 0.75, en: 0.25 },
    };
    expect(lengthNormalisationFor(fusion, "en")).toBe(0.25);
    expect(lengthNormalisationFor(fusion, "ca")).toBe(0.75);
    expect(lengthNormalisationFor(fusion, null)).toBe(0.75);
    expect(lengthNormalisationFor({ ...fusion, lengthNormalisation: undefined }, "en")).toBeUndefined();
    expect(lengthNormalisationFor(null, "en")).toBeUndefined();
  });

  it("scores one leg's records against the judgements", () => {
    const list = { leg: "words" as const, hits: [hit("a", 3), hit("b", 2)] };
    expect(legNdcg(list, new Map([["a", 2]]))).toBe(1);
    expect(legNdcg(list, new Map([["b", 2]]))).toBeLessThan(1);
  });
});
