import "server-only";
import { type Principal, actorIdOf, assertAdmin, projectScopeSql } from "../acl";
import { isUuid } from "../ids";
import type { SqlExecutor } from "../db/sql-executor";
import { AppError, notFound, parseInput } from "../errors";
import { type AskThresholdOverrides, askThresholdsSchema, saveAskThresholds } from "../rag/ask/ask-settings";
import { type SearchContext, searchArchive } from "../rag/search/search-archive";

/**
 * Reading the Q&A refusal threshold off the data instead of guessing it: for a golden set's
 * questions, the similarity of every retrieved passage, split into relevant (from an expected
 * record) and irrelevant, as two histograms; for each candidate threshold, how much of each
 * would pass. Admins then set the thresholds (stored by lib/rag/ask/ask-settings.ts), which
 * override answerSettings' defaults from the next question.
 */
export async function setAskThresholds(sql: SqlExecutor, principal: Principal, input: unknown): Promise<AskThresholdOverrides> {
  assertAdmin(principal);
  const thresholds = parseInput(askThresholdsSchema, input);
  const actor = actorIdOf(principal);
  await saveAskThresholds(sql, thresholds, actor);
  return thresholds;
}

export interface ScoreDistribution {
  questions: number;
  /** Lower edges of the bins, 0.05 wide, from -0.2 to 0.95. */
  bins: number[];
  relevant: number[];
  irrelevant: number[];
  /** For each candidate threshold: the share of relevant and of irrelevant passages at or above it. */
  thresholds: { at: number; relevantKept: number; irrelevantKept: number }[];
  /** The threshold that keeps the most relevant while letting through the fewest irrelevant (Youden's J). */
  suggested: number | null;
  unreadableExpected: number;
}

export const binWidth = 0.05;
const binStart = -0.2;
const binCount = 24;

/** Histograms and the suggestion, from labelled similarities. Pure. */
export function distributionOf(scores: readonly { similarity: number; relevant: boolean }[]): Omit<ScoreDistribution, "questions" | "unreadableExpected"> {
  const bins = Array.from({ length: binCount }, (_, index) => Math.round((binStart + index * binWidth) * 100) / 100);
  const relevant = new Array<number>(binCount).fill(0);
  const irrelevant = new Array<number>(binCount).fill(0);
  for (const score of scores) {
    const index = Math.max(0, Math.min(binCount - 1, Math.floor((score.similarity - binStart) / binWidth + 1e-9)));
    (score.relevant ? relevant : irrelevant)[index]! += 1;
  }
  const relevantTotal = scores.filter((score) => score.relevant).length;
  const irrelevantTotal = scores.length - relevantTotal;
  const thresholds = bins
    .filter((at) => at >= 0)
    .map((at) => ({
      at,
      relevantKept: relevantTotal ? scores.filter((score) => score.relevant && score.similarity >= at).length / relevantTotal : 0,
      irrelevantKept: irrelevantTotal ? scores.filter((score) => !score.relevant && score.similarity >= at).length / irrelevantTotal : 0,
    }));
  let suggested: number | null = null;
  let best = -Infinity;
  if (relevantTotal && irrelevantTotal) {
    for (const threshold of thresholds) {
      const j = threshold.relevantKept - threshold.irrelevantKept;
      if (j > best + 1e-12) {
        best = j;
        suggested = threshold.at;
      }
    }
  }
  return { bins, relevant, irrelevant, thresholds, suggested };
}

export async function scoreDistribution(
  search: SearchContext,
  principal: Principal,
  input: { goldenSetId: string; depth?: number },
): Promise<ScoreDistribution> {
  assertAdmin(principal);
  if (!isUuid(input.goldenSetId)) throw notFound();
  const [set] = await search.sql.query<{ questions: { question: string; expected: string[] }[]; section_id: string | null }>(
    `SELECT questions, section_id FROM golden_sets WHERE id = $1`,
    [input.goldenSetId],
  );
  if (!set) throw notFound();
  if (!search.space) throw new AppError("unavailable", "There is no active index space yet.");
  const all = [...new Set(set.questions.flatMap((question) => question.expected))];
  const params: unknown[] = [all];
  const readable = new Set(
    (
      await search.sql.query<{ id: string }>(
        `SELECT id FROM records WHERE id = ANY($1::text[]) AND ${projectScopeSql(principal, "project_id", params)}`,
        params,
      )
    ).map((row) => row.id),
  );
  const scores: { similarity: number; relevant: boolean }[] = [];
  let questions = 0;
  for (const question of set.questions) {
    const expected = new Set(question.expected.filter((id) => readable.has(id)));
    if (expected.size === 0) continue;
    questions++;
    const found = await searchArchive(search, principal, {
      query: question.question,
      mode: "semantic",
      limit: Math.max(5, Math.min(50, input.depth ?? 30)),
      collapse: "passage",
      sectionIds: set.section_id ? [set.section_id] : undefined,
    });
    for (const hit of found.hits) if (hit.similarity !== null) scores.push({ similarity: hit.similarity, relevant: expected.has(hit.recordId) });
  }
  return { questions, unreadableExpected: all.length - readable.size, ...distributionOf(scores) };
}
