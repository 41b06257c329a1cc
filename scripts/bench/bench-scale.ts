/**
 * `npm run bench:scale -- [--passages 100000,1000000] [--databases postgres,pglite] [--queries 30] [--keep] [--with-demo] [--halfvec] [--hnsw-builds 16:64,32:128] [--dense-walks 1000:60,400:4000]`
 *
 * An archive shaped like the demo (scripts/bench/scale-archive.ts: hour-long interviews, publications,
 * people, places and catalogue objects in English, Spanish and Catalan, over fifty projects, a
 * researcher who reads one of them, about 2%, and one who reads twenty-five, about half) is built
 * to each size on a real PostgreSQL (a cluster kept under .bench/scale, scripts/postgres-cluster.mjs's
 * benchmark settings) and on PGlite, side by side, and measured:
 * - ingest: records written and indexed by the app's own indexer (lib/rag/index: chunking, passage
 *   rows, search vectors, keyword statistics, scopes), with the HNSW index dropped during the load
 *   and built after (its build time is the next figure). What the archive says and how its vectors
 *   are made (scale-archive.ts, scale-corpus.ts): its text is runs of SciFact abstracts' sentences
 *   (other subjects than the demo's, so the demo inside it meets distractors, not its own answers)
 *   in English and Apertium's Spanish and Catalan; every four-sentence unit of those abstracts has
 *   the real embedder's (USE lite) vector of its English, and a passage's vector is the mean of its
 *   sentences' units' vectors with Gaussian noise, normalised. The run embeds a sample of the
 *   archive's passages with the real model and prints how close each synthetic vector is to the
 *   real one of the same text, and the mean cosine of two passages of one record and of two
 *   records, real and synthetic. The model's rate (measured on the units) says how long the real
 *   embedder would take. Passages are embedded as written, without the Apertium bridge; queries
 *   go through the configured query path as served.
 * - the HNSW index build, RAM (PostgreSQL: the summed proportional set size of its processes;
 *   PGlite: this process's RSS, which also holds the model), disk (database, passages, HNSW index);
 * - keyword, semantic and hybrid search p50/p95 through searchArchive as the admin and each reader
 *   (one warm-up pass, then the measured pass), whether the 2% reader gets a full first page, HNSW
 *   recall@10 of the dense leg against exact search under each principal's access filter, the record
 *   list with facets p95, and a question answered by the extractive reader, p95.
 * With --with-demo (PostgreSQL), the quality check: the full demo is seeded and indexed by
 * eval:archive into a copy of the built archive (CREATE DATABASE … TEMPLATE) and into an empty
 * database, the demo's researcher is made a member of every synthetic project (the distractors
 * are readable, as they are to the admin), and eval:archive's test half is run on both as the
 * researcher and the admin: the nDCG@10 the demo keeps inside the archive against the demo alone.
 * With --halfvec (PostgreSQL), what half-precision vectors would save: a second HNSW index over
 * the passages' vectors cast to halfvec is built beside the served one, and its size, build time,
 * recall@10 against exact search (its 60 nearest re-ranked at full precision, as the dense leg
 * would) and dense p95 are printed beside the served index's; then it is dropped.
 * With --hnsw-builds m:ef_construction,… (PostgreSQL), HNSW graphs compared instead of the
 * measures above (compareHnswBuilds): recall@10 against exact search and latency of each graph,
 * built on a copy of the archive's vectors, at ef_search 100, 400 and 1,000.
 * With --dense-walks ef_search:walk,… the served dense leg compared instead (compareDenseWalks):
 * recall@10 and latency as each principal when it takes `walk` passages from the graph, past its
 * beam, before keeping the nearest (decision 0011).
 * Figures only; nothing is asserted. --keep keeps (and reuses) the built archives.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import pgvector from "pgvector";
import { type Principal, passageScopeSql } from "../../lib/acl";
import { listRecordsQuerySchema, listRecords } from "../../lib/archive/list-records";
import { recordFacets } from "../../lib/archive/record-facets";
import { loadPrincipal } from "../../lib/auth/load-principal";
import { getConfig } from "../../lib/config";
import { openDatabase, type Database } from "../../lib/db/database";
import { ask } from "../../lib/rag/ask/ask";
import { CHUNKER_VERSION } from "../../lib/rag/chunk";
import { listEmbedGroups, sectionShapes } from "../../lib/rag/config/embed-groups";
import { createEmbedder, embedderConfigFromEnv } from "../../lib/rag/embed/create-embedder";
import type { Embedder } from "../../lib/rag/embed/embedder";
import { indexRecords } from "../../lib/rag/index/index-record";
import { ensureIndexSpace, hnswIndexStatement, type IndexSpace, isValidHnswBuild } from "../../lib/rag/index/index-spaces";
import { saveEmbedGroup } from "../../lib/rag/index/save-embed-group";
import { denseLeg } from "../../lib/rag/search/retrieve-passages";
import { type SearchMode, denseEfSearch, denseReading, denseReadingLabel, embedQuery, searchArchive } from "../../lib/rag/search/search-archive";
import { runtimeOver } from "../../lib/runtime";
import { createRng, hashString } from "../../prisma/seed/prng";
import { settingsForBenchmarks, startCluster, type Cluster } from "../postgres-cluster.mjs";
import { type Corpus, type RecordKind, generateRecord, passageVector, planArchive, projectCount, readers } from "./scale-archive";
import { loadScaleCorpus } from "./scale-corpus";
import { exactTop } from "./vector-plans";

const { values: args } = parseArgs({
  options: {
    passages: { type: "string", default: "100000" },
    databases: { type: "string", default: "postgres,pglite" },
    queries: { type: "string", default: "30" },
    keep: { type: "boolean", default: false },
    "with-demo": { type: "boolean", default: false },
    halfvec: { type: "boolean", default: false },
    "hnsw-builds": { type: "string" },
    "dense-walks": { type: "string" },
  },
});
/** "a:b,c:d" as number pairs ("" → none). */
const numberPairs = (text: string | undefined): [number, number][] =>
  (text ?? "")
    .split(",")
    .filter(Boolean)
    .map((pair) => pair.split(":").map(Number) as [number, number]);
/** --dense-walks 1000:60,400:4000 — dense legs (ef_search:walk) to compare instead of the usual measures. */
const denseWalks = numberPairs(args["dense-walks"]).map(([efSearch, walk]) => ({ efSearch, walk }));
/** --hnsw-builds 16:64,32:128 — HNSW graphs (m:ef_construction) to compare instead of the usual measures. */
const hnswBuilds = numberPairs(args["hnsw-builds"]).map(([m, efConstruction]) => ({ m, efConstruction }));
const sizes = args.passages.split(",").map((value) => Number(value.trim()));
const databases = args.databases.split(",").map((value) => value.trim()) as ("postgres" | "pglite")[];
const queryCount = Number(args.queries);
if (
  sizes.some((size) => !Number.isInteger(size) || size < 1000) ||
  databases.some((name) => name !== "postgres" && name !== "pglite") ||
  !(queryCount > 0) ||
  !hnswBuilds.every(isValidHnswBuild) ||
  !denseWalks.every(({ efSearch, walk }) => Number.isInteger(efSearch) && efSearch >= 10 && efSearch <= 1000 && Number.isInteger(walk) && walk >= 10)
) {
  console.error(
    "usage: npm run bench:scale -- [--passages 100000,1000000] [--databases postgres,pglite] [--queries 30] [--keep] [--with-demo] [--halfvec] [--hnsw-builds 16:64,32:128] [--dense-walks 1000:60,400:4000]",
  );
  process.exit(2);
}
const root = join(".bench", "scale");
/** The archive generator's version: a kept archive of another version is built again. */
const generatorVersion = 2;
/** SciFact abstracts the archive's text is made of (BENCH_SCALE_ABSTRACTS). */
const abstractCount = Number(process.env.BENCH_SCALE_ABSTRACTS ?? 2_000);
/** The noise added to a passage's vector, in each dimension's spread across the units. */
const vectorNoise = Number(process.env.BENCH_SCALE_VECTOR_NOISE ?? 0.25);
const sampleSize = 1_500;
const recordBatch = 40;
const seed = "mnemo-scale";

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const ms = (value: number) => (Number.isNaN(value) ? "–" : value.toFixed(0));
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const log = (line: string) => console.log(`[bench:scale] ${line}`);

/** The sections of the scale archive: one long text each, as the demo's collections are embedded. */
const sections: { kind: RecordKind; slug: string; name: string; chunking: "long_document" | "short"; maxTokens: number }[] = [
  { kind: "interviews", slug: "scale-interviews", name: "Interviews", chunking: "long_document", maxTokens: 160 },
  { kind: "publications", slug: "scale-publications", name: "Publications", chunking: "long_document", maxTokens: 160 },
  { kind: "people", slug: "scale-people", name: "People", chunking: "short", maxTokens: 256 },
  { kind: "places", slug: "scale-places", name: "Places", chunking: "short", maxTokens: 256 },
  { kind: "objects", slug: "scale-objects", name: "Objects", chunking: "short", maxTokens: 256 },
];

/** Vectors made from the units' real ones (see the header): deterministic per text. */
function syntheticEmbedder(real: Embedder, corpus: Corpus, spread: Float32Array, unplaced: { count: number }): Embedder {
  return {
    provider: real.provider,
    model: real.model,
    dimension: real.dimension,
    maxInputTokens: real.maxInputTokens,
    // "multilingual": the indexer embeds every passage as written, without the Apertium bridge.
    language: "multilingual",
    async embed(texts) {
      return texts.map((text) => {
        const vector = passageVector(corpus, text, spread, vectorNoise);
        if (vector) return vector;
        // No sentence of the corpus, whole or cut: a unit chosen by the text.
        unplaced.count++;
        const unit = corpus.units[hashString(text) % corpus.units.length]!;
        return passageVector(corpus, unit.sentences.en.join(" "), spread, vectorNoise)!;
      });
    },
  };
}

/** Mean cosine between two vectors of one group and of two groups (unit vectors). */
function cosineGeometry(vectors: Float32Array[], groups: string[]): { within: number; between: number } {
  let within = 0;
  let withinPairs = 0;
  let between = 0;
  let betweenPairs = 0;
  for (let left = 0; left < vectors.length; left++) {
    for (let right = left + 1; right < vectors.length; right++) {
      let dot = 0;
      for (let index = 0; index < vectors[left]!.length; index++) dot += vectors[left]![index]! * vectors[right]![index]!;
      if (groups[left] === groups[right]) {
        within += dot;
        withinPairs++;
      } else {
        between += dot;
        betweenPairs++;
      }
    }
  }
  return { within: within / Math.max(1, withinPairs), between: between / Math.max(1, betweenPairs) };
}

interface Target {
  name: "postgres" | "pglite";
  size: number;
  database: Database;
  /** Bytes of memory the database holds now. */
  memory(): number;
  directory?: string;
  close(): Promise<void>;
}

function postgresMemory(): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/comm`, "utf8").startsWith("postgres")) continue;
      const pss = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${entry}/smaps_rollup`, "utf8"));
      total += Number(pss?.[1] ?? 0) * 1024;
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}

/** Whether a kept archive of this size was built, by this generator. */
function builtBefore(name: string, size: number): boolean {
  const marker = join(root, `${name}-${size}.json`);
  return existsSync(marker) && (JSON.parse(readFileSync(marker, "utf8")) as IngestFigures).generator === generatorVersion;
}

async function openTarget(name: "postgres" | "pglite", size: number, cluster: Cluster | null): Promise<Target> {
  if (name === "postgres") {
    const databaseName = `scale_${size}`;
    const admin = new pg.Client({ connectionString: cluster!.url });
    await admin.connect();
    const exists = (await admin.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [databaseName])).rowCount === 1;
    const ready = builtBefore(name, size);
    if (exists && !(args.keep && ready)) await admin.query(`DROP DATABASE "${databaseName}" WITH (FORCE)`);
    if (!exists || !(args.keep && ready)) await admin.query(`CREATE DATABASE "${databaseName}"`);
    await admin.end();
    const url = new URL(cluster!.url);
    url.pathname = `/${databaseName}`;
    const database = await openDatabase({ url: url.toString(), poolSize: 10 });
    return { name, size, database, memory: postgresMemory, close: () => database.close() };
  }
  const directory = join(root, `pglite-${size}`);
  if (!(args.keep && builtBefore(name, size))) rmSync(directory, { recursive: true, force: true });
  const database = await openDatabase({ dataDir: join(directory, "pgdata") });
  return { name, size, database, memory: () => process.memoryUsage().rss, directory, close: () => database.close() };
}

interface IngestFigures {
  /** The generator that built the archive (generatorVersion). */
  generator?: number;
  records: number;
  passages: number;
  ingestSeconds: number;
  passagesPerSecond: number;
  embedderPassagesPerSecond: number;
  indexBuildSeconds: number;
}

/** Sections, embed groups, projects, the three principals, the active space; returns the space. */
async function setUp(database: Database, real: Embedder): Promise<IndexSpace> {
  const { prisma, sql } = database;
  for (const section of sections) {
    await prisma.section.create({
      data: {
        slug: section.slug,
        name: section.name,
        fields: [
          { key: "title", label: "Title", type: "text", required: true, listed: true },
          { key: "text", label: "Text", type: "longtext" },
        ],
      },
    });
    await saveEmbedGroup(prisma, sql, {
      sectionSlug: section.slug,
      group: { slug: "text", label: "Text", fields: ["title", "text"], chunking: section.chunking, maxTokens: section.maxTokens, minTokens: 24, overlap: 0 },
      requeue: false,
    });
  }
  await prisma.project.createMany({
    data: Array.from({ length: projectCount }, (_, index) => ({ slug: `scale-${index}`, name: `Scale project ${index}`, restricted: index % 2 === 0 })),
  });
  const projects = await prisma.project.findMany({ where: { slug: { startsWith: "scale-" } } });
  const projectId = (index: number) => projects.find((project) => project.slug === `scale-${index}`)!.id;
  await prisma.user.create({ data: { email: "admin@scale.bench", name: "Admin", role: "admin" } });
  for (const [label, readable] of Object.entries(readers)) {
    const user = await prisma.user.create({ data: { email: `${label.replace(/\W+/g, "")}@scale.bench`, name: label, role: "researcher" } });
    await prisma.membership.createMany({ data: readable.map((index) => ({ userId: user.id, projectId: projectId(index), role: "reader" as const })) });
  }
  return ensureIndexSpace(sql, { provider: real.provider, model: real.model, dimension: real.dimension, chunkerVersion: CHUNKER_VERSION });
}

/** Records of every kind, interleaved, until the archive holds `passages` passages. */
function* recordOrder(passages: number): Generator<{ kind: RecordKind; index: number }> {
  const plan = planArchive(passages);
  const kinds = Object.keys(plan) as RecordKind[];
  for (let round = 0; ; round++) {
    for (const kind of kinds) {
      // Each kind's share of the plan per round of 100 interviews' worth.
      const perRound = Math.max(1, Math.round(plan[kind] / (plan.interviews / 10)));
      for (let step = 0; step < perRound; step++) yield { kind, index: round * perRound + step };
    }
  }
}

async function build(target: Target, corpus: Corpus, real: Embedder): Promise<IngestFigures> {
  const { prisma, sql } = target.database;
  const space = await setUp(target.database, real);
  const hnsw = hnswIndexStatement(space);
  await sql.exec(`DROP INDEX IF EXISTS "${hnsw.name}"`);

  // The real embedder on a sample of the archive's English passages: its rate, and how close the
  // synthetic vectors of the same texts come (Spanish and Catalan passages get their units' English
  // vectors, as the bridge would embed their translation).
  const sampleTexts: string[] = [];
  for (let index = 0; sampleTexts.length < sampleSize; index++) {
    const record = generateRecord(corpus, index % 3 === 0 ? "people" : "interviews", 1_000_000 + index, projectCount, seed);
    if (record.language !== "en") continue;
    sampleTexts.push(
      ...record.text
        .split("\n\n")
        .slice(0, 3)
        .map((paragraph) => `${record.title} › ${paragraph}`),
    );
  }
  const { sample, embedderPassagesPerSecond } = await sampleVectors(real, sampleTexts);
  const spread = new Float32Array(real.dimension);
  const unitVectors = corpus.units.map((unit) => unit.vector);
  for (let index = 0; index < real.dimension; index++) {
    const mean = unitVectors.reduce((sum, vector) => sum + vector[index]!, 0) / unitVectors.length;
    spread[index] = Math.sqrt(unitVectors.reduce((sum, vector) => sum + (vector[index]! - mean) ** 2, 0) / unitVectors.length);
  }
  log(`${target.name} ${target.size}: real embedder ${embedderPassagesPerSecond.toFixed(0)} passages/s on ${sampleSize} sample passages`);
  const unplaced = { count: 0 };
  const synthetic = await syntheticEmbedder(real, corpus, spread, unplaced).embed(sampleTexts, "passage");
  const [realGeometry, syntheticGeometry] = [sample, synthetic].map((vectors) =>
    cosineGeometry(
      vectors,
      sampleTexts.map((text) => text.split(" › ")[0]!),
    ),
  );
  const sameText =
    sample.reduce((sum, vector, index) => sum + vector.reduce((dot, value, dimension) => dot + value * synthetic[index]![dimension]!, 0), 0) / sample.length;
  log(
    `${target.name} ${target.size}: mean cosine of a passage's real and synthetic vectors ${sameText.toFixed(3)}; of two passages of one record / of two records: real ${realGeometry!.within.toFixed(3)} / ${realGeometry!.between.toFixed(3)}, ` +
      `synthetic ${syntheticGeometry!.within.toFixed(3)} / ${syntheticGeometry!.between.toFixed(3)}`,
  );
  unplaced.count = 0;

  const sectionIds = new Map(
    (await prisma.section.findMany({ where: { slug: { in: sections.map((section) => section.slug) } } })).map((section) => [section.slug, section.id]),
  );
  const projectIds = new Map((await prisma.project.findMany({ where: { slug: { startsWith: "scale-" } } })).map((project) => [project.slug, project.id]));
  const groups = await listEmbedGroups(prisma);
  const groupsBySection = new Map<string, typeof groups>();
  for (const group of groups) groupsBySection.set(group.sectionId, [...(groupsBySection.get(group.sectionId) ?? []), group]);
  const context = { sql, space, embedder: syntheticEmbedder(real, corpus, spread, unplaced), sections: await sectionShapes(prisma), groupsBySection };

  const started = performance.now();
  let passages = 0;
  let records = 0;
  let lastReport = started;
  const order = recordOrder(target.size);
  // PostgreSQL runs two batches at once (one writes while the other is chunked); PGlite one at a time.
  const lanes = target.name === "postgres" ? 2 : 1;
  const lane = async () => {
    while (passages < target.size) {
      const batch = Array.from({ length: recordBatch }, () => order.next().value!).map(({ kind, index }) => ({
        kind,
        record: generateRecord(corpus, kind, index, projectCount, seed),
      }));
      const rows = batch.map(({ kind, record }) => ({
        sectionId: sectionIds.get(sections.find((section) => section.kind === kind)!.slug)!,
        projectId: projectIds.get(`scale-${record.project}`)!,
        title: record.title,
        values: { title: record.title, text: record.text, language: record.language },
      }));
      const created = await prisma.record.createManyAndReturn({ data: rows, select: { id: true } });
      const results = await indexRecords(
        context,
        created.map((row) => row.id),
      );
      passages += results.reduce((sum, result) => sum + result.chunks, 0);
      records += created.length;
      const now = performance.now();
      if (now - lastReport > 15_000) {
        lastReport = now;
        log(
          `${target.name} ${target.size}: ${records.toLocaleString("en")} records, ${passages.toLocaleString("en")} passages (${(passages / ((now - started) / 1000)).toFixed(0)} passages/s)`,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  const ingestSeconds = (performance.now() - started) / 1000;
  log(`${target.name} ${target.size}: ingested ${passages.toLocaleString("en")} passages in ${ingestSeconds.toFixed(0)} s; building the HNSW index…`);
  const indexStarted = performance.now();
  await sql.exec(hnsw.sql);
  const indexBuildSeconds = (performance.now() - indexStarted) / 1000;
  await sql.exec("ANALYZE");
  log(
    `${target.name} ${target.size}: ${unplaced.count.toLocaleString("en")} passages held no sentence of the corpus (their vector is a unit's chosen by their text)`,
  );
  return {
    generator: generatorVersion,
    records,
    passages,
    ingestSeconds,
    passagesPerSecond: passages / ingestSeconds,
    embedderPassagesPerSecond,
    indexBuildSeconds,
  };
}

/**
 * The real embedder's vectors for the sample passages and its rate, kept in .bench/scale (keyed by
 * the model and the texts) so a later run does not embed them again; the rate is the first run's.
 */
async function sampleVectors(real: Embedder, texts: string[]): Promise<{ sample: Float32Array[]; embedderPassagesPerSecond: number }> {
  const key = hashString(`${real.provider}/${real.model}/${real.dimension}\n${texts.join("\n")}`).toString(16);
  const file = join(root, `sample-${key}.json`);
  if (existsSync(file)) {
    const cached = JSON.parse(readFileSync(file, "utf8")) as { rate: number; vectors: number[][] };
    return { sample: cached.vectors.map((vector) => Float32Array.from(vector)), embedderPassagesPerSecond: cached.rate };
  }
  const started = performance.now();
  const sample: Float32Array[] = [];
  for (let start = 0; start < texts.length; start += 64) sample.push(...(await real.embed(texts.slice(start, start + 64), "passage")));
  const rate = texts.length / ((performance.now() - started) / 1000);
  writeFileSync(file, JSON.stringify({ rate, vectors: sample.map((vector) => Array.from(vector)) }));
  return { sample, embedderPassagesPerSecond: rate };
}

/** Queries from the archive's own sentences: four words of a sentence, in its language. */
function queriesFrom(corpus: Corpus, count: number): string[] {
  const rng = createRng(`${seed}:queries`);
  return Array.from({ length: count }, (_, index) => {
    const language = (["en", "es", "ca"] as const)[index % 3]!;
    const words = rng
      .pick(corpus.sentences[language])
      .split(/\s+/)
      .filter((word) => /^\p{L}{4,}$/u.test(word));
    return words.slice(0, 4).join(" ");
  }).filter((query) => query.length > 0);
}

/** The admin and each reader of the archive, labelled as the tables print them. */
async function benchPrincipals(database: Database): Promise<[string, Principal][]> {
  const { prisma } = database;
  const principalOf = async (email: string): Promise<Principal> => {
    const user = await prisma.user.findUniqueOrThrow({ where: { email } });
    return (await loadPrincipal(prisma, user.id, user.sessionVersion))!;
  };
  return [
    ["admin", await principalOf("admin@scale.bench")],
    ...(await Promise.all(
      Object.keys(readers).map(async (label) => [label, await principalOf(`${label.replace(/\W+/g, "")}@scale.bench`)] as [string, Principal]),
    )),
  ];
}

async function measure(target: Target, corpus: Corpus) {
  const { sql } = target.database;
  const principals = await benchPrincipals(target.database);
  const runtime = runtimeOver(target.database);
  const context = await runtime.search();
  const queries = queriesFrom(corpus, queryCount);
  const search: Record<string, { mode: SearchMode; p50: number; p95: number; fullPages: number }[]> = {};
  for (const [label, principal] of principals) {
    search[label] = [];
    for (const mode of ["keyword", "semantic", "hybrid"] as SearchMode[]) {
      for (const query of queries) await searchArchive(context, principal, { query, mode, limit: 10 });
      const times: number[] = [];
      let fullPages = 0;
      for (const query of queries) {
        const started = performance.now();
        const found = await searchArchive(context, principal, { query, mode, limit: 10 });
        times.push(performance.now() - started);
        if (found.hits.length >= 10) fullPages++;
      }
      search[label]!.push({ mode, p50: percentile(times, 50), p95: percentile(times, 95), fullPages });
    }
  }
  const space = (await runtime.space())!;
  const depth = 60;
  const recall: Record<string, number> = {};
  for (const [label, principal] of principals) {
    const values: number[] = [];
    for (const query of queries) {
      const vector = await embedQuery(context, query);
      const exact = await exactTop(sql, principal, space, vector, 10);
      const dense = await denseLeg(sql, principal, vector, { space, limit: depth, ...denseReading(context) });
      const found = new Set(dense.slice(0, 10).map((hit) => hit.chunkId));
      values.push(exact.length ? exact.filter((id) => found.has(id)).length / exact.length : 1);
    }
    recall[label] = values.reduce((sum, value) => sum + value, 0) / values.length;
  }
  const listTimes: number[] = [];
  const reader50 = principals[2]![1];
  for (let round = 0; round < 20; round++) {
    const query = listRecordsQuerySchema.parse(round % 2 === 0 ? { page: String(1 + (round % 5)) } : { section: sections[round % sections.length]!.slug });
    const started = performance.now();
    await Promise.all([listRecords(sql, reader50, query), recordFacets(sql, reader50, query)]);
    if (round >= 2) listTimes.push(performance.now() - started);
  }
  const askContext = await runtime.ask();
  const askTimes: number[] = [];
  for (const [index, query] of queries.slice(0, 12).entries()) {
    const started = performance.now();
    const answer = ask(askContext, reader50, { question: `What do the records say about ${query}?` });
    for (let step = await answer.next(); !step.done; step = await answer.next());
    if (index >= 2) askTimes.push(performance.now() - started);
  }
  const [sizes] = await sql.query<{ database: string; chunks: string; hnsw: string; graph: string[] | null }>(
    `SELECT pg_database_size(current_database())::text AS database, pg_total_relation_size('chunks')::text AS chunks,
            coalesce(pg_relation_size(to_regclass($1)), 0)::text AS hnsw,
            (SELECT reloptions FROM pg_class WHERE oid = to_regclass($1)) AS graph`,
    [`public."${hnswIndexStatement(space).name}"`],
  );
  // The graph as built (a kept archive keeps the graph it was built with) and the leg as served.
  const graph = (sizes!.graph ?? []).join(", ") || "pgvector's defaults";
  const served = `HNSW ${graph}; meaning leg: ${denseReadingLabel(denseReading(context))}`;
  const directoryBytes = target.directory ? Number(execFileSync("du", ["-sb", target.directory], { encoding: "utf8" }).split(/\s/)[0]) : null;
  return {
    search,
    recall,
    listP95: percentile(listTimes, 95),
    askP95: percentile(askTimes, 95),
    memoryBytes: target.memory(),
    databaseBytes: Number(sizes!.database),
    chunksBytes: Number(sizes!.chunks),
    hnswBytes: Number(sizes!.hnsw),
    served,
    directoryBytes,
  };
}

async function main() {
  mkdirSync(root, { recursive: true });
  const real = createEmbedder(embedderConfigFromEnv(getConfig().environment));
  const { corpus } = await loadScaleCorpus(real, { abstracts: abstractCount, cacheDir: root, log });
  const cluster = databases.includes("postgres")
    ? await startCluster({ dir: join(root, "cluster"), port: 3395, settings: settingsForBenchmarks, log: (line) => log(`postgres: ${line}`) })
    : null;
  const results: { target: string; size: number; ingest: IngestFigures; figures: Awaited<ReturnType<typeof measure>> }[] = [];
  try {
    for (const size of sizes) {
      for (const name of databases) {
        const marker = join(root, `${name}-${size}.json`);
        let target: Target;
        try {
          target = await openTarget(name, size, cluster);
        } catch (error) {
          log(`${name} ${size}: could not open: ${error instanceof Error ? error.message : String(error)}`);
          continue;
        }
        try {
          const ingest = args.keep && builtBefore(name, size) ? (JSON.parse(readFileSync(marker, "utf8")) as IngestFigures) : await build(target, corpus, real);
          writeFileSync(marker, JSON.stringify(ingest));
          if (hnswBuilds.length > 0) {
            if (name === "postgres") await compareHnswBuilds(target, corpus);
            continue;
          }
          if (denseWalks.length > 0) {
            await compareDenseWalks(target, corpus);
            continue;
          }
          const figures = await measure(target, corpus);
          results.push({ target: name, size, ingest, figures });
          printRun(name, size, ingest, figures);
          if (args.halfvec && name === "postgres") {
            await measureHalfvec(target, corpus).catch((error: unknown) =>
              log(`${name} ${size}: halfvec FAILED: ${error instanceof Error ? error.stack : String(error)}`),
            );
          }
        } catch (error) {
          log(`${name} ${size}: FAILED: ${error instanceof Error ? error.stack : String(error)}`);
        } finally {
          await target.close().catch(() => undefined);
          if (!args.keep && name === "pglite") rmSync(join(root, `pglite-${size}`), { recursive: true, force: true });
        }
        if (args["with-demo"] && name === "postgres") {
          await demoInside(cluster!, size).catch((error: unknown) =>
            log(`${name} ${size}: the demo inside FAILED: ${error instanceof Error ? error.stack : String(error)}`),
          );
        }
      }
    }
  } finally {
    cluster?.stop("fast");
  }
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, ${Math.round(totalmem() / 2 ** 30)} GiB; PostgreSQL settings: ${Object.entries(
    settingsForBenchmarks,
  )
    .map(([key, value]) => `${key}=${value}`)
    .join(" ")}`;
  console.log(`\nbench:scale — ${machine}`);
  writeFileSync(join(".bench", "scale.json"), JSON.stringify({ at: new Date().toISOString(), machine, queries: queryCount, results }, null, 2));
}

/** The archive's active space and the bench's queries embedded as served, one at a time (the model's queue holds 64 requests' jobs). */
async function benchQueryVectors(target: Target, corpus: Corpus): Promise<{ space: IndexSpace; vectors: Float32Array[] }> {
  const runtime = runtimeOver(target.database);
  const context = await runtime.search();
  const space = (await runtime.space())!;
  const vectors: Float32Array[] = [];
  for (const query of queriesFrom(corpus, queryCount)) vectors.push(await embedQuery(context, query));
  return { space, vectors };
}

/**
 * --hnsw-builds: the archive's vectors copied into a table of their own, the exact ten nearest
 * of each query found by a full scan, then for each graph (m, ef_construction) an index built on
 * the copy and its recall@10 and latency read at ef_search 100, 400 and 1,000 (as the admin, no
 * access filter: the case the graph alone decides). The served index is left as it is.
 */
async function compareHnswBuilds(target: Target, corpus: Corpus) {
  const { sql } = target.database;
  const { space, vectors: queryVectors } = await benchQueryVectors(target, corpus);
  const vectors = queryVectors.map((vector) => pgvector.toSql(Array.from(vector)) as string);
  await sql.exec(`DROP TABLE IF EXISTS bench_hnsw_probe`);
  await sql.exec(
    `CREATE TABLE bench_hnsw_probe AS SELECT id, embedding::vector(${space.dimension}) AS e FROM chunks WHERE index_space_id = '${space.id}' AND embedding IS NOT NULL`,
  );
  const exact: string[][] = [];
  const nearest: number[] = [];
  for (const vector of vectors) {
    const rows = await sql.query<{ id: string; similarity: number }>(
      `SELECT id, 1 - (e <=> $1) AS similarity FROM bench_hnsw_probe ORDER BY e <=> $1, id LIMIT 10`,
      [vector],
    );
    exact.push(rows.map((row) => row.id));
    nearest.push(Number(rows[0]?.similarity ?? 0));
  }
  console.log(
    `\n### HNSW graphs compared, ${target.name} ${target.size.toLocaleString("en")} passages, ${vectors.length} queries (the admin; exact top 10 by a full scan)`,
  );
  console.log(`nearest passage's cosine similarity: p10 ${percentile(nearest, 10).toFixed(2)}, p50 ${percentile(nearest, 50).toFixed(2)}`);
  console.log("| m | ef_construction | build s | index | ef_search | recall@10 | queries under 5/10 | p50 ms | p95 ms |");
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const build of hnswBuilds) {
    await sql.exec(`DROP INDEX IF EXISTS bench_hnsw_probe_idx`);
    const started = performance.now();
    await sql.exec(
      `CREATE INDEX bench_hnsw_probe_idx ON bench_hnsw_probe USING hnsw (e vector_cosine_ops) WITH (m = ${build.m}, ef_construction = ${build.efConstruction})`,
    );
    const buildSeconds = (performance.now() - started) / 1000;
    const [size] = await sql.query<{ bytes: string }>(`SELECT pg_relation_size('bench_hnsw_probe_idx')::text AS bytes`);
    for (const efSearch of [100, 400, 1000]) {
      let recall = 0;
      let poor = 0;
      const times: number[] = [];
      for (const [index, vector] of vectors.entries()) {
        const queryStarted = performance.now();
        const rows = await sql.transaction(async (tx) => {
          await tx.exec(`SET LOCAL hnsw.ef_search = ${efSearch}`);
          return tx.query<{ id: string }>(`SELECT id FROM bench_hnsw_probe ORDER BY e <=> $1 LIMIT 10`, [vector]);
        });
        times.push(performance.now() - queryStarted);
        const found = new Set(rows.map((row) => row.id));
        const share = exact[index]!.filter((id) => found.has(id)).length / Math.max(1, exact[index]!.length);
        recall += share;
        if (share < 0.5) poor += 1;
      }
      console.log(
        `| ${build.m} | ${build.efConstruction} | ${buildSeconds.toFixed(0)} | ${mib(Number(size!.bytes))} | ${efSearch} | ${(recall / vectors.length).toFixed(3)} | ${poor} | ${percentile(times, 50).toFixed(1)} | ${percentile(times, 95).toFixed(1)} |`,
      );
    }
  }
  await sql.exec(`DROP TABLE IF EXISTS bench_hnsw_probe`);
}

/**
 * --dense-walks: the served dense leg (`denseLeg`, the archive's own index and access filter) at each
 * ef_search:walk — the walk being how many passages it takes from the graph, past the beam, before
 * keeping the nearest — as the admin and each reader: recall@10 against exact search under the
 * same filter, queries that find under 5 of 10, and the leg's p50/p95 (one warm-up pass first).
 */
async function compareDenseWalks(target: Target, corpus: Corpus) {
  const { sql } = target.database;
  const { space, vectors } = await benchQueryVectors(target, corpus);
  console.log(
    `\n### Dense legs compared, ${target.name} ${target.size.toLocaleString("en")} passages, ${vectors.length} queries (a page of 60, as searchArchive reads)`,
  );
  console.log("| principal | ef_search | walk | recall@10 | queries under 5/10 | p50 ms | p95 ms |");
  console.log("|---|---|---|---|---|---|---|");
  for (const [label, principal] of await benchPrincipals(target.database)) {
    const exact: string[][] = [];
    for (const vector of vectors) exact.push(await exactTop(sql, principal, space, vector, 10));
    for (const { efSearch, walk } of denseWalks) {
      for (const vector of vectors.slice(0, 5)) await denseLeg(sql, principal, vector, { space, limit: 60, efSearch, walk });
      let recall = 0;
      let poor = 0;
      const times: number[] = [];
      for (const [index, vector] of vectors.entries()) {
        const started = performance.now();
        const hits = await denseLeg(sql, principal, vector, { space, limit: 60, efSearch, walk });
        times.push(performance.now() - started);
        const found = new Set(hits.slice(0, 10).map((hit) => hit.chunkId));
        const share = exact[index]!.length ? exact[index]!.filter((id) => found.has(id)).length / exact[index]!.length : 1;
        recall += share;
        if (share < 0.5) poor += 1;
      }
      console.log(
        `| ${label} | ${efSearch} | ${walk} | ${(recall / vectors.length).toFixed(3)} | ${poor} | ${percentile(times, 50).toFixed(0)} | ${percentile(times, 95).toFixed(0)} |`,
      );
    }
  }
}

/** The halfvec measurement (see the header), printed. */
async function measureHalfvec(target: Target, corpus: Corpus) {
  const { prisma, sql } = target.database;
  const runtime = runtimeOver(target.database);
  const context = await runtime.search();
  const space = (await runtime.space())!;
  const dimension = space.dimension;
  const name = `bench_halfvec_${space.id.replace(/-/g, "")}`;
  await sql.exec(`DROP INDEX IF EXISTS "${name}"`);
  const started = performance.now();
  await sql.exec(`CREATE INDEX "${name}" ON chunks USING hnsw ((embedding::halfvec(${dimension})) halfvec_cosine_ops) WHERE index_space_id = '${space.id}'`);
  const buildSeconds = (performance.now() - started) / 1000;
  const [sizes] = await sql.query<{ half: string; full: string }>(
    `SELECT pg_relation_size(to_regclass($1))::text AS half, pg_relation_size(to_regclass($2))::text AS full`,
    [`public."${name}"`, `public."${hnswIndexStatement(space).name}"`],
  );
  const queries = queriesFrom(corpus, queryCount);
  const vectors = await Promise.all(queries.map((query) => embedQuery(context, query)));
  const lines: string[] = [];
  for (const email of ["admin@scale.bench", ...Object.keys(readers).map((label) => `${label.replace(/\W+/g, "")}@scale.bench`)]) {
    const user = await prisma.user.findUniqueOrThrow({ where: { email } });
    const principal = (await loadPrincipal(prisma, user.id, user.sessionVersion))!;
    let recall = 0;
    const times: { half: number[]; full: number[] } = { half: [], full: [] };
    for (const vector of vectors) {
      const exact = await exactTop(sql, principal, space, vector, 10);
      const params: unknown[] = [pgvector.toSql(Array.from(vector))];
      const scope = passageScopeSql(principal, "c", params);
      const halfStarted = performance.now();
      const half = await sql.transaction(async (tx) => {
        await tx.exec(`SET LOCAL hnsw.ef_search = ${denseEfSearch()}; SET LOCAL hnsw.iterative_scan = relaxed_order;`);
        return tx.query<{ id: string }>(
          `SELECT near.id FROM (
             SELECT c.id, c.embedding FROM chunks c
              WHERE c.index_space_id = '${space.id}' AND c.embedding IS NOT NULL AND ${scope}
              ORDER BY c.embedding::halfvec(${dimension}) <=> $1::halfvec(${dimension}) LIMIT 60
           ) near ORDER BY near.embedding::vector(${dimension}) <=> $1::vector(${dimension}), near.id LIMIT 10`,
          params,
        );
      });
      times.half.push(performance.now() - halfStarted);
      const fullStarted = performance.now();
      await denseLeg(sql, principal, vector, { space, limit: 60, efSearch: denseEfSearch() });
      times.full.push(performance.now() - fullStarted);
      const found = new Set(half.map((row) => row.id));
      recall += exact.length ? exact.filter((id) => found.has(id)).length / exact.length : 1;
    }
    lines.push(`| ${email.split("@")[0]} | ${(recall / vectors.length).toFixed(3)} | ${ms(percentile(times.half, 95))} | ${ms(percentile(times.full, 95))} |`);
  }
  await sql.exec(`DROP INDEX IF EXISTS "${name}"`);
  console.log(`
### halfvec beside vector, ${target.name} ${target.size.toLocaleString("en")}`);
  console.log(`HNSW over halfvec: ${mib(Number(sizes!.half))} built in ${buildSeconds.toFixed(0)} s; the served vector index ${mib(Number(sizes!.full))}`);
  console.log("| principal | halfvec recall@10 | halfvec dense p95 ms | vector dense p95 ms |");
  console.log("|---|---|---|---|");
  for (const line of lines) console.log(line);
}

/**
 * eval:archive's test half on the demo inside the archive of `size` passages and on the demo
 * alone, both on the bench's PostgreSQL (see the header); eval:archive prints its figures.
 */
async function demoInside(cluster: Cluster, size: number) {
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  const urlOf = (name: string) => {
    const url = new URL(cluster.url);
    url.pathname = `/${name}`;
    return url.toString();
  };
  const runs = [
    { label: `the demo inside ${size.toLocaleString("en")} passages`, name: `scale_${size}_demo`, template: `scale_${size}` },
    { label: "the demo alone", name: "scale_demo_alone", template: null },
  ];
  try {
    for (const run of runs) {
      log(`eval:archive on ${run.label}: copying the database…`);
      await admin.query(`DROP DATABASE IF EXISTS "${run.name}" WITH (FORCE)`);
      await admin.query(`CREATE DATABASE "${run.name}"${run.template ? ` TEMPLATE "${run.template}"` : ""}`);
      const evalArchive = (extra: string[]) =>
        execFileSync(
          process.execPath,
          ["--import", "tsx", "--conditions=react-server", "scripts/eval/eval-archive.ts", "--database-url", urlOf(run.name), ...extra],
          { stdio: "inherit" },
        );
      evalArchive(["--index-only"]);
      const client = new pg.Client({ connectionString: urlOf(run.name) });
      await client.connect();
      const added = await client.query(
        `INSERT INTO memberships (user_id, project_id, role)
           SELECT u.id, p.id, 'reader' FROM users u, projects p WHERE u.email = 'researcher@mnemo.demo' AND p.slug LIKE 'scale-%'
         ON CONFLICT DO NOTHING`,
      );
      await client.end();
      log(`eval:archive on ${run.label}: the researcher reads ${added.rowCount} synthetic projects more`);
      evalArchive(["--only", "search", "--split", "test"]);
    }
  } finally {
    await admin.end();
  }
}

function printRun(name: string, size: number, ingest: IngestFigures, figures: Awaited<ReturnType<typeof measure>>) {
  console.log(`\n### ${name}, ${ingest.passages.toLocaleString("en")} passages (${ingest.records.toLocaleString("en")} records)`);
  console.log(
    `ingest ${ingest.passagesPerSecond.toFixed(0)} passages/s (database side, ${ingest.ingestSeconds.toFixed(0)} s); real embedder ${ingest.embedderPassagesPerSecond.toFixed(0)} passages/s ` +
      `(${(ingest.passages / ingest.embedderPassagesPerSecond / 3600).toFixed(1)} h for these passages); HNSW build ${ingest.indexBuildSeconds.toFixed(0)} s`,
  );
  console.log(
    `memory ${mib(figures.memoryBytes)}${name === "pglite" ? " (this process: PGlite, the model, the bench)" : " (PostgreSQL's processes, proportional)"}; ` +
      `database ${mib(figures.databaseBytes)}, passages ${mib(figures.chunksBytes)}, HNSW ${mib(figures.hnswBytes)}${figures.directoryBytes !== null ? `, data directory ${mib(figures.directoryBytes)}` : ""}`,
  );
  console.log(figures.served);
  console.log("| principal | keyword p50 / p95 ms | semantic p50 / p95 ms | hybrid p50 / p95 ms | hybrid full first pages | HNSW recall@10 |");
  console.log("|---|---|---|---|---|---|");
  for (const [label, modes] of Object.entries(figures.search)) {
    const cell = (mode: SearchMode) => {
      const row = modes.find((entry) => entry.mode === mode)!;
      return `${ms(row.p50)} / ${ms(row.p95)}`;
    };
    const hybrid = modes.find((entry) => entry.mode === "hybrid")!;
    console.log(
      `| ${label} | ${cell("keyword")} | ${cell("semantic")} | ${cell("hybrid")} | ${hybrid.fullPages}/${queryCount} | ${figures.recall[label]!.toFixed(3)} |`,
    );
  }
  console.log(`record list with facets p95 ${ms(figures.listP95)} ms (the 50% reader); ask p95 ${ms(figures.askP95)} ms (extractive reader)`);
}

await main();
