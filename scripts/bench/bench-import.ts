/**
 * `npm run bench:import`: bulk import throughput on a fresh embedded database (PGlite in a
 * temporary folder). Generates a CSV for the demo's Publications section (title, authors by
 * name, language, type, year, abstract, subjects), then measures rows/s of the dry run, of the
 * import job (startImport's check + the worker's batches), and of re-importing the same file
 * (every row unchanged); the longest the event loop was held (what any web request would wait),
 * the longest a request reading the database waited meanwhile (for the loop, then behind the
 * import's transaction: PGlite runs one at a time), and peak memory.
 *
 *   MNEMO_BENCH_IMPORT_ROWS=10000   rows to generate
 *   MNEMO_BENCH_IMPORT_BATCH_ROWS=50  rows per transaction (unset: importBatchRows(), 50 embedded)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dryRunImport, getImportJob, runImportJobs, startImport, type ImportFile, type ImportPlan } from "../../lib/archive/import";
import { importBatchRows } from "../../lib/archive/import/import-jobs";
import { importRecords } from "../../lib/archive/import-records";
import { loadPrincipal } from "../../lib/auth/load-principal";
import { openDatabase } from "../../lib/db/database";
import type { Prisma } from "../../lib/db/generated/client";
import { peopleSection, placeSection, publicationSection } from "../../prisma/seed/text-collections";

const rowCount = Number(process.env.MNEMO_BENCH_IMPORT_ROWS ?? 10_000);
const batchSize = Number(process.env.MNEMO_BENCH_IMPORT_BATCH_ROWS ?? importBatchRows());

let peakRss = 0;
// The process peaks while PGlite opens and migrates, before any row: the import's own peak apart.
let importPeakRss = 0;
const sampler = setInterval(() => {
  const rss = process.memoryUsage().rss;
  peakRss = Math.max(peakRss, rss);
  importPeakRss = Math.max(importPeakRss, rss);
}, 50);
const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
// The longest a 10 ms timer fired late: how long a web request in this process would have waited.
let longestStall = 0;
let stallTimer: NodeJS.Timeout | undefined;
function watchStalls(on: boolean) {
  clearInterval(stallTimer);
  if (!on) return;
  longestStall = 0;
  let last = performance.now();
  stallTimer = setInterval(() => {
    const now = performance.now();
    longestStall = Math.max(longestStall, now - last - 10);
    last = now;
  }, 10);
}

// A web request that reads the database, arriving every 50 ms: the longest from its arrival to
// its answer. It waits for the event loop (to be read at all) and for PGlite's current
// transaction (its query queues behind it).
let longestQueryWait = 0;
let probing = false;
async function probeQueries(prisma: { $queryRaw: (query: TemplateStringsArray) => Promise<unknown> }): Promise<void> {
  longestQueryWait = 0;
  while (probing) {
    const arrives = performance.now() + 50;
    await new Promise((resolve) => setTimeout(resolve, 50));
    await prisma.$queryRaw`SELECT 1`;
    longestQueryWait = Math.max(longestQueryWait, performance.now() - arrives);
  }
}

const dataDir = mkdtempSync(join(tmpdir(), "mnemo-bench-import-"));
const db = await openDatabase({ dataDir });
try {
  const { prisma } = db;
  const project = await prisma.project.create({ data: { slug: "bench", name: "Benchmark" } });
  const user = await prisma.user.create({ data: { email: "curator@bench.test", name: "Bench Curator", role: "curator" } });
  await prisma.membership.create({ data: { userId: user.id, projectId: project.id, role: "editor" } });
  const principal = await loadPrincipal(prisma, user.id, user.sessionVersion);
  if (!principal) throw new Error("no principal");
  for (const [position, section] of [publicationSection, peopleSection, placeSection].entries()) {
    await prisma.section.create({ data: { ...section, fields: section.fields as unknown as Prisma.InputJsonValue, position } });
  }
  const authors = Array.from({ length: 60 }, (_, index) => `Author ${index + 1}`);
  await importRecords(prisma, { sectionSlug: "people", projectId: project.id, items: authors.map((name) => ({ values: { name } })) });

  const types = ["article", "report", "book chapter", "guide", "essay"];
  const sentence = "The reservoir drowned the valley's fields, mills and the church of Sant Romà; the families moved to the towns downstream.";
  const lines = ["id,Title,Authors,Language,Type,Published in,Year,Abstract,Subjects"];
  for (let row = 1; row <= rowCount; row++) {
    const abstract = `${sentence} Record ${row}, "part ${row % 7}", on page ${row % 300}. ${sentence}`;
    lines.push(
      [
        `pub-${row}`,
        `Report ${row} on the Segrell valley`,
        `${authors[row % authors.length]} | ${authors[(row * 7) % authors.length]}`,
        ["en", "es", "ca"][row % 3],
        types[row % types.length],
        `Bulletin ${row % 40}`,
        String(1950 + (row % 70)),
        `"${abstract.replace(/"/g, '""')}"`,
        "reservoir; displacement; memory",
      ].join(","),
    );
  }
  const file: ImportFile = { fileName: "publications.csv", bytes: new TextEncoder().encode(`${lines.join("\r\n")}\r\n`) };
  const plan: ImportPlan = {
    sectionSlug: "publications",
    projectId: project.id,
    mapping: {
      externalIdColumn: "id",
      columns: {
        Title: "title",
        Authors: "authors",
        Language: "language",
        Type: "publicationType",
        "Published in": "publishedIn",
        Year: "year",
        Abstract: "abstract",
        Subjects: "subjects",
      },
    },
  };
  console.log(`file: ${rowCount} rows, ${(file.bytes.byteLength / 1024 / 1024).toFixed(1)} MB; ${batchSize} rows per batch`);

  const timed = async <T>(work: () => Promise<T>): Promise<{ value: T; seconds: number }> => {
    const started = performance.now();
    const value = await work();
    return { value, seconds: (performance.now() - started) / 1000 };
  };
  const rate = (seconds: number) => `${(rowCount / seconds).toFixed(0)} rows/s (${seconds.toFixed(1)} s)`;

  const setupRss = process.memoryUsage().rss;
  importPeakRss = 0;
  watchStalls(true);
  const dryRun = await timed(() => dryRunImport(prisma, principal, file, plan));
  watchStalls(false);
  console.log(`dry run:   ${rate(dryRun.seconds)}; ${dryRun.value.valid} valid, ${dryRun.value.problems.length} problems`);
  console.log(`           longest event-loop stall during the dry run: ${longestStall.toFixed(0)} ms`);

  watchStalls(true);
  probing = true;
  const probe = probeQueries(prisma);
  const start = await timed(() => startImport(prisma, principal, file, plan, { storageDir: dataDir }));
  const run = await timed(() => runImportJobs(prisma, { storageDir: dataDir, batchSize }));
  probing = false;
  await probe;
  watchStalls(false);
  const job = await getImportJob(prisma, principal, start.value.jobId);
  console.log(
    `import:    ${rate(start.seconds + run.seconds)} (check ${start.seconds.toFixed(1)} s + batches ${run.seconds.toFixed(1)} s); ${job.created} new, ${job.skipped} skipped, ${job.status}`,
  );
  console.log(`           longest event-loop stall during the import: ${longestStall.toFixed(0)} ms`);
  console.log(`           longest wait of a request reading the database: ${longestQueryWait.toFixed(0)} ms`);
  const queued = await prisma.indexQueueItem.count();
  console.log(`           index queue rows: ${queued}`);

  const again = await timed(async () => {
    const { jobId } = await startImport(prisma, principal, file, plan, { storageDir: dataDir });
    await runImportJobs(prisma, { storageDir: dataDir, batchSize });
    return getImportJob(prisma, principal, jobId);
  });
  console.log(`re-import: ${rate(again.seconds)}; ${again.value.created} new, ${again.value.unchanged} unchanged`);
  console.log(`peak memory (rss): ${megabytes(peakRss)}; from the dry run on: ${megabytes(importPeakRss)} (${megabytes(setupRss)} before it)`);
} finally {
  clearInterval(sampler);
  await db.close();
  rmSync(dataDir, { recursive: true, force: true });
}
