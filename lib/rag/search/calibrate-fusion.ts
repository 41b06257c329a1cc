import { searchSettings } from "../config/settings";
import type { FusionCalibration, FusionSlice } from "../index/index-spaces";
import type { PassageHit } from "./retrieve-passages";
import { ndcgAt } from "./retrieval-metrics";
import { type Leg, fuseRecords, fusionWeights, lengthNormalisationFor, recordRanking } from "./fuse-legs";

/**
 * Calibrated fusion: hybrid search gives the meaning leg the share of the score fusion (each leg's
 * scores scaled to its best, see score-fusion.ts) that scored best
 * on golden questions, for each query language with enough questions and overall. The grid runs
 * from words only (0) to meaning only (1), so on the questions it was chosen on hybrid is never
 * worse than its better leg; ties go to the share nearest equal weights. Pure: the legs' rankings
 * are computed once per question and fused here for every share.
 *
 * A language's ten or so questions are a noisy sample, so its curve is shrunk towards the overall
 * one: each share scores (its questions' nDCG sum + priorQuestions × the overall mean) / (n +
 * priorQuestions), among the shares where the language's own mean is not below its better leg.
 * Both curves are first smoothed over neighbouring shares, so a lone spike beside a cliff does not
 * win. How much of each was measured left-one-out on the archive's dev half (crossValidateSpace;
 * the figures are in docs/decisions/0004-fusion-chosen-held-out.md).
 */
export interface CalibrationQuestion {
  /** The query language detected by the bridge ("en", "es", "ca", "und", …). */
  language: string;
  lists: readonly { leg: Leg; hits: readonly PassageHit[]; secondPassage?: number }[];
  /** Grades by record id (> 0 = relevant). */
  judged: ReadonlyMap<string, number>;
}

export interface CalibrationOptions {
  /** Languages with fewer questions take the overall share (default: the calibrationMinQuestionsPerLanguage setting). */
  minQuestionsPerLanguage?: number;
  /**
   * Weight of the overall curve in a language's choice, in questions (default: the
   * calibrationSharePriorQuestions setting, chosen held out in docs/decisions/0004): 0 picks each
   * language's own best share.
   */
  priorQuestions?: number;
  /** Steps between 0 and 1 (default: the calibrationShareSteps setting). */
  steps?: number;
  /**
   * Neighbouring shares on each side a share's score is averaged with before the best is taken
   * (default: the calibrationSmoothing setting): a share that wins on a narrow spike beside a
   * steep fall is a noisy choice.
   */
  smoothing?: number;
  source: string;
  now?: Date;
}

const cutoff = 10;

function ndcgOf(question: CalibrationQuestion, ranking: readonly string[]): number {
  return ndcgAt(ranking, question.judged, cutoff);
}

function hybridRanking(question: CalibrationQuestion, share: number): string[] {
  const weights = fusionWeights({ method: "scores", meaningShare: { all: share }, figures: {}, source: "", measuredAt: "" }, null);
  return fuseRecords(question.lists, weights).map((item) => item.id);
}

function legRanking(question: CalibrationQuestion, leg: Leg): string[] {
  const list = question.lists.find((entry) => entry.leg === leg);
  return list ? recordRanking(list) : [];
}

const mean = (values: readonly number[]) => (values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : 0);

export function calibrateFusion(questions: readonly CalibrationQuestion[], options: CalibrationOptions): FusionCalibration {
  const steps = options.steps ?? searchSettings.calibrationShareSteps.value;
  const minimum = options.minQuestionsPerLanguage ?? searchSettings.calibrationMinQuestionsPerLanguage.value;
  const shares = Array.from({ length: steps + 1 }, (_, index) => Math.round((index / steps) * 1000) / 1000);
  const judged = questions.filter((question) => [...question.judged.values()].some((grade) => grade > 0));
  // nDCG@10 of every question at every share, computed once.
  const byShare = judged.map((question) => shares.map((share) => ndcgOf(question, hybridRanking(question, share))));
  const legs = judged.map((question) => ({
    keyword: ndcgOf(question, legRanking(question, "words")),
    semantic: ndcgOf(question, legRanking(question, "meaning")),
  }));

  const meaningShare: FusionCalibration["meaningShare"] = { all: 0.5 };
  const figures: FusionCalibration["figures"] = {};
  const shareFigures: NonNullable<FusionCalibration["shareFigures"]> = {};
  const slices: [FusionSlice, (question: CalibrationQuestion) => boolean][] = [
    ["all", () => true],
    ["en", (question) => question.language === "en"],
    ["es", (question) => question.language === "es"],
    ["ca", (question) => question.language === "ca"],
  ];
  const equalIndex = shares.indexOf(0.5);
  const prior = Math.max(0, options.priorQuestions ?? searchSettings.calibrationSharePriorQuestions.value);
  const smoothing = options.smoothing ?? searchSettings.calibrationSmoothing.value;
  const curveOf = (members: readonly number[]) => shares.map((_, shareIndex) => mean(members.map((member) => byShare[member]?.[shareIndex] ?? 0)));
  const overall = curveOf(judged.map((_, index) => index));
  for (const [slice, keep] of slices) {
    const members = judged.flatMap((question, index) => (keep(question) ? [index] : []));
    if (members.length === 0 || (slice !== "all" && members.length < minimum)) continue;
    const own = curveOf(members);
    const legMeans = [mean(members.map((member) => legs[member]?.keyword ?? 0)), mean(members.map((member) => legs[member]?.semantic ?? 0))];
    const found = pickShare(shares, own, {
      overall: slice === "all" ? undefined : overall,
      questions: members.length,
      priorQuestions: prior,
      smoothing,
      betterLeg: Math.max(...legMeans),
    });
    const best = found >= 0 ? found : equalIndex >= 0 ? equalIndex : 0;
    meaningShare[slice] = shares[best] ?? 0.5;
    figures[slice] = {
      queries: members.length,
      keyword: round(legMeans[0] ?? 0),
      semantic: round(legMeans[1] ?? 0),
      equal: round(mean(members.map((member) => byShare[member]?.[equalIndex] ?? 0))),
      calibrated: round(own[best] ?? 0),
    };
    shareFigures[slice] = shares.map((share, index) => ({ share, hybrid: round(own[index] ?? 0) }));
  }
  return { method: "scores", meaningShare, figures, shareFigures, source: options.source.slice(0, 500), measuredAt: (options.now ?? new Date()).toISOString() };
}

const round = (value: number) => Math.round(value * 10_000) / 10_000;

/**
 * The index of the share to use, given a slice's hybrid curve (nDCG@10 at each share): both its
 * curve and the overall one are averaged over `smoothing` neighbouring shares on each side, the
 * slice's is shrunk towards the overall one by priorQuestions, and the best of the shares where
 * the slice's own (unsmoothed) curve is not below its better leg wins (if none is, the best of
 * all); ties go to the share nearest 0.5. −1 for an empty grid. Pure.
 */
export function pickShare(
  shares: readonly number[],
  own: readonly number[],
  options: { overall?: readonly number[]; questions: number; priorQuestions: number; smoothing: number; betterLeg: number },
): number {
  const window = Math.max(0, Math.floor(options.smoothing));
  const smooth = (curve: readonly number[]) =>
    curve.map((_, index) => mean(curve.slice(Math.max(0, index - window), Math.min(curve.length, index + window + 1))));
  const mine = smooth(own);
  const overall = options.overall ? smooth(options.overall) : undefined;
  const n = options.questions;
  const prior = overall ? Math.max(0, options.priorQuestions) : 0;
  const weigh = (index: number) => (prior === 0 ? (mine[index] ?? 0) : ((mine[index] ?? 0) * n + prior * (overall?.[index] ?? 0)) / (n + prior));
  // Hybrid must not fall below the better leg (or, if no share reaches it, the best share).
  const floor = Math.min(options.betterLeg, Math.max(...own));
  let best = -1;
  let bestScore = Number.NEGATIVE_INFINITY;
  shares.forEach((share, index) => {
    if ((own[index] ?? 0) < floor - 1e-12) return;
    const score = weigh(index);
    const closer = best < 0 || Math.abs(share - 0.5) < Math.abs((shares[best] ?? 0.5) - 0.5);
    if (score > bestScore + 1e-12 || (Math.abs(score - bestScore) <= 1e-12 && closer)) {
      best = index;
      bestScore = score;
    }
  });
  return best;
}

/** nDCG@10 of the records one leg's list ranks (the words leg at one b, for chooseLengthNormalisation). */
export function legNdcg(list: { leg: Leg; hits: readonly PassageHit[] }, judged: ReadonlyMap<string, number>): number {
  return ndcgAt(recordRanking(list), judged, cutoff);
}

/** The values of BM25's b the calibration tries: from little length normalisation to full. */
export const lengthGrid: readonly number[] = [0.25, 0.5, 0.75, 1];

export interface LengthQuestion {
  /** The query language detected by the bridge. */
  language: string;
  /** The words leg's nDCG@10 at each b of the grid, in grid order. */
  keyword: readonly number[];
  /** Whether any record is judged relevant (a question without one says nothing). */
  judged: boolean;
}

export interface LengthOptions {
  grid?: readonly number[];
  /** The b a tie goes to, and the one in force without a measurement (the bm25B setting). */
  defaultB: number;
  minQuestionsPerLanguage?: number;
  priorQuestions?: number;
}

/**
 * BM25's length normalisation per query language, chosen like the meaning share: the b whose
 * words leg scored best on the golden questions, a language's curve shrunk towards the overall
 * one, ties to the default. On the full demo, English questions look for long testimonies and
 * essays that short catalogue entries of the same words outrank under full normalisation, while
 * the Spanish and Catalan ones did best with the usual 0.75 — and SciFact's abstracts with more.
 * Pure.
 */
export function chooseLengthNormalisation(
  questions: readonly LengthQuestion[],
  options: LengthOptions,
): Pick<FusionCalibration, "lengthNormalisation" | "lengthFigures"> {
  const grid = options.grid ?? lengthGrid;
  const minimum = options.minQuestionsPerLanguage ?? searchSettings.calibrationMinQuestionsPerLanguage.value;
  const prior = Math.max(0, options.priorQuestions ?? searchSettings.calibrationLengthPriorQuestions.value);
  const judged = questions.filter((question) => question.judged);
  if (judged.length === 0 || grid.length === 0) return {};
  const curveOf = (members: readonly LengthQuestion[]) => grid.map((_, index) => mean(members.map((question) => question.keyword[index] ?? 0)));
  const overall = curveOf(judged);
  const chosen: Partial<Record<FusionSlice, number>> = {};
  const lengthFigures: NonNullable<FusionCalibration["lengthFigures"]> = {};
  for (const slice of ["all", "en", "es", "ca"] as const) {
    const members = slice === "all" ? judged : judged.filter((question) => question.language === slice);
    if (members.length === 0 || (slice !== "all" && members.length < minimum)) continue;
    const own = curveOf(members);
    const n = members.length;
    const weigh = (index: number) =>
      slice === "all" || prior === 0 ? (own[index] ?? 0) : ((own[index] ?? 0) * n + prior * (overall[index] ?? 0)) / (n + prior);
    let best = -1;
    grid.forEach((b, index) => {
      const better = best < 0 || weigh(index) > weigh(best) + 1e-12;
      const tieCloser =
        best >= 0 && Math.abs(weigh(index) - weigh(best)) <= 1e-12 && Math.abs(b - options.defaultB) < Math.abs((grid[best] ?? 0) - options.defaultB);
      if (better || tieCloser) best = index;
    });
    chosen[slice] = grid[best] ?? options.defaultB;
    lengthFigures[slice] = grid.map((b, index) => ({ b, keyword: round(own[index] ?? 0) }));
  }
  return { lengthNormalisation: { all: chosen.all ?? options.defaultB, ...chosen }, lengthFigures };
}

/** The shares of a record's second-best passage the calibration tries (see recordScores). */
export const secondPassageGrid: readonly number[] = [0, 0.25, 0.5, 1];

/** A question's lists with the words leg's second passage at `share` (undefined: as they are). */
function withSecondPassage(question: CalibrationQuestion, share: number | undefined): CalibrationQuestion {
  if (share === undefined) return question;
  return { ...question, lists: question.lists.map((list) => (list.leg === "words" ? { ...list, secondPassage: share } : list)) };
}

/**
 * The mean nDCG@10 of the questions' words legs, a record scored by its best passage plus
 * `share` × its second. What the second passage adds is one value per space, not per language: it
 * is a property of how the space's records are cut into passages: SciFact's abstracts, one
 * argument in one to three passages, want less of it than the archive's testimonies (the shares
 * each benchmark chose are in docs/quality.md).
 */
function wordsNdcgAtShare(questions: readonly CalibrationQuestion[], share: number): number {
  return mean(
    questions.map((question) => {
      const words = question.lists.find((list) => list.leg === "words");
      return words ? ndcgAt(recordRanking({ ...words, secondPassage: share }), question.judged, cutoff) : 0;
    }),
  );
}

/** The index of the best figure, ties to the share nearest the default. */
function bestShare(figures: readonly { share: number; keyword: number }[], defaultShare: number): number {
  let best = -1;
  figures.forEach((point, index) => {
    const current = best < 0 ? undefined : figures[best]!;
    const closer = current !== undefined && Math.abs(point.share - defaultShare) < Math.abs(current.share - defaultShare);
    if (current === undefined || point.keyword > current.keyword + 1e-12 || (Math.abs(point.keyword - current.keyword) <= 1e-12 && closer)) best = index;
  });
  return best;
}

/** A golden question's legs as measured for a calibration: meaning once, words at each b of the grid. */
export interface MeasuredQuestion {
  language: string;
  judged: ReadonlyMap<string, number>;
  /** The legs as hybrid search ran them at the space's current b. */
  lists: CalibrationQuestion["lists"];
  /** The words leg at each b of lengthGrid, in grid order. */
  words: readonly { leg: Leg; hits: readonly PassageHit[] }[];
}

export interface JointOptions extends Omit<CalibrationOptions, "source" | "now"> {
  /** The b a tie goes to, and the one in force without a measurement (the bm25B setting). */
  defaultB: number;
  /** chooseLengthNormalisation's prior (default: the calibrationLengthPriorQuestions setting). */
  lengthPriorQuestions?: number;
  /** Choose b at all (default true); false keeps defaultB for every language. */
  measureLength?: boolean;
  /** What b is chosen by: the words leg alone (default) or hybrid at its measured share. */
  lengthBy?: "words" | "hybrid";
  /** The second passage's share a tie goes to, and the one in force without a measurement (default: the secondPassageShare setting). */
  defaultSecondPassage?: number;
  /** Choose the second passage's share at all (default true); false leaves it unmeasured. */
  measureSecondPassage?: boolean;
}

/** A question's legs with the words leg at the b a calibration gives its language. */
function atLength(question: MeasuredQuestion, length: Pick<FusionCalibration, "lengthNormalisation">): CalibrationQuestion {
  const b = lengthNormalisationFor(length, question.language);
  const index = b === undefined ? -1 : lengthGrid.indexOf(b);
  const words = index >= 0 ? question.words[index] : undefined;
  return {
    language: question.language,
    judged: question.judged,
    lists: words ? [...question.lists.filter((list) => list.leg !== "words"), words] : question.lists,
  };
}

/**
 * The whole calibration of a space from its measured questions: BM25's b per language and the
 * share of a record's second passage together (for each share of secondPassageGrid, b per
 * language by chooseLengthNormalisation at that share; then the share whose words leg ranked
 * best), then the meaning share with each question's words leg at its language's b and that
 * share (calibrateFusion). A function of the questions' measured legs only — not of what an
 * earlier calibration stored on the space — so calibrating twice gives the same result. Pure.
 */
export function calibrateSpace(measured: readonly MeasuredQuestion[], options: JointOptions & { source: string; now?: Date }): FusionCalibration {
  if (options.lengthBy === "hybrid" && options.measureLength !== false) {
    const at = (index: number) => ({ lengthNormalisation: { all: lengthGrid[index]! } });
    const atDefault = measured.map((question) => measuredAtShare(question, options.defaultSecondPassage ?? searchSettings.secondPassageShare.value));
    const perB = lengthGrid.map((_, index) =>
      calibrateFusion(
        atDefault.map((question) => atLength(question, at(index))),
        options,
      ),
    );
    const result: FusionCalibration = {
      ...perB[0]!,
      meaningShare: { all: 0.5 },
      figures: {},
      shareFigures: {},
      lengthNormalisation: { all: options.defaultB },
    };
    for (const slice of ["all", "en", "es", "ca"] as const) {
      let best = -1;
      perB.forEach((calibration, index) => {
        const figure = calibration.figures[slice]?.calibrated;
        if (figure === undefined) return;
        const current = best < 0 ? undefined : perB[best]!.figures[slice]!.calibrated;
        const closer = best >= 0 && Math.abs(lengthGrid[index]! - options.defaultB) < Math.abs(lengthGrid[best]! - options.defaultB);
        if (current === undefined || figure > current + 1e-12 || (Math.abs(figure - current) <= 1e-12 && closer)) best = index;
      });
      if (best < 0) continue;
      const chosen = perB[best]!;
      result.meaningShare[slice] = chosen.meaningShare[slice]!;
      result.figures[slice] = chosen.figures[slice]!;
      result.shareFigures![slice] = chosen.shareFigures![slice]!;
      result.lengthNormalisation![slice] = lengthGrid[best]!;
    }
    return result;
  }
  // b and the second passage's share are chosen together: for each share, b per language at
  // that share, then the share whose words leg ranked best at its b. Every words list is set to
  // the share it is measured at, never left at the one stored on the space by the calibration
  // before: choosing b at the previous share made each calibration depend on the last one (the
  // archive's dev half gave b 0.75 and share 1 after one run, b 0.25 and share 0.5 after another).
  const defaultShare = options.defaultSecondPassage ?? searchSettings.secondPassageShare.value;
  const shares = options.measureSecondPassage === false ? [defaultShare] : secondPassageGrid;
  const judged = (questions: readonly CalibrationQuestion[]) => questions.filter((question) => [...question.judged.values()].some((grade) => grade > 0));
  const candidates = shares.map((share) => {
    const atShare = measured.map((question) => measuredAtShare(question, share));
    const length =
      options.measureLength === false
        ? { lengthNormalisation: { all: options.defaultB } }
        : chooseLengthNormalisation(
            atShare.map((question) => ({
              language: question.language,
              keyword: question.words.map((list) => legNdcg(list, question.judged)),
              judged: [...question.judged.values()].some((grade) => grade > 0),
            })),
            { defaultB: options.defaultB, priorQuestions: options.lengthPriorQuestions, minQuestionsPerLanguage: options.minQuestionsPerLanguage },
          );
    const atB = atShare.map((question) => atLength(question, length));
    return { share, length, atB, keyword: wordsNdcgAtShare(judged(atB), share) };
  });
  const chosen = candidates[Math.max(0, bestShare(candidates, defaultShare))]!;
  const second: Pick<FusionCalibration, "secondPassage" | "secondPassageFigures"> =
    options.measureSecondPassage === false || judged(chosen.atB).length === 0
      ? {}
      : { secondPassage: chosen.share, secondPassageFigures: candidates.map((point) => ({ share: point.share, keyword: round(point.keyword) })) };
  return { ...calibrateFusion(chosen.atB, options), ...chosen.length, ...second };
}

/** A measured question with its words legs (as searched and at each b) set to `share`. */
function measuredAtShare(question: MeasuredQuestion, share: number): MeasuredQuestion {
  const set = <T extends { leg: Leg }>(list: T): T => (list.leg === "words" ? { ...list, secondPassage: share } : list);
  return { ...question, lists: question.lists.map(set), words: question.words.map(set) };
}

/**
 * Leave-one-out estimate of calibrateSpace with these options: each question is ranked at the b
 * and share calibrated on all the others. Pure.
 */
export function crossValidateSpace(
  measured: readonly MeasuredQuestion[],
  options: JointOptions,
): { all: number; byLanguage: Record<string, { queries: number; ndcg: number }>; scores: number[] } {
  const judged = measured.filter((question) => [...question.judged.values()].some((grade) => grade > 0));
  const scores = judged.map((question, index) => {
    const calibration = calibrateSpace(
      judged.filter((_, other) => other !== index),
      { ...options, source: "leave-one-out" },
    );
    const lists = withSecondPassage(atLength(question, calibration), calibration.secondPassage).lists;
    return ndcgOf(
      question,
      fuseRecords(lists, fusionWeights(calibration, question.language)).map((item) => item.id),
    );
  });
  const byLanguage: Record<string, { queries: number; ndcg: number }> = {};
  judged.forEach((question, index) => {
    const entry = (byLanguage[question.language] ??= { queries: 0, ndcg: 0 });
    entry.queries += 1;
    entry.ndcg += scores[index] ?? 0;
  });
  for (const entry of Object.values(byLanguage)) entry.ndcg = round(entry.ndcg / entry.queries);
  return { all: round(mean(scores)), byLanguage, scores };
}
