import "server-only";
import { z } from "zod";
import { type Principal, canCreateRecords, isAdmin, projectScopeSql, projectScopeWhere } from "../acl";
import { isUuid } from "../archive/validate-record-values";
import type { Prisma, PrismaClient } from "../db/generated/client";
import { AppError, notFound } from "../errors";
import { maxQueryLength } from "../query-length";
import { mrrAt, ndcgAt, recallAt } from "../rag/search/retrieval-metrics";
import { type SearchContext, searchArchive, searchModes } from "../rag/search/search-archive";

/**
 * Golden sets: questions with the records that answer them, per collection, kept by admins and
 * curators, and run against the active index space for recall@k, nDCG@10 and MRR with the misses
 * listed. A run searches with the runner's own access, and an expected record the runner may
 * not read is left out of the figures and never named, so a set cannot reveal a record.
 * Researchers: not found.
 */
export const goldenK = 10;

const questionSchema = z.object({
  question: z.string().trim().min(1, "Write the question.").max(maxQueryLength, `A question can be at most ${maxQueryLength} characters.`),
  expected: z.array(z.string().refine(isUuid, "Expected records are record ids.")).min(1, "Choose at least one record that answers it.").max(50),
});

export const goldenSetSchema = z.object({
  name: z.string().trim().min(1, "Give the set a name.").max(120, "At most 120 characters."),
  sectionSlug: z.string().max(64).optional(),
  questions: z.array(questionSchema).max(500, "At most 500 questions in a set."),
});
export type GoldenSetInput = z.input<typeof goldenSetSchema>;

export interface GoldenMetrics {
  questions: number;
  recallAtK: number;
  ndcg10: number;
  mrr10: number;
  /** Expected records left out because the runner cannot read them. */
  unreadableExpected: number;
}

export interface GoldenQuestionResult {
  question: string;
  recall: number;
  ndcg: number;
  reciprocalRank: number;
  found: { recordId: string; title: string; rank: number }[];
  missed: { recordId: string; title: string }[];
}

function assertKeeper(principal: Principal): void {
  if (!isAdmin(principal) && !canCreateRecords(principal)) throw notFound();
}

function invalid(error: z.ZodError): AppError {
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of error.issues) (fieldErrors[issue.path.join(".") || "_form"] ??= []).push(issue.message);
  return new AppError("bad_request", `The golden set is not valid: ${error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ")}`, { fieldErrors });
}

export async function listGoldenSets(prisma: PrismaClient, principal: Principal) {
  assertKeeper(principal);
  const sets = await prisma.goldenSet.findMany({
    orderBy: { updatedAt: "desc" },
    include: { section: { select: { name: true, slug: true } }, runs: { orderBy: { createdAt: "desc" }, take: 1 } },
  });
  return sets.map((set) => ({
    id: set.id,
    name: set.name,
    section: set.section,
    questions: (set.questions as { question: string; expected: string[] }[]).length,
    lastRun: set.runs[0] ? { at: set.runs[0].createdAt, mode: set.runs[0].mode, metrics: set.runs[0].metrics as unknown as GoldenMetrics } : null,
  }));
}

export async function getGoldenSet(prisma: PrismaClient, principal: Principal, id: string) {
  assertKeeper(principal);
  if (!isUuid(id)) throw notFound();
  const set = await prisma.goldenSet.findUnique({ where: { id }, include: { section: { select: { name: true, slug: true } }, runs: { orderBy: { createdAt: "desc" }, take: 10 } } });
  if (!set) throw notFound();
  // Titles of expected records, for the editor: only those the principal may read.
  const questions = set.questions as { question: string; expected: string[] }[];
  const ids = [...new Set(questions.flatMap((question) => question.expected))];
  const readable = await prisma.record.findMany({
    where: { id: { in: ids }, ...projectScopeWhere(principal) },
    select: { id: true, title: true },
  });
  const titles = new Map(readable.map((record) => [record.id, record.title]));
  return {
    id: set.id,
    name: set.name,
    section: set.section,
    questions: questions.map((question) => ({
      question: question.question,
      expected: question.expected.filter((recordId) => titles.has(recordId)).map((recordId) => ({ recordId, title: titles.get(recordId) ?? "" })),
      hiddenExpected: question.expected.filter((recordId) => !titles.has(recordId)).length,
    })),
    runs: set.runs.map((run) => ({ id: run.id, at: run.createdAt, mode: run.mode, metrics: run.metrics as unknown as GoldenMetrics, results: run.results as unknown as GoldenQuestionResult[] })),
  };
}

/** Creates (no id) or replaces a set; expected records must exist and be readable by the keeper. */
export async function saveGoldenSet(prisma: PrismaClient, principal: Principal, input: { id?: string; set: unknown }): Promise<{ id: string }> {
  assertKeeper(principal);
  const parsed = goldenSetSchema.safeParse(input.set);
  if (!parsed.success) throw invalid(parsed.error);
  const data = parsed.data;
  let sectionId: string | null = null;
  if (data.sectionSlug) {
    const section = await prisma.section.findUnique({ where: { slug: data.sectionSlug }, select: { id: true } });
    if (!section) throw new AppError("bad_request", "Choose a collection that exists.", { fieldErrors: { sectionSlug: ["Choose a collection that exists."] } });
    sectionId = section.id;
  }
  const ids = [...new Set(data.questions.flatMap((question) => question.expected))];
  const readable = new Set(
    (await prisma.record.findMany({ where: { id: { in: ids }, ...projectScopeWhere(principal) }, select: { id: true } })).map((row) => row.id),
  );
  const fieldErrors: Record<string, string[]> = {};
  data.questions.forEach((question, index) => {
    if (question.expected.some((id) => !readable.has(id))) fieldErrors[`questions.${index}.expected`] = ["An expected record does not exist."];
  });
  if (Object.keys(fieldErrors).length) throw new AppError("bad_request", "Some expected records do not exist.", { fieldErrors });

  const existing = input.id ? await prisma.goldenSet.findUnique({ where: { id: isUuid(input.id) ? input.id : "" } }) : null;
  if (input.id && !existing) throw notFound();
  // Expected records the keeper cannot see, kept by someone who could, stay in the set.
  let questions: { question: string; expected: string[] }[] = data.questions;
  if (existing) {
    const before = existing.questions as { question: string; expected: string[] }[];
    const visible = new Set(
      (await prisma.record.findMany({ where: { id: { in: before.flatMap((question) => question.expected) }, ...projectScopeWhere(principal) }, select: { id: true } })).map((row) => row.id),
    );
    questions = data.questions.map((question) => {
      const earlier = before.find((candidate) => candidate.question === question.question);
      const hidden = earlier?.expected.filter((id) => !visible.has(id)) ?? [];
      return { question: question.question, expected: [...new Set([...question.expected, ...hidden])] };
    });
  }
  const saved = existing
    ? await prisma.goldenSet.update({ where: { id: existing.id }, data: { name: data.name, sectionId, questions: questions as unknown as Prisma.InputJsonValue } })
    : await prisma.goldenSet.create({ data: { name: data.name, sectionId, questions: questions as unknown as Prisma.InputJsonValue, createdById: principal.userId === "system" ? null : principal.userId } });
  await prisma.auditEvent.create({
    data: { actorId: principal.userId === "system" ? null : principal.userId, action: existing ? "golden-set.update" : "golden-set.create", targetType: "golden_set", targetId: saved.id, details: { name: data.name, questions: questions.length } },
  });
  return { id: saved.id };
}

export async function deleteGoldenSet(prisma: PrismaClient, principal: Principal, id: string): Promise<void> {
  assertKeeper(principal);
  if (!isUuid(id)) throw notFound();
  const deleted = await prisma.goldenSet.deleteMany({ where: { id } });
  if (deleted.count === 0) throw notFound();
  await prisma.auditEvent.create({ data: { actorId: principal.userId === "system" ? null : principal.userId, action: "golden-set.delete", targetType: "golden_set", targetId: id, details: {} } });
}

/** Runs a set against the search context's space with the runner's access; stores the run. */
export async function runGoldenSet(
  prisma: PrismaClient,
  search: SearchContext,
  principal: Principal,
  input: { id: string; mode?: unknown },
): Promise<{ runId: string; metrics: GoldenMetrics; results: GoldenQuestionResult[] }> {
  assertKeeper(principal);
  if (!isUuid(input.id)) throw notFound();
  const mode = z.enum(searchModes).catch("hybrid").parse(input.mode ?? "hybrid");
  const set = await prisma.goldenSet.findUnique({ where: { id: input.id } });
  if (!set) throw notFound();
  if (!search.space) throw new AppError("unavailable", "There is no active index space to run the set against yet.");
  const questions = set.questions as { question: string; expected: string[] }[];
  if (questions.length === 0) throw new AppError("bad_request", "The set has no questions yet.");

  const allExpected = [...new Set(questions.flatMap((question) => question.expected))];
  const params: unknown[] = [allExpected];
  const scope = projectScopeSql(principal, "project_id", params);
  const readableRows = await search.sql.query<{ id: string; title: string }>(`SELECT id, title FROM records WHERE id = ANY($1::text[]) AND ${scope}`, params);
  const titles = new Map(readableRows.map((row) => [row.id, row.title]));

  const results: GoldenQuestionResult[] = [];
  let unreadableExpected = 0;
  for (const question of questions) {
    const expected = question.expected.filter((id) => titles.has(id));
    unreadableExpected += question.expected.length - expected.length;
    if (expected.length === 0) continue;
    const found = await searchArchive(search, principal, { query: question.question, mode, limit: goldenK, collapse: "record", sectionIds: set.sectionId ? [set.sectionId] : undefined });
    const ranked = found.hits.map((hit) => hit.recordId);
    const judged = new Map(expected.map((id) => [id, 1]));
    results.push({
      question: question.question,
      recall: recallAt(ranked, judged, goldenK),
      ndcg: ndcgAt(ranked, judged, 10),
      reciprocalRank: mrrAt(ranked, judged, 10),
      found: ranked.map((id, index) => ({ recordId: id, title: titles.get(id) ?? "", rank: index + 1 })).filter((item) => judged.has(item.recordId)),
      missed: expected.filter((id) => !ranked.slice(0, goldenK).includes(id)).map((id) => ({ recordId: id, title: titles.get(id) ?? "" })),
    });
  }
  const mean = (pick: (result: GoldenQuestionResult) => number) => (results.length ? results.reduce((sum, result) => sum + pick(result), 0) / results.length : 0);
  const metrics: GoldenMetrics = {
    questions: results.length,
    recallAtK: mean((result) => result.recall),
    ndcg10: mean((result) => result.ndcg),
    mrr10: mean((result) => result.reciprocalRank),
    unreadableExpected,
  };
  const run = await prisma.goldenRun.create({
    data: {
      setId: set.id,
      indexSpaceId: search.space.id,
      mode,
      metrics: metrics as unknown as Prisma.InputJsonValue,
      results: results as unknown as Prisma.InputJsonValue,
      runById: principal.userId === "system" ? null : principal.userId,
    },
  });
  return { runId: run.id, metrics, results };
}
