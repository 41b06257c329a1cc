/**
 * Ranking metrics with BEIR / trec_eval conventions: linear gain, log2 discount, relevant =
 * score > 0. Used by `npm run eval:retrieval` and by golden-set runs in the app. Pure.
 */
export function ndcgAt(ranked: readonly string[], judged: ReadonlyMap<string, number>, k: number): number {
  const dcg = ranked.slice(0, k).reduce((sum, id, index) => sum + Math.max(0, judged.get(id) ?? 0) / Math.log2(index + 2), 0);
  const ideal = [...judged.values()]
    .filter((score) => score > 0)
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((sum, score, index) => sum + score / Math.log2(index + 2), 0);
  return ideal > 0 ? dcg / ideal : 0;
}

export function recallAt(ranked: readonly string[], judged: ReadonlyMap<string, number>, k: number): number {
  const relevant = [...judged].filter(([, score]) => score > 0).length;
  if (relevant === 0) return 0;
  return ranked.slice(0, k).filter((id) => (judged.get(id) ?? 0) > 0).length / relevant;
}

export function mrrAt(ranked: readonly string[], judged: ReadonlyMap<string, number>, k: number): number {
  const index = ranked.slice(0, k).findIndex((id) => (judged.get(id) ?? 0) > 0);
  return index < 0 ? 0 : 1 / (index + 1);
}

export interface AlignedRecall {
  /** Share of queries whose first result is an accepted one. */
  recall1: number;
  /** The same over the queries of even and of odd positions (0-based). */
  even: number;
  odd: number;
  hits: number;
  queries: number;
}

/**
 * recall@1 of aligned queries (a bitext such as Tatoeba): query i is answered when the first id
 * of `rankings[i]` is in `accepted[i]` (its aligned item, and any item identical to it, which no
 * ranking can tell apart). An empty ranking is a miss. Also split by the parity of i.
 */
export function alignedRecallAt1(rankings: readonly (readonly string[])[], accepted: readonly ReadonlySet<string>[]): AlignedRecall {
  if (rankings.length !== accepted.length) throw new Error(`${rankings.length} rankings for ${accepted.length} aligned queries`);
  const tally = { all: { hits: 0, total: 0 }, even: { hits: 0, total: 0 }, odd: { hits: 0, total: 0 } };
  rankings.forEach((ranked, index) => {
    const first = ranked[0];
    const hit = first !== undefined && (accepted[index]?.has(first) ?? false);
    for (const part of [tally.all, index % 2 === 0 ? tally.even : tally.odd]) {
      if (hit) part.hits++;
      part.total++;
    }
  });
  const share = (part: { hits: number; total: number }) => (part.total > 0 ? part.hits / part.total : 0);
  return { recall1: share(tally.all), even: share(tally.even), odd: share(tally.odd), hits: tally.all.hits, queries: rankings.length };
}
