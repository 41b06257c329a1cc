/**
 * `npm run bench:index`: indexing throughput of the full pipeline (group documents, chunking,
 * language detection, the Apertium bridge, the embedding cache, the model, the database) as a
 * ratio of the raw embedder's throughput on the same texts; embed calls when re-indexing the
 * unchanged corpus; peak memory. Runs on a throwaway in-memory database.
 *
 *   MNEMO_BENCH_SCIFACT=500    SciFact abstracts to index (0 to skip; the corpus has 5,183)
 *   MNEMO_BENCH_DEMO=small     demo archive size: small | full | none
 *   MNEMO_EMBEDDER=…           the embedder to measure (default: local USE lite)
 */
import { existsSync, readFileSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { importRecords } from "../../lib/archive/import-records";
import { openDatabase } from "../../lib/db/database";
import type { Embedder } from "../../lib/rag/embed/embedder";
import { configuredIndexer } from "../../lib/rag/index/configured-indexer";
import { enqueueReindex } from "../../lib/rag/index/index-queue";
import { runWorker } from "../../lib/rag/index/run-worker";
import { seedDemo } from "../../prisma/seed/seed-demo";
import { createScifactSection } from "./scifact-section";

const scifactCount = Number(process.env.MNEMO_BENCH_SCIFACT ?? 500);
const demoSize = process.env.MNEMO_BENCH_DEMO ?? "small";
const scifactPath = join(process.cwd(), "..", "shared", "data", "eval", "scifact", "corpus.jsonl");

let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);

function counting(inner: Embedder) {
  const counter = { calls: 0, texts: 0 };
  const embedder: Embedder = {
    ...inner,
    embed: async (texts, kind) => {
      counter.calls++;
      counter.texts += texts.length;
      return inner.embed(texts, kind);
    },
  };
  return { embedder, counter };
}

const db = await openDatabase({ dataDir: "memory://" });
const storageDir = mkdtempSync(join(tmpdir(), "mnemo-bench-"));
if (demoSize === "small" || demoSize === "full") {
  await seedDemo(db.prisma, db.sql, { dataDir: join(process.cwd(), "prisma", "seed", "data"), storageDir, size: demoSize });
}
if (scifactCount > 0) {
  if (!existsSync(scifactPath)) throw new Error(`SciFact corpus not found at ${scifactPath}`);
  const project = await db.prisma.project.create({ data: { slug: "bench-scifact", name: "SciFact (benchmark)" } });
  await createScifactSection(db);
  const lines = readFileSync(scifactPath, "utf8").split("\n").filter(Boolean).slice(0, scifactCount);
  await importRecords(db.prisma, {
    sectionSlug: "scifact",
    projectId: project.id,
    actorId: null,
    items: lines.map((line) => {
      const doc = JSON.parse(line) as { title: string; text: string };
      return { values: { title: doc.title.slice(0, 2000) || "Untitled", abstract: doc.text } };
    }),
  });
}

const { embedder: configured, space } = await configuredIndexer(db.sql);
const { embedder, counter } = counting(configured);
// Warm the model so loading time is not counted as throughput.
await configured.embed(["warm up"], "passage");

const records = await enqueueReindex(db.sql, {});
let started = performance.now();
const first = await runWorker({ prisma: db.prisma, sql: db.sql, embedder, space, drain: true, idleMs: 20, batchSize: 32 });
const pipelineSeconds = (performance.now() - started) / 1000;
const [{ chunks } = { chunks: 0 }] = await db.sql.query<{ chunks: number }>(`SELECT count(*)::int AS chunks FROM chunks WHERE index_space_id = $1`, [space.id]);

// The raw model on exactly the texts the pipeline embedded.
const texts = (await db.sql.query<{ embedded_text: string }>(`SELECT DISTINCT embedded_text FROM chunks WHERE index_space_id = $1`, [space.id])).map(
  (row) => row.embedded_text,
);
started = performance.now();
for (let offset = 0; offset < texts.length; offset += 32) await configured.embed(texts.slice(offset, offset + 32), "passage");
const rawSeconds = (performance.now() - started) / 1000;

counter.calls = 0;
counter.texts = 0;
await enqueueReindex(db.sql, {});
started = performance.now();
await runWorker({ prisma: db.prisma, sql: db.sql, embedder, space, drain: true, idleMs: 20, batchSize: 32 });
const unchangedSeconds = (performance.now() - started) / 1000;
clearInterval(sampler);

const pipelineRate = chunks / pipelineSeconds;
const rawRate = texts.length / rawSeconds;
console.log(`embedder: ${space.name}`);
console.log(
  `corpus: demo=${demoSize}, scifact=${scifactCount} → ${records} records, ${chunks} passages (${texts.length} distinct embedded texts), ${first.parked} parked`,
);
console.log(`full pipeline: ${pipelineSeconds.toFixed(1)} s, ${pipelineRate.toFixed(1)} passages/s`);
console.log(`raw embedder on the same texts: ${rawSeconds.toFixed(1)} s, ${rawRate.toFixed(1)} texts/s`);
console.log(`ratio pipeline / raw: ${(pipelineRate / rawRate).toFixed(2)} (goal ≥ 0.8)`);
console.log(`re-index of the unchanged corpus: ${unchangedSeconds.toFixed(1)} s, ${counter.calls} embed calls, ${counter.texts} texts embedded (goal 0)`);
console.log(`peak RSS: ${(peakRss / 1024 / 1024).toFixed(0)} MiB`);
await db.close();
