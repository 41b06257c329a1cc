import "server-only";
import { setTimeout as sleep } from "node:timers/promises";
import type { PrismaClient } from "../../db/generated/client";
import { runImportJobs, yieldToEventLoop } from "./import-jobs";

/**
 * Runs import jobs until `signal` aborts: a few batches at a time, yielding to other work between
 * them so a 10,000-row import never holds the web process (each batch is its own short
 * transaction), and sleeping `idleMs` when no job waits. With `takeOverOnStart`, jobs left
 * running by a process that died are taken over at once (an embedded database has one owner,
 * so any such job is orphaned); otherwise after their claim goes stale.
 */
export async function runImportLoop(
  prisma: PrismaClient,
  options: { signal: AbortSignal; idleMs?: number; takeOverOnStart?: boolean; log?: (line: string) => void },
): Promise<void> {
  let first = true;
  while (!options.signal.aborted) {
    let rows = 0;
    try {
      rows = await runImportJobs(prisma, {
        signal: options.signal,
        maxBatches: 5,
        staleAfterMs: first && options.takeOverOnStart ? 0 : undefined,
        onProgress: (job) => options.log?.(`[import] ${job.fileName}: ${job.processed}/${job.total} rows (${job.created} new, ${job.updated} updated, ${job.skipped} skipped)`),
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
