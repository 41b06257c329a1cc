/**
 * `npm run reindex -- --section <slug> | --all`: queues records for indexing and drains the
 * queue here with a progress bar. In embedded mode, stop the app first (PGlite has one owner);
 * in server mode running workers share the work.
 */
import { exitWithUsage, parseArgsOrExit } from "./command-line";
import { configuredDatabaseOptions, openDatabase } from "../lib/db/database";
import { configuredWorker } from "../lib/rag/index/configured-indexer";
import { enqueueReindex } from "../lib/rag/index/index-queue";
import { runWorker } from "../lib/rag/index/run-worker";

const usage = "usage: npm run reindex -- --section <slug> | --all";
const { values } = parseArgsOrExit({ options: { section: { type: "string" }, all: { type: "boolean" } }, strict: true }, usage);
const sectionSlug = values.section;
if (!values.all && !sectionSlug) exitWithUsage(usage);
const database = await openDatabase(configuredDatabaseOptions());
try {
  let sectionId: string | undefined;
  if (sectionSlug) {
    const section = await database.prisma.section.findUnique({ where: { slug: sectionSlug } });
    if (!section) {
      console.error(`There is no section called "${sectionSlug}".`);
      process.exit(2);
    }
    sectionId = section.id;
  }
  const queued = await enqueueReindex(database.sql, { sectionId });
  console.log(`queued ${queued} records`);
  const worker = await configuredWorker(database);
  const started = Date.now();
  const bar = (done: number, total: number) => {
    const width = 30;
    const filled = total ? Math.round((done / total) * width) : width;
    const rate = done / Math.max(1, (Date.now() - started) / 1000);
    process.stdout.write(`\r[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${done}/${total} records  ${rate.toFixed(1)}/s `);
  };
  const progress = await runWorker({
    ...worker,
    drain: true,
    idleMs: 500,
    onProgress: (state) => bar(state.indexed + state.parked, state.indexed + state.parked + state.remaining),
  });
  process.stdout.write("\n");
  console.log(
    `done: ${progress.indexed} indexed, ${progress.parked} parked; embedded ${progress.embedded} passages, reused ${progress.reused}, from cache ${progress.cached}`,
  );
} finally {
  await database.close();
}
