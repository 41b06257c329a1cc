import "server-only";
import { randomUUID } from "node:crypto";
import { mkdir, readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { type Principal, actorIdOf, canEditProject, isAdmin, systemPrincipal } from "../../acl";
import { loadPrincipal } from "../../auth/load-principal";
import { type Config, getConfig } from "../../config";
import { audit, auditMany } from "../../db/audit";
import { keepVersionsAs } from "../../db/record-versions";
import type { ImportJob, Prisma, PrismaClient } from "../../db/generated/client";
import { transactionSql } from "../../db/sql-executor";
import { AppError, isAppError, notFound } from "../../errors";
import { isUuid } from "../../ids";
import { enqueueDependents } from "../enqueue-indexing";
import { discardMedia, storagePath } from "../media-storage";
import { getSectionBySlug } from "../sections";
import { recordTitle, recordYears, relationLinkRows } from "../validate-record-values";
import { checkRows, type CheckedRow } from "./check-rows";
import { eventLoopPacer, turnBudgetMs, yieldToEventLoop } from "./event-loop";
import { checkAllRows, checkContext, type ImportAttachments, prepareImport } from "./plan-import";
import { parseImportFileInSteps } from "./parse-import-file";
import type { DryRunResult, ImportFile, ImportJobView, ImportMapping, ImportPlan, ImportProblem } from "./types";
import { readMediaZip } from "./zip-media";

/**
 * The media zip uploaded with a job waits beside the job's file until the job ends (done or
 * failed), so a job taken over after a crash still finds it.
 */
function mediaZipKeyOf(fileKey: string): string {
  return `${fileKey}.media.zip`;
}

/**
 * Queues an import: the file (and its media zip) is validated whole (a dry run) and stored with
 * the job; the worker (runImportJobs) writes the valid rows in batches and reports the others.
 * Refused, with nothing stored, when no row could be imported.
 */
export async function startImport(
  prisma: PrismaClient,
  principal: Principal,
  file: ImportFile,
  plan: ImportPlan,
  options: { storageDir?: string } & ImportAttachments = {},
): Promise<{ jobId: string; dryRun: DryRunResult }> {
  const prepared = await prepareImport(prisma, principal, file, plan, { mediaZip: options.mediaZip, mediaZipLimits: options.mediaZipLimits });
  const dryRun = await checkAllRows(prepared);
  if (dryRun.valid === 0) {
    throw new AppError(
      "bad_request",
      `No row of the file can be imported (${dryRun.problems.length} problem${dryRun.problems.length === 1 ? "" : "s"}); run the dry run to see them.`,
    );
  }
  const jobId = randomUUID();
  // The file waits in the storage directory (shared by every web process and worker), not in
  // the database: a large bytea through the embedded driver held the event loop for seconds.
  const storageDir = options.storageDir ?? getConfig().storageDir;
  const fileKey = `imports/${jobId}`;
  const path = storagePath(storageDir, fileKey);
  const zipPath = storagePath(storageDir, mediaZipKeyOf(fileKey));
  await mkdir(dirname(path), { recursive: true });
  try {
    await writeFile(path, file.bytes);
    if (options.mediaZip) await writeFile(zipPath, options.mediaZip.bytes);
    await prisma.$transaction(async (tx) => {
      await tx.importJob.create({
        data: {
          id: jobId,
          createdById: actorIdOf(principal),
          sectionId: prepared.section.id,
          projectId: plan.projectId,
          mapping: plan.mapping as unknown as Prisma.InputJsonValue,
          mediaFolder: plan.mediaFolder ?? null,
          fileName: file.fileName.slice(0, 500),
          format: prepared.table.format,
          fileKey,
          total: prepared.table.rows.length,
        },
      });
      await audit(tx, {
        actorId: actorIdOf(principal),
        action: "import.start",
        targetType: "import_job",
        targetId: jobId,
        projectId: plan.projectId,
        details: {
          section: prepared.section.slug,
          fileName: file.fileName.slice(0, 500),
          rows: dryRun.rows,
          valid: dryRun.valid,
          problems: dryRun.problems.length,
        },
      });
    });
  } catch (error) {
    await Promise.all([rm(path, { force: true }), rm(zipPath, { force: true })]);
    throw error;
  }
  return { jobId, dryRun };
}

type JobRow = Prisma.ImportJobGetPayload<{ include: { section: { select: { slug: true } } } }>;

function toView(job: Omit<JobRow, "fileKey">): ImportJobView {
  return {
    id: job.id,
    status: job.status,
    sectionSlug: job.section.slug,
    projectId: job.projectId,
    fileName: job.fileName,
    total: job.total,
    processed: job.cursor,
    created: job.created,
    updated: job.updated,
    unchanged: job.unchanged,
    skipped: job.skipped,
    problems: job.problems as unknown as ImportProblem[],
    createdAt: job.createdAt.toISOString(),
    finishedAt: job.finishedAt?.toISOString() ?? null,
    error: job.error,
  };
}

const viewSelect = {
  id: true,
  status: true,
  sectionId: true,
  projectId: true,
  fileName: true,
  total: true,
  cursor: true,
  created: true,
  updated: true,
  unchanged: true,
  skipped: true,
  problems: true,
  createdAt: true,
  finishedAt: true,
  error: true,
  createdById: true,
  mapping: true,
  mediaFolder: true,
  format: true,
  lockedBy: true,
  heartbeatAt: true,
  updatedAt: true,
  section: { select: { slug: true } },
} as const;

/** A job is its creator's (and the admins'); anyone else is told it does not exist. */
function jobScopeWhere(principal: Principal): { createdById?: string } {
  return isAdmin(principal) ? {} : { createdById: principal.userId };
}

export async function getImportJob(prisma: PrismaClient, principal: Principal, jobId: string): Promise<ImportJobView> {
  if (!isUuid(jobId)) throw notFound();
  const job = await prisma.importJob.findFirst({ where: { id: jobId, ...jobScopeWhere(principal) }, select: viewSelect });
  if (!job) throw notFound();
  return toView(job);
}

/** The principal's import jobs (every job for admins), newest first. */
export async function listImportJobs(prisma: PrismaClient, principal: Principal, options: { limit?: number } = {}): Promise<ImportJobView[]> {
  const jobs = await prisma.importJob.findMany({
    where: jobScopeWhere(principal),
    select: viewSelect,
    orderBy: { createdAt: "desc" },
    take: Math.min(Math.max(options.limit ?? 50, 1), 200),
  });
  return jobs.map(toView);
}

export interface RunImportJobsOptions {
  /** Identifies this worker's claims; one per process. */
  workerId?: string;
  /** Rows per transaction; default importBatchRows(). */
  batchSize?: number;
  /** Stop after this many batches (a test's "crash"). */
  maxBatches?: number;
  /** A running job whose worker has not finished a batch for this long is taken over. */
  staleAfterMs?: number;
  /** Where job files are kept; default the configured storage directory. */
  storageDir?: string;
  signal?: AbortSignal;
  onProgress?: (job: ImportJobView) => void;
}

const defaultWorkerId = `import-${process.pid}-${randomUUID().slice(0, 8)}`;

/**
 * Rows per transaction: 50 in embedded mode and 200 in server mode. PGlite runs a transaction on the web process's own thread and every other query waits
 * for it, so there a page load waits for a whole batch (about 1 ms a row on the benchmark's
 * machine); a Postgres server runs it elsewhere and other connections do not wait, so fewer,
 * larger transactions are cheaper.
 */
export function importBatchRows(databaseMode: Config["databaseMode"] = getConfig().databaseMode): number {
  return databaseMode === "server" ? 200 : 50;
}

/**
 * The worker step: claims a queued job (or a running one whose worker stopped finishing batches
 * — a crash), and imports it from its cursor, one transaction per batch holding the records,
 * their links, their indexing outbox rows, their audit entries and the job's new cursor and
 * counts. A batch that finds its claim taken over writes nothing. Returns the rows processed.
 */
export async function runImportJobs(prisma: PrismaClient, options: RunImportJobsOptions = {}): Promise<number> {
  const workerId = options.workerId ?? defaultWorkerId;
  const staleAfterMs = options.staleAfterMs ?? 120_000;
  let processed = 0;
  let batches = 0;
  while (!options.signal?.aborted && (options.maxBatches === undefined || batches < options.maxBatches)) {
    const now = new Date();
    const claimed = await prisma.$queryRaw<{ id: string }[]>`
      UPDATE import_jobs SET status = 'running', locked_by = ${workerId}, heartbeat_at = ${now}, updated_at = ${now}
       WHERE id = (
         SELECT id FROM import_jobs
          WHERE status = 'queued'
             OR (status = 'running' AND (locked_by = ${workerId} OR heartbeat_at IS NULL OR heartbeat_at < ${new Date(now.getTime() - staleAfterMs)}))
          ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING id`;
    const jobId = claimed[0]?.id;
    if (!jobId) break;
    const result = await runJob(prisma, jobId, workerId, {
      ...options,
      maxBatches: options.maxBatches === undefined ? undefined : options.maxBatches - batches,
    });
    processed += result.rows;
    batches += result.batches;
    if (result.batches === 0) break;
  }
  return processed;
}

async function runJob(prisma: PrismaClient, jobId: string, workerId: string, options: RunImportJobsOptions): Promise<{ rows: number; batches: number }> {
  const job = await prisma.importJob.findUniqueOrThrow({ where: { id: jobId }, include: { section: { select: { slug: true } } } });
  let rows = 0;
  let batches = 0;
  try {
    const principal = await importerOf(prisma, job.createdById);
    if (!principal || !canEditProject(principal, job.projectId)) {
      throw new AppError("forbidden", "The person who started this import may no longer edit the project.");
    }
    const storageDir = options.storageDir ?? getConfig().storageDir;
    const bytes = job.fileKey ? await readFile(storagePath(storageDir, job.fileKey)).catch(() => null) : null;
    if (!bytes) throw new AppError("internal", "The job's file is missing from the storage directory.");
    const section = await getSectionBySlug(prisma, job.section.slug);
    const table = await parseImportFileInSteps(
      { fileName: job.fileName, bytes: new Uint8Array(bytes) },
      Number.POSITIVE_INFINITY,
      eventLoopPacer(turnBudgetMs),
    );
    const zipBytes = job.fileKey ? await readFile(storagePath(storageDir, mediaZipKeyOf(job.fileKey))).catch(() => null) : null;
    const mediaZip = zipBytes ? await readMediaZip({ fileName: "media.zip", bytes: new Uint8Array(zipBytes) }) : undefined;
    const plan: ImportPlan = {
      sectionSlug: section.slug,
      projectId: job.projectId,
      mapping: job.mapping as unknown as ImportMapping,
      mediaFolder: job.mediaFolder ?? undefined,
    };
    const context = checkContext(prisma, principal, section, table, plan, { storeMedia: true, mediaZip });
    const batchSize = options.batchSize ?? importBatchRows();
    let cursor = job.cursor;
    while (cursor < table.rows.length) {
      if (options.signal?.aborted || (options.maxBatches !== undefined && batches >= options.maxBatches)) return { rows, batches };
      const slice = table.rows.slice(cursor, cursor + batchSize);
      const { checked, problems } = await checkRows(context, slice, cursor + 1);
      await yieldToEventLoop();
      const failedRows = new Set(problems.map((problem) => problem.row));
      const orphanedMedia = [...failedRows].flatMap((row) => context.media?.storedByRow.get(row) ?? []);
      context.media?.storedByRow.clear();
      if (orphanedMedia.length) await discardMedia(prisma, getConfig().storageDir, orphanedMedia);
      const written = await writeBatch(prisma, {
        jobId,
        workerId,
        cursor,
        next: cursor + slice.length,
        principal,
        section,
        projectId: job.projectId,
        checked,
        problems,
      });
      if (!written) return { rows, batches };
      cursor += slice.length;
      rows += slice.length;
      batches++;
      if (options.onProgress) options.onProgress(await viewOf(prisma, jobId));
      // An embedded database answers through promises alone: without a turn of the event loop
      // between batches, a web request in this process would wait for the whole import.
      await yieldToEventLoop();
    }
    const finished = await closeJob(prisma, job, workerId, { status: "done", fileKey: null }, (final) => ({
      created: final.created,
      updated: final.updated,
      unchanged: final.unchanged,
      skipped: final.skipped,
    }));
    if (finished && job.fileKey) await Promise.all([rm(storagePath(storageDir, job.fileKey), { force: true }), removeMediaZip(storageDir, job.fileKey)]);
    return { rows, batches: Math.max(batches, 1) };
  } catch (error) {
    const message = isAppError(error) ? error.message : "The import stopped on an unexpected error; the rows before it were imported.";
    if (!isAppError(error)) console.error("[import] job failed", jobId, error);
    const failed = await closeJob(prisma, job, workerId, { status: "failed", error: message }, () => ({ error: message }));
    // A failed job is never resumed: its media zip (possibly tens of megabytes) goes with it.
    if (failed && job.fileKey) await removeMediaZip(options.storageDir ?? getConfig().storageDir, job.fileKey);
    return { rows, batches: Math.max(batches, 1) };
  }
}

/**
 * Removes staged files no job will read again: those of a job that was never created (the
 * process died between staging the files and committing the job), a done job's file and any
 * ended job's media zip (the process died between ending the job and removing them). Only files
 * older than `olderThanMs` are touched, so a `startImport` between staging and commit is left
 * alone. A failed job keeps its file, as it always has. Returns the names removed.
 */
export async function sweepImportFiles(prisma: PrismaClient, options: { storageDir?: string; olderThanMs?: number } = {}): Promise<string[]> {
  const storageDir = options.storageDir ?? getConfig().storageDir;
  const folder = storagePath(storageDir, "imports/.");
  const names = await readdir(folder).catch(() => [] as string[]);
  const cutoff = Date.now() - (options.olderThanMs ?? 60 * 60 * 1000);
  const staged = names
    .map((name) => ({ name, jobId: /^([0-9a-f-]{36})(\.media\.zip)?$/.exec(name)?.[1], zip: name.endsWith(".media.zip") }))
    .filter((file) => file.jobId && isUuid(file.jobId));
  const jobs = new Map(
    (
      await prisma.importJob.findMany({ where: { id: { in: [...new Set(staged.map((file) => file.jobId as string))] } }, select: { id: true, status: true } })
    ).map((job) => [job.id, job.status]),
  );
  const removed: string[] = [];
  for (const file of staged) {
    const status = jobs.get(file.jobId as string);
    const unwanted = status === undefined || status === "done" || (file.zip && status === "failed");
    if (!unwanted) continue;
    const path = storagePath(storageDir, `imports/${file.name}`);
    const modified = await stat(path).then(
      (info) => info.mtimeMs,
      () => null,
    );
    if (modified === null || modified > cutoff) continue;
    await rm(path, { force: true });
    removed.push(file.name);
  }
  return removed;
}

async function removeMediaZip(storageDir: string, fileKey: string): Promise<void> {
  await rm(storagePath(storageDir, mediaZipKeyOf(fileKey)), { force: true });
}

async function viewOf(prisma: PrismaClient, jobId: string): Promise<ImportJobView> {
  return toView(await prisma.importJob.findUniqueOrThrow({ where: { id: jobId }, select: viewSelect }));
}

/** The importer as they are now: a changed membership applies to the rest of the job. */
async function importerOf(prisma: PrismaClient, userId: string | null): Promise<Principal | null> {
  if (userId === null) return systemPrincipal;
  const user = await prisma.user.findUnique({ where: { id: userId }, select: { sessionVersion: true } });
  return user ? loadPrincipal(prisma, userId, user.sessionVersion) : null;
}

interface BatchInput {
  jobId: string;
  workerId: string;
  cursor: number;
  next: number;
  principal: Principal;
  section: Awaited<ReturnType<typeof getSectionBySlug>>;
  projectId: string;
  checked: CheckedRow[];
  problems: ImportProblem[];
}

/**
 * One batch, one transaction: moving the job's cursor first (only while this worker holds the
 * job and the cursor is where it left it), then the records, links, media ownership, indexing
 * rows and audit entries. Returns false, having written nothing, when the claim was lost.
 */
async function writeBatch(prisma: PrismaClient, input: BatchInput): Promise<boolean> {
  const { section, principal, projectId } = input;
  const actorId = actorIdOf(principal);
  // Between the statements, the event loop gets a turn when the batch has held it for a while:
  // in embedded mode the queries run on this thread, and without it a web request's timers and
  // sockets would wait for the whole transaction. Its queries wait for the commit either way.
  const pace = eventLoopPacer(turnBudgetMs);
  return prisma.$transaction(
    async (tx) => {
      const creates = input.checked.filter((row) => !row.existing);
      const updates = input.checked.filter((row) => row.existing && !row.unchanged);
      const unchanged = input.checked.length - creates.length - updates.length;
      const problems = [...input.problems];
      const createdIds = creates.map(() => randomUUID());
      const moved = await tx.importJob.updateMany({
        where: { id: input.jobId, lockedBy: input.workerId, cursor: input.cursor },
        data: { cursor: input.next, heartbeatAt: new Date() },
      });
      if (moved.count === 0) return false;
      // Every record this batch creates or changes keeps its version in its history, as the import's.
      await keepVersionsAs(tx, { via: "import", importJobId: input.jobId });

      if (creates.length) {
        await pace();
        await tx.record.createMany({
          data: creates.map((row, index) => {
            const years = recordYears(section.fields, row.values);
            return {
              id: createdIds[index] as string,
              sectionId: section.id,
              projectId,
              externalId: row.externalId,
              title: recordTitle(section.fields, row.values),
              values: row.values as Prisma.InputJsonValue,
              dateFrom: years.from,
              dateTo: years.to,
              createdById: actorId,
              updatedById: actorId,
            };
          }),
        });
        await pace();
        await tx.indexQueueItem.createMany({ data: createdIds.map((recordId) => ({ recordId, reason: "record.imported" })) });
      }
      const updatedIds: string[] = [];
      const auditEntries: { action: string; targetId: string; version: number }[] = createdIds.map((id) => ({
        action: "record.create",
        targetId: id,
        version: 1,
      }));
      for (const row of updates) {
        await pace();
        const existing = row.existing as { id: string; version: number };
        const years = recordYears(section.fields, row.values);
        const saved = await tx.record.updateMany({
          where: { id: existing.id, version: existing.version },
          data: {
            title: recordTitle(section.fields, row.values),
            values: row.values as Prisma.InputJsonValue,
            dateFrom: years.from,
            dateTo: years.to,
            updatedById: actorId,
            version: { increment: 1 },
          },
        });
        if (saved.count === 0) {
          problems.push({ row: row.row, message: "The record was edited while the import ran; run the import again to update it" });
          continue;
        }
        updatedIds.push(existing.id);
        auditEntries.push({ action: "record.update", targetId: existing.id, version: existing.version + 1 });
      }
      const written = [
        ...creates.map((row, index) => ({ row, id: createdIds[index] as string })),
        ...updates.filter((row) => updatedIds.includes(row.existing?.id ?? "")).map((row) => ({ row, id: row.existing?.id as string })),
      ];
      await pace();
      if (updatedIds.length) await tx.recordLink.deleteMany({ where: { sourceId: { in: updatedIds } } });
      const links = written.flatMap(({ row, id }) => relationLinkRows(section.fields, row.values, id));
      await pace();
      if (links.length) await tx.recordLink.createMany({ data: links, skipDuplicates: true });
      for (const { row, id } of written) {
        for (const field of section.fields) {
          const mediaId = row.values[field.key];
          if ((field.type === "image" || field.type === "media") && isUuid(mediaId)) {
            await pace();
            await tx.media.updateMany({
              where: { id: mediaId, OR: [{ recordId: id }, { recordId: null, projectId }] },
              data: { recordId: id, projectId, fieldKey: field.key, view: field.type === "image" ? field.view : null },
            });
          }
        }
      }
      await pace();
      if (updatedIds.length) await enqueueDependents(transactionSql(tx), updatedIds, { changed: "record.imported", dependents: "linked-record.updated" });
      await pace();
      if (auditEntries.length) {
        await auditMany(
          tx,
          auditEntries.map((entry) => ({
            actorId,
            action: entry.action,
            targetType: "record",
            targetId: entry.targetId,
            projectId,
            details: { version: entry.version, section: section.slug, importJobId: input.jobId },
          })),
        );
      }
      const skipped = new Set(problems.map((problem) => problem.row)).size;
      await pace();
      await tx.$executeRaw`
        UPDATE import_jobs
           SET created = created + ${creates.length}, updated = updated + ${updatedIds.length}, unchanged = unchanged + ${unchanged},
               skipped = skipped + ${skipped}, problems = problems || ${JSON.stringify(problems)}::jsonb
         WHERE id = ${input.jobId}`;
      return true;
    },
    { timeout: 120_000, maxWait: 60_000 },
  );
}

/**
 * Ends a job this worker still holds, with its `import.finish` audit event in the same
 * transaction; false when another worker took the job over (then nothing is written).
 */
async function closeJob(
  prisma: PrismaClient,
  job: { id: string; createdById: string | null; projectId: string; section: { slug: string } },
  workerId: string,
  end: { status: "done"; fileKey: null } | { status: "failed"; error: string },
  details: (final: ImportJob) => Record<string, unknown>,
): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    const closed = await tx.importJob.updateMany({ where: { id: job.id, lockedBy: workerId }, data: { ...end, finishedAt: new Date(), lockedBy: null } });
    if (closed.count === 0) return false;
    const final = await tx.importJob.findUniqueOrThrow({ where: { id: job.id } });
    await audit(tx, {
      actorId: job.createdById,
      action: "import.finish",
      targetType: "import_job",
      targetId: job.id,
      projectId: job.projectId,
      details: { section: job.section.slug, status: end.status, ...details(final) },
    });
    return true;
  });
}
