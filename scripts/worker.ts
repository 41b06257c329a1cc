/**
 * `npm run worker`: an index worker for server mode (any number may run against one database).
 * `--drain` stops when the queue is empty.
 */
import { configuredDatabaseOptions, openDatabase } from "../lib/db/database";
import { configuredIndexer } from "../lib/rag/index/configured-indexer";
import { writableSpaces } from "../lib/rag/index/space-embedders";
import { runWorker } from "../lib/rag/index/run-worker";
import { checkConfigurationOrExit } from "../lib/runtime";

checkConfigurationOrExit();
const drain = process.argv.includes("--drain");
const database = await openDatabase({ ...configuredDatabaseOptions(), log: (line) => console.log(`[db] ${line}`) });
const controller = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => controller.abort());
const { embedder, space, objects } = await configuredIndexer(database.sql);
console.log(`[worker] indexing into ${space.name}${drain ? " until the queue is empty" : ""}`);
const progress = await runWorker({
  prisma: database.prisma,
  sql: database.sql,
  embedder,
  space,
  objects,
  extraSpaces: () => writableSpaces(database.sql),
  drain,
  signal: controller.signal,
  log: (line) => console.warn(line),
  onProgress: (state) => console.log(`[worker] ${state.indexed} indexed, ${state.remaining} waiting, ${state.parked} parked`),
});
console.log(`[worker] stopped: ${JSON.stringify(progress)}`);
await database.close();
