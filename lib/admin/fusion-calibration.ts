import "server-only";
import { type Principal, assertAdmin, projectScopeSql, systemPrincipal } from "../acl";
import { isUuid } from "../ids";
import type { PrismaClient } from "../db/generated/client";
import type { SqlExecutor } from "../db/sql-executor";
import { AppError, notFound } from "../errors";
import { type FusionCalibration, getActiveIndexSpace, saveFusionCalibration } from "../rag/index/index-spaces";
import { embedderForSpace, listSpaces } from "../rag/index/space-embedders";
import { measureFusion } from "../rag/search/measure-fusion";
import { auditIndexSpace } from "./model-switch";
import { passThroughReranker } from "../rag/search/rerank";

/**
 * Calibrated fusion from the admin spaces page: the golden sets' questions are searched in one
 * index space as the admin, each leg's quality is measured, and the meaning share that ranked the
 * expected records best (overall and per query language) is stored on the space, where hybrid
 * search reads it. Admins only; anyone else: not found.
 */
export const minimumCalibrationQuestions = 10;

export async function calibrateSpaceFusion(
  prisma: PrismaClient,
  sql: SqlExecutor,
  principal: Principal,
  input: { spaceId: string; /** One golden set; absent: every set. */ goldenSetId?: string },
): Promise<FusionCalibration> {
  assertAdmin(principal);
  if (!isUuid(input.spaceId)) throw notFound();
  const space = (await listSpaces(sql)).find((candidate) => candidate.id === input.spaceId);
  if (!space) throw notFound();
  const embedder = embedderForSpace(space);
  if (!embedder) throw new AppError("unavailable", `This server cannot embed queries for ${space.name}, so its fusion cannot be measured here.`);

  if (input.goldenSetId !== undefined && !isUuid(input.goldenSetId)) throw notFound();
  const sets = await prisma.goldenSet.findMany({
    where: input.goldenSetId ? { id: input.goldenSetId } : {},
    orderBy: { name: "asc" },
    select: { name: true, sectionId: true, questions: true },
  });
  if (input.goldenSetId && sets.length === 0) throw notFound();
  const questions = sets.flatMap((set) =>
    (set.questions as { question: string; expected: string[] }[]).map((question) => ({ ...question, sectionIds: set.sectionId ? [set.sectionId] : undefined })),
  );
  // Only expected records the admin may read count (all of them, for an admin; kept explicit).
  const expected = [...new Set(questions.flatMap((question) => question.expected))];
  const params: unknown[] = [expected];
  const scope = projectScopeSql(principal, "project_id", params);
  const readable = new Set((await sql.query<{ id: string }>(`SELECT id FROM records WHERE id = ANY($1::text[]) AND ${scope}`, params)).map((row) => row.id));
  const judged = questions
    .map((question) => ({
      query: question.question,
      sectionIds: question.sectionIds,
      judged: new Map(question.expected.filter((id) => readable.has(id)).map((id) => [id, 1])),
    }))
    .filter((question) => question.judged.size > 0);
  if (judged.length < minimumCalibrationQuestions) {
    throw new AppError(
      "bad_request",
      `Fusion is measured on golden questions: there are ${judged.length} with an expected record, and it needs at least ${minimumCalibrationQuestions}. Add questions on the golden sets page.`,
    );
  }
  const source = `${judged.length} questions of ${sets.length === 1 ? "the golden set" : "golden sets"} ${sets.map((set) => `“${set.name}”`).join(", ")}`;
  const calibration = await measureFusion({ sql, embedder, space, reranker: passThroughReranker }, principal, judged, source);
  await saveFusionCalibration(sql, space.id, calibration);
  await auditIndexSpace(sql, principal, "index-space.calibrate-fusion", space.id, {
    name: space.name,
    meaningShare: calibration.meaningShare,
    questions: judged.length,
  });
  return calibration;
}

/** Back to equal weights. */
export async function resetSpaceFusion(sql: SqlExecutor, principal: Principal, input: { spaceId: string }): Promise<void> {
  assertAdmin(principal);
  if (!isUuid(input.spaceId)) throw notFound();
  const space = (await listSpaces(sql)).find((candidate) => candidate.id === input.spaceId);
  if (!space) throw notFound();
  await saveFusionCalibration(sql, space.id, null);
  await auditIndexSpace(sql, principal, "index-space.reset-fusion", space.id, { name: space.name });
}

/** The demo's golden set for tuning; an archive without it is measured by an admin. */
export const tuningGoldenSetName = "Archive search — dev half (tune here)";

/**
 * Once the queue has drained: measures the active space's fusion on the tuning golden set if
 * nobody has measured it yet, so a fresh demo (or a new model) searches with weights measured on
 * its own index. Does nothing without that set or with too few of its records indexed.
 */
export async function calibrateUnmeasuredSpace(prisma: PrismaClient, sql: SqlExecutor, log: (line: string) => void = console.info): Promise<void> {
  const active = await getActiveIndexSpace(sql);
  if (!active || active.fusion) return;
  const set = await prisma.goldenSet.findFirst({ where: { name: tuningGoldenSetName }, select: { id: true } });
  if (!set) return;
  try {
    const calibration = await calibrateSpaceFusion(prisma, sql, systemPrincipal, { spaceId: active.id, goldenSetId: set.id });
    const all = calibration.figures.all;
    log(
      `[search] fusion measured on “${tuningGoldenSetName}”: meaning share ${calibration.meaningShare.all} (nDCG@10 words ${all?.keyword}, meaning ${all?.semantic}, hybrid ${all?.calibrated})`,
    );
  } catch (error) {
    if (error instanceof AppError && error.code === "bad_request") return; // too few questions
    throw error;
  }
}
