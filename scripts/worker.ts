/**
 * `npm run worker`: an index worker for server mode (any number may run against one database),
 * which also runs bulk import jobs. `--drain` finishes waiting imports, then stops when the
 * index queue is empty.
 */
import { getPriority, setPriority } from "node:os";
import { parseArgsOrExit } from "./command-line";
import { calibrateUnmeasuredSpace } from "../lib/admin/fusion-calibration";
import { runImportJobs } from "../lib/archive/import";
import { runImportLoop } from "../lib/archive/import/import-worker";
import { configuredDatabaseOptions, openDatabase } from "../lib/db/database";
import { configuredWorker } from "../lib/rag/index/configured-indexer";
import { runWorker } from "../lib/rag/index/run-worker";
import { checkConfigurationOrExit } from "../lib/runtime";
import { getConfig } from "../lib/config";

const { drain } = parseArgsOrExit({ options: { drain: { type: "boolean", default: false } }, strict: true }, "usage: npm run worker [-- --drain]").values;
checkConfigurationOrExit();
lowerPriority(getConfig().MNEMO_WORKER_NICE);
const database = await openDatabase({ ...configuredDatabaseOptions(), log: (line) => console.log(`[db] ${line}`) });
const controller = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => controller.abort());
const log = (line: string) => console.log(line);
if (drain) {
  while (
    (await runImportJobs(database.prisma, {
      signal: controller.signal,
      onProgress: (job) => log(`[import] ${job.fileName}: ${job.processed}/${job.total} rows`),
    })) > 0
  );
}
// Stopped with the index worker; awaited before the database closes, so no batch is cut short.
const imports = drain ? Promise.resolve() : runImportLoop(database.prisma, { signal: controller.signal, takeOverOnStart: database.mode !== "server", log });
const worker = await configuredWorker(database);
console.log(`[worker] indexing into ${worker.space.name}${drain ? " until the queue is empty" : ""}`);
const progress = await runWorker({
  ...worker,
  drain,
  signal: controller.signal,
  log: (line) => console.warn(line),
  onProgress: (state) => console.log(`[worker] ${state.indexed} indexed, ${state.remaining} waiting, ${state.parked} parked`),
  // As the embedded app's own worker does: a space nobody has measured gets its fusion weights
  // from the golden set's dev half once the queue drains (a no-op once measured, or without one).
  onDrained: () => calibrateUnmeasuredSpace(database.prisma, database.sql, log),
});
await imports;
console.log(`[worker] stopped: ${JSON.stringify(progress)}`);
await database.close();

/**
 * Lowers this process's CPU priority before any thread starts (model threads and the thread pool
 * inherit it), so a worker beside the web process on one machine yields the cores to requests.
 * Never raises it: an operator who started the worker with `nice -n -5` keeps that.
 */
function lowerPriority(nice: number) {
  try {
    if (nice > getPriority()) setPriority(nice);
  } catch (error) {
    console.warn(`[worker] could not lower the CPU priority to ${nice}: ${(error as Error).message}`);
  }
}
