import "server-only";
import { randomUUID } from "node:crypto";
import { type Principal, actorIdOf, assertAdmin } from "../acl";
import { audit, auditSql } from "../db/audit";
import type { PrismaClient } from "../db/generated/client";
import type { SqlExecutor } from "../db/sql-executor";
import { notFound } from "../errors";
import { enqueueReindex, retryParked } from "../rag/index/index-queue";

/**
 * Reindexing a section or everything, as an admin drives it: the records are queued with the
 * job's id as their reason, and progress is read back from the queue (records still waiting,
 * records parked with an error), so a reload or a restart loses nothing. Starting a reindex
 * while one covering the same records runs returns the running job instead of queueing the
 * work twice. Everything here is for admins; anyone else is told it does not exist.
 */
export interface ReindexProgress {
  id: string;
  sectionId: string | null;
  sectionName: string | null;
  total: number;
  remaining: number;
  failed: number;
  done: number;
  percent: number;
  /**
   * While none of the job's records has been taken yet: how many records queued before them
   * (a first indexing, an import, earlier saves) the worker takes first. 0 once it has started.
   */
  waitingBehind: number;
  startedAt: Date;
  finishedAt: Date | null;
}

const reasonOf = (jobId: string) => `reindex:${jobId}`;

async function progressOf(
  sql: SqlExecutor,
  job: { id: string; section_id: string | null; section_name: string | null; total: number; started_at: Date; finished_at: Date | null },
): Promise<ReindexProgress> {
  const [counts] = await sql.query<{ remaining: number; failed: number }>(
    `SELECT count(*) FILTER (WHERE status IN ('pending', 'running'))::int AS remaining,
            count(*) FILTER (WHERE status = 'parked')::int AS failed
       FROM index_queue WHERE reason = $1`,
    [reasonOf(job.id)],
  );
  const remaining = counts?.remaining ?? 0;
  const failed = counts?.failed ?? 0;
  // The worker takes pending records by (available_at, created_at): those of other reasons due
  // before the job's first pending record, and any being indexed now, go first.
  const [ahead] =
    remaining === 0
      ? [{ ahead: 0 }]
      : await sql.query<{ ahead: number }>(
          `WITH mine AS (
       SELECT min(available_at) AS due, bool_or(status = 'running') AS started FROM index_queue WHERE reason = $1 AND status IN ('pending', 'running')
     )
     SELECT CASE WHEN mine.started THEN 0 ELSE (
              SELECT count(*)::int FROM index_queue o
               WHERE o.reason <> $1 AND (o.status = 'running' OR (o.status = 'pending' AND o.available_at <= mine.due))
            ) END AS ahead
       FROM mine`,
          [reasonOf(job.id)],
        );
  let finishedAt = job.finished_at ? new Date(job.finished_at) : null;
  if (!finishedAt && remaining === 0) {
    const [row] = await sql.query<{ finished_at: Date }>(
      `UPDATE reindex_jobs SET finished_at = now() WHERE id = $1 AND finished_at IS NULL RETURNING finished_at`,
      [job.id],
    );
    finishedAt = row ? new Date(row.finished_at) : new Date();
  }
  const done = Math.max(0, job.total - remaining - failed);
  return {
    id: job.id,
    sectionId: job.section_id,
    sectionName: job.section_name,
    total: job.total,
    remaining,
    failed,
    done,
    percent: job.total === 0 ? 100 : Math.floor(((job.total - remaining) / job.total) * 100),
    waitingBehind: ahead?.ahead ?? 0,
    startedAt: new Date(job.started_at),
    finishedAt,
  };
}

const jobSelect = `SELECT j.id, j.section_id, s.name AS section_name, j.total, j.started_at, j.finished_at FROM reindex_jobs j LEFT JOIN sections s ON s.id = j.section_id`;

export async function getReindexProgress(sql: SqlExecutor, principal: Principal, jobId: string): Promise<ReindexProgress> {
  assertAdmin(principal);
  if (!/^[0-9a-f-]{36}$/.test(jobId)) throw notFound();
  const [job] = await sql.query<Parameters<typeof progressOf>[1]>(`${jobSelect} WHERE j.id = $1`, [jobId]);
  if (!job) throw notFound();
  return progressOf(sql, job);
}

/** Jobs still running (progress refreshed), then the last few finished, newest first. */
export async function listReindexJobs(sql: SqlExecutor, principal: Principal, limit = 5): Promise<ReindexProgress[]> {
  assertAdmin(principal);
  const jobs = await sql.query<Parameters<typeof progressOf>[1]>(`${jobSelect} ORDER BY j.finished_at IS NULL DESC, j.started_at DESC LIMIT $1`, [limit]);
  return Promise.all(jobs.map((job) => progressOf(sql, job)));
}

export async function startReindex(
  prisma: PrismaClient,
  sql: SqlExecutor,
  principal: Principal,
  input: { sectionSlug?: string },
): Promise<{ job: ReindexProgress; alreadyRunning: boolean }> {
  assertAdmin(principal);
  let section: { id: string; name: string } | null = null;
  if (input.sectionSlug !== undefined) {
    section = await prisma.section.findUnique({ where: { slug: input.sectionSlug }, select: { id: true, name: true } });
    if (!section) throw notFound();
  }
  // A running job over the same records (the same section, or everything) is that job.
  for (const running of (await listReindexJobs(sql, principal, 20)).filter((job) => job.finishedAt === null)) {
    if (running.sectionId === null || running.sectionId === (section?.id ?? null)) return { job: running, alreadyRunning: true };
  }
  const id = randomUUID();
  await sql.transaction(async (tx) => {
    const queued = await enqueueReindex(tx, { sectionId: section?.id }, reasonOf(id));
    await tx.query(`INSERT INTO reindex_jobs (id, section_id, total, started_by_id) VALUES ($1, $2, $3, $4)`, [
      id,
      section?.id ?? null,
      queued,
      actorIdOf(principal),
    ]);
    await auditSql(tx, {
      actorId: actorIdOf(principal),
      action: "index.reindex",
      targetType: "section",
      targetId: section?.id ?? null,
      details: { section: input.sectionSlug ?? "all", records: queued, job: id },
    });
  });
  return { job: await getReindexProgress(sql, principal, id), alreadyRunning: false };
}

/** Puts a section's (or every) parked record back in line; audited. */
export async function retryFailed(prisma: PrismaClient, sql: SqlExecutor, principal: Principal, input: { sectionSlug?: string }): Promise<number> {
  assertAdmin(principal);
  let sectionId: string | undefined;
  if (input.sectionSlug !== undefined) {
    const section = await prisma.section.findUnique({ where: { slug: input.sectionSlug }, select: { id: true } });
    if (!section) throw notFound();
    sectionId = section.id;
  }
  const retried = await retryParked(sql, sectionId);
  await audit(prisma, {
    actorId: actorIdOf(principal),
    action: "index.retry",
    targetType: "section",
    targetId: sectionId ?? null,
    details: { section: input.sectionSlug ?? "all", records: retried },
  });
  return retried;
}
