import type { FusedItem } from "./reciprocal-rank-fusion";

/**
 * Score fusion: each leg's scores are divided by the leg's best score of the query (1 = the
 * leg's first item), weighted and summed. Unlike reciprocal ranks it keeps how far apart a
 * leg's items are: a record the meaning leg finds about as close as its best one gains about as
 * much as the best one, where RRF gave it only its rank. Pure.
 *
 * An item a leg did not list still has a score in that leg: for meaning, every passage has a
 * cosine and one the leg left out is at most its lowest listed one, so it gets that; for words,
 * a passage outside the list mostly shares no rare word with the query, so it gets 0.
 */
export interface ScoredList {
  leg: string;
  /** The leg's items with their scores (cosine, BM25, …); an id counts once, at its best score. */
  items: readonly { id: string; score: number }[];
  /** Multiplies the leg's scaled scores (default 1). */
  weight?: number;
  /** What an item the leg did not list scores: the lowest listed score, or zero. */
  unlisted: "lowest" | "zero";
}

export function scoreFusion(lists: readonly ScoredList[]): FusedItem[] {
  const legs = lists.map((list) => {
    const best = new Map<string, number>();
    for (const item of list.items) best.set(item.id, Math.max(best.get(item.id) ?? Number.NEGATIVE_INFINITY, item.score));
    const scores = [...best.values()];
    const top = scores.length ? Math.max(...scores) : 0;
    // Scores at or below zero carry no evidence (a leg whose best is not positive adds nothing).
    const scale = (score: number) => (top > 0 ? Math.max(0, score) / top : 0);
    // Equal scores keep the leg's order (a stable sort over first appearance): the legs order ties
    // by content, and ids are random per index build, so they never decide (reciprocal-rank-fusion.ts).
    const ranks = new Map([...best].sort((a, b) => b[1] - a[1]).map(([id], index) => [id, index + 1]));
    return { list, best, ranks, scale, floor: list.unlisted === "lowest" && scores.length ? scale(Math.min(...scores)) : 0 };
  });
  const fused = new Map<string, FusedItem>();
  for (const { list, ranks } of legs) {
    for (const [id, rank] of ranks) {
      const item = fused.get(id) ?? { id, score: 0, ranks: {} };
      item.ranks[list.leg] = rank;
      fused.set(id, item);
    }
  }
  for (const item of fused.values()) {
    item.score = legs.reduce((sum, { list, best, scale, floor }) => {
      const score = best.get(item.id);
      return sum + (list.weight ?? 1) * (score === undefined ? floor : scale(score));
    }, 0);
  }
  // Ties as reciprocal-rank fusion breaks them: more legs first, then the best single rank, then
  // the order the legs gave (stable sort), never the id.
  return [...fused.values()].sort(
    (a, b) =>
      b.score - a.score ||
      Object.keys(b.ranks).length - Object.keys(a.ranks).length ||
      Math.min(...Object.values(a.ranks)) - Math.min(...Object.values(b.ranks)),
  );
}
