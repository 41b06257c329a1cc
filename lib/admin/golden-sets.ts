import "server-only";
import { z } from "zod";
import { type Principal, actorIdOf, assertGoldenSetKeeper, goldenSetScopeWhere, projectScopeWhere } from "../acl";
import { audit } from "../db/audit";
import { isUuid } from "../ids";
import type { Prisma, PrismaClient } from "../db/generated/client";
import { AppError, notFound, parseInput } from "../errors";
import { maxQueryLength } from "../query-length";
import { type SearchContext, searchArchive, searchModes } from "../rag/search/search-archive";
import {
  type GoldenMetrics,
  type GoldenQuestionResult,
  type StoredRunResults,
  goldenK,
  resolveRunForViewer,
  storedRunRecordIds,
  storedRunResultsSchema,
} from "./golden-run-results";

export { goldenK, type GoldenMetrics, type GoldenQuestionResult } from "./golden-run-results";

/**
 * Golden sets: questions with the records that answer them, per collection, kept by admins and
 * curators, and run against the active index space for recall@k, nDCG@10 and MRR with the misses
 * listed. A set belongs to the keeper who made it; admins keep every set, and anyone else finds
 * another's set exactly as a missing one (`goldenSetScopeWhere`). A run searches with the runner's
 * access and stores record ids only; every showing resolves it under the viewer's access
 * (`golden-run-results.ts`), so neither a set nor a run names, links or counts a record the
 * viewer may not read. Researchers: not found.
 */

const questionSchema = z.object({
  question: z.string().trim().min(1, "Write the question.").max(maxQueryLength, `A question can be at most ${maxQueryLength} characters.`),
  // A record named twice is one expectation: kept once whether the set is created or saved.
  expected: z
    .array(z.string().refine(isUuid, "Expected records are record ids."))
    .min(1, "Choose at least one record that answers it.")
    .max(50)
    .transform((ids) => [...new Set(ids)]),
});

export const goldenSetSchema = z.object({
  name: z.string().trim().min(1, "Give the set a name.").max(120, "At most 120 characters."),
  sectionSlug: z.string().max(64).optional(),
  questions: z.array(questionSchema).max(500, "At most 500 questions in a set."),
});
export type GoldenSetInput = z.input<typeof goldenSetSchema>;

type StoredQuestion = { question: string; expected: string[] };

/** The set if the principal keeps it (its owner, or an admin); otherwise not found, as a missing id. */
async function findKeptSet(prisma: PrismaClient, principal: Principal, id: string) {
  if (!isUuid(id)) throw notFound();
  const set = await prisma.goldenSet.findFirst({ where: { id, ...goldenSetScopeWhere(principal) } });
  if (!set) throw notFound();
  return set;
}

/** Titles of the records among `ids` the principal may read; the others are simply absent. */
async function readableTitles(prisma: PrismaClient, principal: Principal, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await prisma.record.findMany({ where: { id: { in: [...new Set(ids)] }, ...projectScopeWhere(principal) }, select: { id: true, title: true } });
  return new Map(rows.map((row) => [row.id, row.title]));
}

/** A stored run's results, or null for a row not in the stored form (never shown). */
function storedResults(run: { results: unknown }): StoredRunResults | null {
  const parsed = storedRunResultsSchema.safeParse(run.results);
  return parsed.success ? parsed.data : null;
}

export async function listGoldenSets(prisma: PrismaClient, principal: Principal) {
  assertGoldenSetKeeper(principal);
  const sets = await prisma.goldenSet.findMany({
    where: goldenSetScopeWhere(principal),
    orderBy: { updatedAt: "desc" },
    include: { section: { select: { name: true, slug: true } }, runs: { orderBy: { createdAt: "desc" }, take: 1 } },
  });
  const lastRuns = sets.map((set) => {
    const run = set.runs[0];
    const results = run ? storedResults(run) : null;
    return run && results ? { at: run.createdAt, mode: run.mode, results } : null;
  });
  const titles = await readableTitles(
    prisma,
    principal,
    lastRuns.flatMap((run) => (run ? storedRunRecordIds(run.results) : [])),
  );
  return sets.map((set, index) => {
    const run = lastRuns[index];
    return {
      id: set.id,
      name: set.name,
      section: set.section,
      questions: (set.questions as StoredQuestion[]).length,
      lastRun: run ? { at: run.at, mode: run.mode, metrics: resolveRunForViewer(run.results, titles).metrics } : null,
    };
  });
}

/**
 * Every golden set's id and name, newest change first: the choice of set on the admin pages
 * (index spaces, thresholds), which only admins reach.
 */
export async function listGoldenSetNames(prisma: PrismaClient): Promise<{ id: string; name: string }[]> {
  return prisma.goldenSet.findMany({ orderBy: { updatedAt: "desc" }, select: { id: true, name: true } });
}

export async function getGoldenSet(prisma: PrismaClient, principal: Principal, id: string) {
  assertGoldenSetKeeper(principal);
  const kept = await findKeptSet(prisma, principal, id);
  const [section, runRows] = await Promise.all([
    kept.sectionId ? prisma.section.findUnique({ where: { id: kept.sectionId }, select: { name: true, slug: true } }) : null,
    prisma.goldenRun.findMany({ where: { setId: kept.id }, orderBy: { createdAt: "desc" }, take: 10 }),
  ]);
  const questions = kept.questions as StoredQuestion[];
  const runs = runRows.flatMap((run) => {
    const results = storedResults(run);
    return results ? [{ id: run.id, at: run.createdAt, mode: run.mode, results }] : [];
  });
  // One lookup, under the viewer's access, for the editor's expected records and every run's records.
  const titles = await readableTitles(prisma, principal, [
    ...questions.flatMap((question) => question.expected),
    ...runs.flatMap((run) => storedRunRecordIds(run.results)),
  ]);
  return {
    id: kept.id,
    name: kept.name,
    section,
    questions: questions.map((question) => ({
      question: question.question,
      expected: question.expected.filter((recordId) => titles.has(recordId)).map((recordId) => ({ recordId, title: titles.get(recordId) ?? "" })),
      /** It expects a record the viewer cannot read (which or how many is not said). */
      unreadableExpected: question.expected.some((recordId) => !titles.has(recordId)),
    })),
    runs: runs.map((run) => ({ id: run.id, at: run.at, mode: run.mode, ...resolveRunForViewer(run.results, titles) })),
  };
}

/**
 * The questions to store when a keeper edits a set: expected records the keeper cannot read (an
 * admin added them, or the keeper's access shrank) stay with their question. A save that would
 * drop one — its question removed or reworded — is refused, so nothing is lost unseen.
 */
function keepUnreadableExpected(before: StoredQuestion[], after: StoredQuestion[], readable: ReadonlyMap<string, string>): StoredQuestion[] {
  const unreadableByQuestion = new Map<string, Set<string>>();
  for (const question of before) {
    for (const id of question.expected) {
      if (!readable.has(id)) unreadableByQuestion.set(question.question, (unreadableByQuestion.get(question.question) ?? new Set<string>()).add(id));
    }
  }
  const remaining = new Set(after.map((question) => question.question));
  if ([...unreadableByQuestion.keys()].some((question) => !remaining.has(question))) {
    const message = "A question you removed or reworded expects records you cannot read, so it stays; an admin can remove it.";
    throw new AppError("bad_request", message, { fieldErrors: { questions: [message] } });
  }
  return after.map((question) => ({
    question: question.question,
    expected: [...new Set([...question.expected, ...(unreadableByQuestion.get(question.question) ?? [])])],
  }));
}

/** Creates (no id) or replaces a kept set; expected records must exist and be readable by the keeper. */
export async function saveGoldenSet(prisma: PrismaClient, principal: Principal, input: { id?: string; set: unknown }): Promise<{ id: string }> {
  assertGoldenSetKeeper(principal);
  const existing = input.id === undefined ? null : await findKeptSet(prisma, principal, input.id);
  const data = parseInput(goldenSetSchema, input.set, {
    message: (issues) => `The golden set is not valid: ${issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ")}`,
  });
  let sectionId: string | null = null;
  if (data.sectionSlug) {
    const section = await prisma.section.findUnique({ where: { slug: data.sectionSlug }, select: { id: true } });
    if (!section) throw new AppError("bad_request", "Choose a collection that exists.", { fieldErrors: { sectionSlug: ["Choose a collection that exists."] } });
    sectionId = section.id;
  }
  const before = (existing?.questions ?? []) as StoredQuestion[];
  const readable = await readableTitles(
    prisma,
    principal,
    [...data.questions, ...before].flatMap((question) => question.expected),
  );
  const fieldErrors: Record<string, string[]> = {};
  data.questions.forEach((question, index) => {
    if (question.expected.some((id) => !readable.has(id))) fieldErrors[`questions.${index}.expected`] = ["An expected record does not exist."];
  });
  if (Object.keys(fieldErrors).length) throw new AppError("bad_request", "Some expected records do not exist.", { fieldErrors });

  const questions = existing ? keepUnreadableExpected(before, data.questions, readable) : data.questions;
  const saved = existing
    ? await prisma.goldenSet.update({
        where: { id: existing.id },
        data: { name: data.name, sectionId, questions: questions as unknown as Prisma.InputJsonValue },
      })
    : await prisma.goldenSet.create({
        data: { name: data.name, sectionId, questions: questions as unknown as Prisma.InputJsonValue, createdById: actorIdOf(principal) },
      });
  await audit(prisma, {
    actorId: actorIdOf(principal),
    action: existing ? "golden-set.update" : "golden-set.create",
    targetType: "golden_set",
    targetId: saved.id,
    details: { name: data.name, questions: questions.length },
  });
  return { id: saved.id };
}

export async function deleteGoldenSet(prisma: PrismaClient, principal: Principal, id: string): Promise<void> {
  assertGoldenSetKeeper(principal);
  if (!isUuid(id)) throw notFound();
  const deleted = await prisma.goldenSet.deleteMany({ where: { id, ...goldenSetScopeWhere(principal) } });
  if (deleted.count === 0) throw notFound();
  await audit(prisma, { actorId: actorIdOf(principal), action: "golden-set.delete", targetType: "golden_set", targetId: id, details: {} });
}

/**
 * Runs a kept set against the search context's space with the runner's access, stores the record
 * ids it judged and ranked, and returns the run as the runner sees it.
 */
export async function runGoldenSet(
  prisma: PrismaClient,
  search: SearchContext,
  principal: Principal,
  input: { id: string; mode?: unknown },
): Promise<{ runId: string; metrics: GoldenMetrics; results: GoldenQuestionResult[] }> {
  assertGoldenSetKeeper(principal);
  const mode = z
    .enum(searchModes)
    .catch("hybrid")
    .parse(input.mode ?? "hybrid");
  const set = await findKeptSet(prisma, principal, input.id);
  if (!search.space) throw new AppError("unavailable", "There is no active index space to run the set against yet.");
  const questions = set.questions as StoredQuestion[];
  if (questions.length === 0) throw new AppError("bad_request", "The set has no questions yet.");

  const readableExpected = await readableTitles(
    prisma,
    principal,
    questions.flatMap((question) => question.expected),
  );
  const stored: StoredRunResults = [];
  for (const question of questions) {
    const judged = question.expected.filter((id) => readableExpected.has(id));
    if (judged.length === 0) continue;
    const found = await searchArchive(search, principal, {
      query: question.question,
      mode,
      limit: goldenK,
      collapse: "record",
      sectionIds: set.sectionId ? [set.sectionId] : undefined,
    });
    stored.push({ question: question.question, judged, ranked: found.hits.slice(0, goldenK).map((hit) => hit.recordId) });
  }
  const shown = resolveRunForViewer(stored, await readableTitles(prisma, principal, storedRunRecordIds(stored)));
  const run = await prisma.goldenRun.create({
    data: {
      setId: set.id,
      indexSpaceId: search.space.id,
      mode,
      // The runner's own figures, kept as the run's record; every showing recomputes them for its viewer.
      metrics: shown.metrics as unknown as Prisma.InputJsonValue,
      results: stored as unknown as Prisma.InputJsonValue,
      runById: actorIdOf(principal),
    },
  });
  return { runId: run.id, ...shown };
}
