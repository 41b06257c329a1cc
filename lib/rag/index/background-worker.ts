import "server-only";
import { runImportLoop } from "../../archive/import/import-worker";
import { getConfig } from "../../config";
import type { Database } from "../../db/database";
import { configuredWorker } from "./configured-indexer";
import { releaseOrphanedClaims } from "./index-queue";
import { configuredQueueOptions, runWorker } from "./run-worker";

/**
 * In embedded mode the index worker runs inside the web process (PGlite has one owner);
 * progress goes to the log. In server mode `npm run worker` processes run instead, unless
 * MNEMO_INDEX_WORKER=in-process asks for both. MNEMO_INDEX_WORKER=off disables it.
 */
export function shouldRunInProcess(mode: Database["mode"], setting = getConfig().MNEMO_INDEX_WORKER): boolean {
  if (setting === "off") return false;
  if (setting === "in-process") return true;
  return mode !== "server";
}

const globalForWorker = globalThis as unknown as { mnemoWorker?: AbortController };

/** `onDrained` runs (one call at a time) whenever a batch leaves the queue empty. */
export async function startBackgroundWorker(database: Database, options: { onDrained?: () => Promise<void> } = {}): Promise<void> {
  if (globalForWorker.mnemoWorker || !shouldRunInProcess(database.mode)) return;
  const controller = new AbortController();
  globalForWorker.mnemoWorker = controller;
  const worker = await configuredWorker(database);
  const queue = configuredQueueOptions();
  if (database.mode !== "server") {
    // One process owns an embedded database: claims still running were left by one that died.
    const orphans = await releaseOrphanedClaims(database.sql, queue);
    if (orphans.released + orphans.parked > 0) {
      console.warn(
        `[index] took back ${orphans.released} records a stopped process was indexing${orphans.parked ? `; parked ${orphans.parked} that stopped it every time` : ""}`,
      );
    }
  }
  console.info(`[index] worker started: ${worker.space.name} (${worker.space.status})`);
  // Bulk imports run beside indexing, batch by batch; what they write queues its own indexing.
  void runImportLoop(database.prisma, {
    signal: controller.signal,
    takeOverOnStart: database.mode !== "server",
    log: (line) => console.info(line),
  });
  let lastReport = 0;
  // Since when records have been waiting: the moment nothing waits, search covers the archive.
  let busySince: number | null = null;
  void runWorker({
    ...worker,
    signal: controller.signal,
    queue,
    idleMs: 3000,
    log: (line) => console.warn(line),
    onDrained: options.onDrained,
    onProgress: (progress) => {
      const now = Date.now();
      if (progress.remaining === 0 || now - lastReport > 5000) {
        lastReport = now;
        console.info(
          `[index] ${progress.indexed} records indexed, ${progress.remaining} waiting, ${progress.parked} parked (embedded ${progress.embedded}, reused ${progress.reused}, cached ${progress.cached})`,
        );
      }
      if (progress.remaining > 0 && busySince === null) busySince = now;
      if (progress.remaining === 0 && busySince !== null) {
        console.info(
          `[index] search is ready: nothing waits to be indexed (${Math.round((now - busySince) / 1000)} s since records were waiting${progress.parked ? `; ${progress.parked} parked, see /admin` : ""})`,
        );
        busySince = null;
      }
    },
  }).catch((error: unknown) => {
    console.error("[index] worker stopped", error);
    globalForWorker.mnemoWorker = undefined;
  });
}
