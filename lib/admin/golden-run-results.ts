import { z } from "zod";
import { mrrAt, ndcgAt, recallAt } from "../rag/search/retrieval-metrics";

/**
 * What a golden run stores and how it is shown. A run is made with the runner's access but may be
 * shown to someone who reads less (an admin's run of a curator's set), or read again after a
 * record moved. So a run stores record ids only — never titles — and every showing resolves it
 * under the viewer's access: records the viewer cannot read are taken out before ranks and figures
 * are computed, and a question only says that it expects a record the viewer cannot read, never
 * which or how many. Pure.
 */
export const goldenK = 10;

const storedQuestionSchema = z.object({
  question: z.string(),
  /** The expected records the runner could read: the ones this run measured. */
  judged: z.array(z.string()),
  /** The runner's top goldenK records, best first. */
  ranked: z.array(z.string()).max(goldenK),
});
export const storedRunResultsSchema = z.array(storedQuestionSchema);
export type StoredRunResults = z.infer<typeof storedRunResultsSchema>;

export interface GoldenMetrics {
  /** Questions with at least one measured record the viewer can read. */
  questions: number;
  recallAtK: number;
  ndcg10: number;
  mrr10: number;
}

export interface GoldenQuestionResult {
  question: string;
  /** null when the viewer can read none of the records the question was measured on. */
  recall: number | null;
  ndcg: number | null;
  reciprocalRank: number | null;
  /** Rank among the records the viewer can read. */
  found: { recordId: string; title: string; rank: number }[];
  missed: { recordId: string; title: string }[];
  /** The run measured a record the viewer cannot read (how many is not said). */
  unreadableExpected: boolean;
}

/** Every record id a stored run mentions, to look up which the viewer may read. */
export function storedRunRecordIds(results: StoredRunResults): string[] {
  return [...new Set(results.flatMap((question) => [...question.judged, ...question.ranked]))];
}

/**
 * A stored run as the viewer may see it. `readable` holds the titles of the records the viewer
 * can read (the lookup is the caller's, scoped by lib/acl); nothing outside it is named, linked,
 * ranked or counted.
 */
export function resolveRunForViewer(
  results: StoredRunResults,
  readable: ReadonlyMap<string, string>,
): { metrics: GoldenMetrics; results: GoldenQuestionResult[] } {
  const resolved = results.map((stored): GoldenQuestionResult => {
    const judged = stored.judged.filter((id) => readable.has(id));
    const ranked = stored.ranked.filter((id) => readable.has(id));
    const unreadableExpected = judged.length < stored.judged.length;
    if (judged.length === 0) return { question: stored.question, recall: null, ndcg: null, reciprocalRank: null, found: [], missed: [], unreadableExpected };
    const relevance = new Map(judged.map((id) => [id, 1]));
    const title = (id: string) => readable.get(id) ?? "";
    return {
      question: stored.question,
      recall: recallAt(ranked, relevance, goldenK),
      ndcg: ndcgAt(ranked, relevance, 10),
      reciprocalRank: mrrAt(ranked, relevance, 10),
      found: ranked.flatMap((id, index) => (relevance.has(id) ? [{ recordId: id, title: title(id), rank: index + 1 }] : [])),
      missed: judged.filter((id) => !ranked.includes(id)).map((id) => ({ recordId: id, title: title(id) })),
      unreadableExpected,
    };
  });
  const measured = resolved.filter((result) => result.recall !== null);
  const mean = (pick: (result: GoldenQuestionResult) => number | null) =>
    measured.length ? measured.reduce((sum, result) => sum + (pick(result) ?? 0), 0) / measured.length : 0;
  return {
    metrics: {
      questions: measured.length,
      recallAtK: mean((result) => result.recall),
      ndcg10: mean((result) => result.ndcg),
      mrr10: mean((result) => result.reciprocalRank),
    },
    results: resolved,
  };
}
