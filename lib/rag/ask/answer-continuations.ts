import "server-only";
import { type Principal, canReadPassage } from "../../acl";
import type { SqlExecutor } from "../../db/sql-executor";
import { sourceSentences } from "./answer-sentences";
import type { IndexSpace } from "../index/index-spaces";
import { snippet } from "../search/highlight";
import { type SearchHit, passageDetails, searchHitOf } from "../search/search-archive";

/**
 * A transcript is cut into passages between turns, so the interviewer's question can end one
 * passage and the narrator's answer open the next. For each transcript passage that ends on the
 * interviewer's turn, the next passage of the same record and group (read with the principal's
 * access, like any search hit), so the answer can be given right after its question.
 */
export async function answerContinuations(
  sql: SqlExecutor,
  principal: Principal,
  space: IndexSpace | null,
  hits: readonly SearchHit[],
  interviewers: ReadonlyMap<string, string[]>,
): Promise<Map<string, SearchHit>> {
  const continued = new Map<string, SearchHit>();
  const endingOnQuestion = hits.filter((hit) => {
    if (hit.passage.timeStart === null || !interviewers.has(hit.recordId)) return false;
    const sentences = sourceSentences({
      number: 1,
      title: hit.recordTitle,
      text: hit.passage.text,
      form: "transcript",
      interviewers: interviewers.get(hit.recordId),
    });
    return sentences.at(-1)?.role === "interviewer";
  });
  if (!space || endingOnQuestion.length === 0) return continued;
  const next = await sql.query<{ from_id: string; id: string }>(
    `SELECT c.id AS from_id, n.id
       FROM chunks c
       JOIN chunks n ON n.record_id = c.record_id AND n.embed_group_id = c.embed_group_id AND n.index_space_id = c.index_space_id AND n.ordinal = c.ordinal + 1
      WHERE c.id = ANY($1::text[]) AND c.index_space_id = $2`,
    [endingOnQuestion.map((hit) => hit.passage.chunkId), space.id],
  );
  const details = await passageDetails(
    sql,
    principal,
    space.id,
    next.map((row) => row.id),
  );
  for (const { from_id: fromId, id } of next) {
    const row = details.get(id);
    const from = hits.find((hit) => hit.passage.chunkId === fromId);
    if (!row || !from || !canReadPassage(principal, { projectId: row.project_id, contributingProjectIds: row.contributing_project_ids })) continue;
    continued.set(fromId, searchHitOf(row, { snippet: snippet(row.text, []), score: 0, legs: [], similarity: null }));
  }
  return continued;
}

/**
 * The passages to give, in order, each passage that ends on the interviewer's question followed by
 * the one that answers it, and which passage continues which (by chunk id). The answer keeps that
 * link also when it was retrieved on its own: a narrator's "In 1978, when the nets began to come
 * mended from the factory." says nothing of why she stopped until it is read after "Why did you
 * stop?" — it is moved up to follow its question when it came later, linked where it is when it
 * came earlier. A continuation that itself ends on a question brings its own answer after it (a
 * chain of passages, each answering the question the one before ends on).
 */
export function withContinuations<T extends { passage: { chunkId: string } }>(
  relevant: readonly T[],
  continuations: ReadonlyMap<string, T>,
): { ordered: T[]; continues: Map<string, string> } {
  const continues = new Map<string, string>();
  const placed = new Set<string>();
  const ordered: T[] = [];
  const byId = new Map(relevant.map((hit) => [hit.passage.chunkId, hit]));
  for (const hit of relevant) {
    if (placed.has(hit.passage.chunkId)) continue;
    ordered.push(hit);
    placed.add(hit.passage.chunkId);
    // Follow the chain: the passage just placed may end on a question the next one answers.
    let current = hit;
    for (;;) {
      const next = continuations.get(current.passage.chunkId);
      if (!next || continues.has(next.passage.chunkId) || next.passage.chunkId === current.passage.chunkId) break;
      continues.set(next.passage.chunkId, current.passage.chunkId);
      if (placed.has(next.passage.chunkId)) break;
      current = byId.get(next.passage.chunkId) ?? next;
      ordered.push(current);
      placed.add(current.passage.chunkId);
    }
  }
  return { ordered, continues };
}
