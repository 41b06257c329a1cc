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
