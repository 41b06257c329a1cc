import "server-only";
import { setTimeout as sleep } from "node:timers/promises";
import type { PrismaClient } from "../../db/generated/client";
import { yieldToEventLoop } from "./event-loop";
import { runImportJobs, sweepImportFiles } from "./import-jobs";

/** The shortest gap between two progress lines of one job in the log (its last line always shows). */
const progressLogMs = 5000;

/** How often the loop removes staged files no job will read (see sweepImportFiles). */
const sweepEveryMs = 60 * 60 * 1000;

/**
 * Runs import jobs until `signal` aborts, sleeping `idleMs` when no job waits. A job runs to its
 * end in one call, so its file is read and parsed once; each batch is its own short transaction
 * and the event loop gets a turn between batches (and inside them when they run long), so a
 * 10,000-row import never holds the web process. With `takeOverOnStart`, jobs left running by a
 * process that died are taken over at once (an embedded database has one owner, so any such job
 * is orphaned); otherwise after their claim goes stale. On start and then hourly it removes
 * staged files of abandoned jobs (sweepImportFiles).
 */
export async function runImportLoop(
  prisma: PrismaClient,
  options: { signal: AbortSignal; idleMs?: number; takeOverOnStart?: boolean; log?: (line: string) => void },
): Promise<void> {
  let first = true;
  let sweptAt = 0;
  const lastLogged = new Map<string, number>();
  while (!options.signal.aborted) {
    let rows = 0;
    if (Date.now() - sweptAt >= sweepEveryMs) {
      sweptAt = Date.now();
      await sweepImportFiles(prisma).then(
        (removed) => removed.length > 0 && options.log?.(`[import] removed ${removed.length} staged file(s) of abandoned imports`),
        (error: unknown) => console.error("[import] sweeping staged files failed", error),
      );
    }
    try {
      rows = await runImportJobs(prisma, {
        signal: options.signal,
        staleAfterMs: first && options.takeOverOnStart ? 0 : undefined,
        onProgress: (job) => {
          const now = Date.now();
          if (job.processed < job.total && now - (lastLogged.get(job.id) ?? 0) < progressLogMs) return;
          lastLogged.set(job.id, now);
          if (job.processed >= job.total) lastLogged.delete(job.id);
          options.log?.(`[import] ${job.fileName}: ${job.processed}/${job.total} rows (${job.created} new, ${job.updated} updated, ${job.skipped} skipped)`);
        },
      });
      first = false;
    } catch (error) {
      console.error("[import] the import worker failed a step", error);
    }
    try {
      if (rows === 0) await sleep(options.idleMs ?? 3000, undefined, { signal: options.signal });
      else await yieldToEventLoop();
    } catch {
      return;
    }
  }
}
