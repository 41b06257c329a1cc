import { searchSettings } from "../config/settings";

/**
 * Reciprocal-rank fusion: each list contributes 1 / (k + rank) to an item's score, so items
 * found by several legs (meaning and words) rise above items found by one, without comparing
 * the legs' incomparable raw scores. Pure.
 */
export interface RankedList {
  leg: string;
  ids: readonly string[];
  /** Multiplies the leg's contributions (default 1). */
  weight?: number;
}

export interface FusedItem {
  id: string;
  score: number;
  /** 1-based rank in each leg that found the item. */
  ranks: Record<string, number>;
}

export const defaultRrfK: number = searchSettings.rrfK.value;

export function reciprocalRankFusion(lists: readonly RankedList[], k = defaultRrfK): FusedItem[] {
  if (!Number.isFinite(k) || k < 0) throw new RangeError(`k must be a non-negative number, got ${k}`);
  const fused = new Map<string, FusedItem>();
  for (const list of lists) {
    const seen = new Set<string>();
    for (const id of list.ids) {
      if (seen.has(id)) continue; // a leg counts an item once, at its best rank
      seen.add(id);
      const rank = seen.size;
      const item = fused.get(id) ?? { id, score: 0, ranks: {} };
      item.score += (list.weight ?? 1) / (k + rank);
      item.ranks[list.leg] = rank;
      fused.set(id, item);
    }
  }
  // Ties: more legs first, then the best single rank, then the order the lists gave (the sort is
  // stable and the map keeps first appearance: the first list's items before the next's). Never
  // the id: ids are generated at random when an archive is indexed, so two builds of the same
  // content would rank its ties differently (the legs break their own ties by content).
  return [...fused.values()].sort(
    (a, b) =>
      b.score - a.score ||
      Object.keys(b.ranks).length - Object.keys(a.ranks).length ||
      Math.min(...Object.values(a.ranks)) - Math.min(...Object.values(b.ranks)),
  );
}
