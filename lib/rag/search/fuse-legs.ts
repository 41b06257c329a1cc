import { searchSettings } from "../config/settings";
import type { FusionCalibration, FusionSlice } from "../index/index-spaces";
import type { FusedItem } from "./reciprocal-rank-fusion";
import type { PassageHit } from "./retrieve-passages";
import { type ScoredList, scoreFusion } from "./score-fusion";

/**
 * Fusion of the two legs of hybrid search, pure: records ranked by one leg's passages, the legs'
 * scores fused at the space's measured weights, and the BM25 b measured for the query's language.
 */
export type Leg = "meaning" | "words";

/** One leg's passages; a words list may carry the share of a record's second passage (recordScores). */
export interface LegList {
  leg: Leg;
  hits: PassageHit[];
  secondPassage?: number;
}

/**
 * Records best first by one leg: by meaning, a record's closest passage; by words, its best
 * passage's score plus its next best's (up to passagesPerRecordByWords) at a share
 * (`secondPassage`, else the secondPassageShare setting) — a document's evidence rather than one
 * fragment's, without letting a long document win by having forty passages that each share a
 * common word. docs/quality.md has the share each benchmark chose.
 */
export function recordRanking(list: { leg: Leg; hits: readonly PassageHit[]; secondPassage?: number }): string[] {
  return recordScores(list).map((entry) => entry.id);
}

/** recordRanking's records with their scores, best first. */
export function recordScores(list: { leg: Leg; hits: readonly PassageHit[]; secondPassage?: number }): { id: string; score: number }[] {
  const scores = new Map<string, number[]>();
  for (const hit of list.hits) {
    const kept = scores.get(hit.recordId) ?? [];
    kept.push(hit.score);
    scores.set(hit.recordId, kept);
  }
  const second = list.leg === "words" ? (list.secondPassage ?? searchSettings.secondPassageShare.value) : 0;
  const score = (values: number[]) =>
    list.leg === "words"
      ? values
          .sort((a, b) => b - a)
          .slice(0, searchSettings.passagesPerRecordByWords.value)
          .reduce((sum, value, at) => sum + (at === 0 ? value : second * value), 0)
      : Math.max(...values);
  // Ties keep the order of each record's first passage in the leg (a stable sort over the map's
  // first-appearance order), which the leg gives by content; never by record id (see
  // reciprocal-rank-fusion.ts).
  return [...scores.entries()]
    .map(([id, values]) => [id, score(values)] as const)
    .sort((a, b) => b[1] - a[1])
    .map(([id, score]) => ({ id, score }));
}

/** Leg weights of a fusion; a leg not named weighs 1. */
export type LegWeights = Partial<Record<Leg, number>>;

/**
 * A leg's score for an item it did not list (see score-fusion.ts): every passage has a cosine, at
 * most the lowest listed; a passage the words leg did not list mostly shares no rare word.
 */
const unlisted: Record<Leg, ScoredList["unlisted"]> = { meaning: "lowest", words: "zero" };

/** Score fusion of the legs' record scores (collapse "record"). */
export function fuseRecords(lists: readonly { leg: Leg; hits: readonly PassageHit[]; secondPassage?: number }[], weights: LegWeights = {}): FusedItem[] {
  return scoreFusion(lists.map((list) => ({ leg: list.leg, items: recordScores(list), weight: weights[list.leg] ?? 1, unlisted: unlisted[list.leg] })));
}

/** Score fusion of the legs' passages (collapse "passage", and each record's best passage). */
export function fusePassages(lists: readonly { leg: Leg; hits: readonly PassageHit[] }[], weights: LegWeights = {}): FusedItem[] {
  return scoreFusion(
    lists.map((list) => ({
      leg: list.leg,
      items: list.hits.map((hit) => ({ id: hit.chunkId, score: hit.score })),
      weight: weights[list.leg] ?? 1,
      unlisted: unlisted[list.leg],
    })),
  );
}

/**
 * The weights hybrid search gives its legs for a query in `language`: the space's measured
 * meaning share for that language, else its overall share, else unmeasuredMeaningShare (equal
 * weights). The weights sum to 1: meaning gets the share, words the rest.
 */
export function fusionWeights(fusion: FusionCalibration | null | undefined, language: string | null): Required<LegWeights> {
  const share =
    (fusion && language && language in fusion.meaningShare ? fusion.meaningShare[language as FusionSlice] : undefined) ??
    fusion?.meaningShare.all ??
    searchSettings.unmeasuredMeaningShare.value;
  return { meaning: share, words: 1 - share };
}

/**
 * BM25's length normalisation for a query in `language`: the space's measured b for that
 * language, else its overall one, else undefined (the bm25B setting).
 */
export function lengthNormalisationFor(fusion: Pick<FusionCalibration, "lengthNormalisation"> | null | undefined, language: string | null): number | undefined {
  const measured = fusion?.lengthNormalisation;
  if (!measured) return undefined;
  return (language && language in measured ? measured[language as FusionSlice] : undefined) ?? measured.all;
}
