/**
 * `npm run worker`: an index worker for server mode (any number may run against one database).
 * `--drain` stops when the queue is empty.
 */
import { configuredDatabaseOptions, openDatabase } from "../lib/db/database";
import { configuredWorker } from "../lib/rag/index/configured-indexer";
import { runWorker } from "../lib/rag/index/run-worker";
import { checkConfigurationOrExit } from "../lib/runtime";

checkConfigurationOrExit();
const drain = process.argv.includes("--drain");
const database = await openDatabase({ ...configuredDatabaseOptions(), log: (line) => console.log(`[db] ${line}`) });
const controller = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => controller.abort());
const worker = await configuredWorker(database);
console.log(`[worker] indexing into ${worker.space.name}${drain ? " until the queue is empty" : ""}`);
const progress = await runWorker({
  ...worker,
  drain,
  signal: controller.signal,
  log: (line) => console.warn(line),
  onProgress: (state) => console.log(`[worker] ${state.indexed} indexed, ${state.remaining} waiting, ${state.parked} parked`),
});
console.log(`[worker] stopped: ${JSON.stringify(progress)}`);
await database.close();
