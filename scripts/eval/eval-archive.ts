/**
 * `npm run eval:archive`: search and cited answers on the WHOLE demo archive — every section,
 * 4,500 records — as researchers meet them, against the golden set written for the demo content
 * (prisma/seed/data/archive-golden.json, dev and test halves; the demo seeds it as two golden sets).
 *
 * The full demo is seeded and indexed once through the real pipeline (group documents, chunking,
 * language detection, the Apertium bridge, the configured embedder, the index worker) into
 * .data/eval-cache/archive-<model>/; later runs reuse it. When the indexing recipe changes (the
 * source of the document builder, chunker, bridge or indexer, or the demo's embed groups), every
 * record is queued again and re-indexed in place, reusing the embedding cache for unchanged text;
 * when the demo data or seeder changes, it is seeded anew. Object images are not indexed: text
 * search and answers do not read them.
 *
 * Search: every query in keyword, semantic and hybrid mode through searchArchive (10 results,
 * collapsed to records, all sections) as the researcher and as the admin; nDCG@10, recall@10
 * (of what 10 results can hold) and MRR@10 per split, mode and query language. Records a
 * principal may not read are dropped from that principal's judgements; a query left with none is
 * not counted for that principal. Ask: every question through ask() as the researcher; the
 * expected record cited, the facts present, citation precision, primary source first (the first
 * citation is testimony, at a second or a page, when the expected records hold some), wrong and
 * correct refusals, latency; the same figures for the why/how questions alone (kind "why-how").
 * A question whose records the researcher cannot read must be refused.
 *
 *   --split dev|test|all   which half to report (default: all, each half on its own)
 *   --only search|ask      one part
 *   --cross-validate       also compare ways of choosing the fusion share, leave-one-out on the dev half
 *   --as researcher|admin|both   principals for search (default both; ask runs as the researcher)
 *   --verbose              every query's ranks and every answer
 *   --index-only           build or update the index, then stop
 *   --rebuild              seed and index from scratch
 *   --no-calibrate         equal fusion weights (default: measured on the dev half and stored on the space)
 *   --keep-fusion          the space's stored fusion weights as they are (measured first when none is stored)
 *   --database-url <url>   a PostgreSQL database instead of the embedded cache: the demo is seeded
 *                          into it when it has none, beside whatever it holds (bench:scale's archive,
 *                          so its records stand as distractors), and indexed into its active space;
 *                          a recipe change re-indexes the demo's sections only, never bench:scale's
 *   --dump-ask <file>      with the ask run: every question's retrieved passages with their evidence
 *                          features (similarity, sentence similarity, word coverage, form), whether
 *                          their record is expected, and the outcome, as JSON — for calibrating the
 *                          evidence test on the dev half
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join, relative } from "node:path";
import { parseArgs } from "node:util";
import type { Principal } from "../../lib/acl";
import { loadPrincipal } from "../../lib/auth/load-principal";
import { openDatabase } from "../../lib/db/database";
import { generatorFromEnv } from "../../lib/rag/ask/create-generator";
import { type AskOutcome, ask, defaultAskSettings } from "../../lib/rag/ask/ask";
import { assessEvidence, readQuestion } from "../../lib/rag/ask/assess-evidence";
import { readableTermWeights } from "../../lib/rag/ask/unknown-terms";
import { transcriptInterviewers } from "../../lib/rag/ask/transcript-interviewers";
import { CHUNKER_VERSION } from "../../lib/rag/chunk";
import { createEmbedder, embedderConfigFromEnv } from "../../lib/rag/embed/create-embedder";
import { bridgeStatus } from "../../lib/rag/embed/translate";
import { configuredIndexer } from "../../lib/rag/index/configured-indexer";
import { enqueueReindex } from "../../lib/rag/index/index-queue";
import { activateIndexSpace, saveFusionCalibration } from "../../lib/rag/index/index-spaces";
import { configuredScanReading } from "../../lib/rag/index/read-scans";
import { runWorker } from "../../lib/rag/index/run-worker";
import { type JointOptions, calibrateSpace, crossValidateSpace } from "../../lib/rag/search/calibrate-fusion";
import { measureFusionQuestions } from "../../lib/rag/search/measure-fusion";
import { mrrAt, ndcgAt } from "../../lib/rag/search/retrieval-metrics";
import { createReranker, rerankerConfigFromEnv } from "../../lib/rag/search/rerank";
import { denseLeg } from "../../lib/rag/search/retrieve-passages";
import {
  type SearchContext,
  type SearchMode,
  denseEfSearch,
  denseReading,
  denseReadingLabel,
  embedQuery,
  searchArchive,
} from "../../lib/rag/search/search-archive";
import { seedDemo } from "../../prisma/seed/seed-demo";
import { searchSettings } from "../../lib/rag/config/settings";
import {
  type AskItem,
  type JudgedRecord,
  type SearchItem,
  cappedRecallAt,
  factHolds,
  gradeRecords,
  loadArchiveGolden,
  mean,
  percentile,
} from "../../prisma/seed/archive-golden";

const args = process.argv.slice(2);
const usage =
  "usage: npm run eval:archive -- [--split dev|test|all] [--only search|ask] [--as researcher|admin|both] [--verbose] [--index-only] [--rebuild] [--database-url <url>]";
function readArguments() {
  try {
    return parseArgs({
      args,
      options: {
        split: { type: "string", default: "all" },
        only: { type: "string" },
        as: { type: "string", default: "both" },
        verbose: { type: "boolean", default: false },
        "database-url": { type: "string" },
        "dump-ask": { type: "string" },
        rebuild: { type: "boolean", default: false },
        "index-only": { type: "boolean", default: false },
        "no-calibrate": { type: "boolean", default: false },
        "cross-validate": { type: "boolean", default: false },
        "keep-fusion": { type: "boolean", default: false },
      },
      strict: true,
    }).values;
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
    process.exit(2);
  }
}
const flags = readArguments();
const splitArg = flags.split;
const only = flags.only;
const asArg = flags.as;
const verbose = flags.verbose;
if (!["dev", "test", "all"].includes(splitArg) || (only && !["search", "ask"].includes(only)) || !["researcher", "admin", "both"].includes(asArg)) {
  console.error(usage);
  process.exit(2);
}
const splits = splitArg === "all" ? (["dev", "test"] as const) : ([splitArg] as ("dev" | "test")[]);

const root = process.cwd();
const goldenPath = join(root, "prisma", "seed", "data", "archive-golden.json");
const started = performance.now();

// ---------------------------------------------------------------------------------------------
// The cached full demo index

function hashFiles(paths: string[]): string {
  const hash = createHash("sha256");
  const walk = (path: string) => {
    if (statSync(path).isDirectory()) for (const entry of readdirSync(path).sort()) walk(join(path, entry));
    else if (!/\.test\.ts$|archive-golden\.(json|ts)$/.test(path)) hash.update(relative(root, path)).update(readFileSync(path));
  };
  for (const path of paths) walk(join(root, path));
  return hash.digest("hex").slice(0, 16);
}

const embedder = createEmbedder(embedderConfigFromEnv(process.env));
const seedHash = hashFiles(["prisma/seed"]);
const recipeHash = hashFiles([
  "lib/rag/config",
  "lib/rag/chunk",
  "lib/rag/embed",
  "lib/rag/index/read-scans.ts",
  "lib/archive/ocr",
  "lib/rag/index/index-record.ts",
  "lib/rag/index/search-configs.ts",
  "prisma/migrations",
]);
const databaseUrl = flags["database-url"];
const cacheDir = join(
  root,
  ".data",
  "eval-cache",
  `archive-${embedder.provider}-${embedder.model}-${embedder.dimension}${databaseUrl ? `-server-${createHash("sha256").update(databaseUrl).digest("hex").slice(0, 12)}` : ""}`,
);
const markerPath = join(cacheDir, "indexed.json");
type Marker = { seedHash: string; recipeHash: string; chunker: number; space: string; seconds: number; indexedAt: string };
let marker: Marker | null = existsSync(markerPath) ? (JSON.parse(readFileSync(markerPath, "utf8")) as Marker) : null;
if (flags["rebuild"] || (marker && marker.seedHash !== seedHash) || (!marker && existsSync(cacheDir))) {
  rmSync(cacheDir, { recursive: true, force: true });
  marker = null;
}
mkdirSync(cacheDir, { recursive: true });
const db = databaseUrl ? await openDatabase({ url: databaseUrl, poolSize: 4 }) : await openDatabase({ dataDir: join(cacheDir, "pgdata") });
// A server database is seeded once, when its demo admin is missing, whatever the marker says.
const serverHasDemo = async () => Boolean(databaseUrl && (await db.prisma.user.findUnique({ where: { email: "admin@mnemo.demo" } })));
if (databaseUrl && marker && !(await serverHasDemo())) marker = null;
let indexNote = `reused (built ${marker?.indexedAt ?? "?"} in ${marker?.seconds.toFixed(0) ?? "?"} s)`;
if (!marker && !(await serverHasDemo())) {
  console.log(`Seeding the full demo archive into ${databaseUrl ? "the PostgreSQL database" : relative(root, cacheDir)} (once)…`);
  const seedStarted = performance.now();
  await seedDemo(db.prisma, db.sql, { dataDir: join(root, "prisma", "seed", "data"), storageDir: join(cacheDir, "media"), size: "full" });
  console.log(`seeded in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s`);
}
const { space } = await configuredIndexer(db.sql);
await activateIndexSpace(db.sql, space.id);
if (!marker || marker.recipeHash !== recipeHash || marker.space !== space.name) {
  const why = !marker ? "first build" : "the indexing recipe changed";
  if (marker) {
    // A server database may hold bench:scale's archive beside the demo (sections scale-*): its
    // vectors are synthetic and re-embedding them would take hours, so only the demo's are queued.
    const sections = await db.sql.query<{ id: string }>(`SELECT id FROM sections WHERE slug NOT LIKE 'scale-%'`);
    for (const section of sections) await enqueueReindex(db.sql, { sectionId: section.id }, "eval:archive recipe change");
  }
  console.log(`Indexing the full demo (${why}) into ${space.name}…`);
  const indexStarted = performance.now();
  let lastLog = 0;
  const progress = await runWorker({
    prisma: db.prisma,
    sql: db.sql,
    embedder,
    space,
    // As the app's worker does: the documents kept only as scans are read by OCR (tesseract), or
    // their text is in no passage and the questions about them cannot be answered.
    scans: { ...configuredScanReading(), storageDir: join(cacheDir, "media") },
    drain: true,
    idleMs: 10,
    batchSize: 32,
    log: () => undefined,
    onProgress: (state) => {
      if (performance.now() - lastLog < 15_000) return;
      lastLog = performance.now();
      const seconds = (performance.now() - indexStarted) / 1000;
      console.log(`  ${state.indexed + state.parked}/${state.indexed + state.parked + state.remaining} records, ${seconds.toFixed(0)} s`);
    },
  });
  const seconds = (performance.now() - indexStarted) / 1000;
  marker = { seedHash, recipeHash, chunker: CHUNKER_VERSION, space: space.name, seconds, indexedAt: new Date().toISOString() };
  writeFileSync(markerPath, JSON.stringify(marker, null, 2));
  indexNote = `${why}: ${progress.indexed} records indexed, ${progress.parked} parked in ${seconds.toFixed(0)} s (embedded ${progress.embedded}, reused ${progress.reused}, from cache ${progress.cached})`;
}
const [counts] = await db.sql.query<{ records: number; passages: number; distinct_texts: number }>(
  `SELECT (SELECT count(*) FROM records)::int AS records, count(*)::int AS passages, count(DISTINCT text)::int AS distinct_texts FROM chunks WHERE index_space_id = $1`,
  [space.id],
);
const bridge = await bridgeStatus();

console.log(`\nMnemo eval:archive — ${new Date().toISOString()}`);
console.log(`machine    ${os.cpus()[0]?.model ?? "?"}, ${os.cpus().length} cores, Node ${process.version}`);
console.log(
  `archive    full demo${databaseUrl ? " in a PostgreSQL database" : ""}: ${counts?.records} records, ${counts?.passages} passages (${counts?.distinct_texts} distinct texts) in ${space.name}`,
);
console.log(`index      ${indexNote}`);
console.log(
  `bridge     apertium: ${
    Object.entries(bridge.pairs)
      .filter(([, ready]) => ready)
      .map(([pair]) => `${pair}-eng`)
      .join(", ") || "not installed"
  }`,
);
if (flags["index-only"]) {
  await db.close();
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------
// Principals and judgements

const golden = loadArchiveGolden(goldenPath);

async function principalOf(email: string): Promise<Principal> {
  const user = await db.prisma.user.findUniqueOrThrow({ where: { email } });
  const principal = await loadPrincipal(db.prisma, user.id, user.sessionVersion);
  if (!principal) throw new Error(`${email} cannot sign in`);
  return principal;
}
const principals: { name: string; principal: Principal }[] = [];
if (asArg !== "admin") principals.push({ name: "researcher", principal: await principalOf("researcher@mnemo.demo") });
if (asArg !== "researcher") principals.push({ name: "admin", principal: await principalOf("admin@mnemo.demo") });
const researcher = await principalOf("researcher@mnemo.demo");

const records = (
  await db.sql.query<{ id: string; title: string; slug: string; project_id: string; values: Record<string, unknown> }>(
    `SELECT r.id, r.title, s.slug, r.project_id, r."values" FROM records r JOIN sections s ON s.id = r.section_id`,
  )
).map((row): JudgedRecord => ({ id: row.id, title: row.title, sectionSlug: row.slug, projectId: row.project_id, values: row.values }));
const projectOf = new Map(records.map((record) => [record.id, record.projectId]));
const readable = (principal: Principal, recordId: string) => principal.role === "admin" || principal.readableProjectIds.includes(projectOf.get(recordId) ?? "");
const titleOf = new Map(records.map((record) => [record.id, record.title]));

function gradesFor(item: SearchItem, principal: Principal): Map<string, number> {
  const grades = gradeRecords(item.relevant, records);
  if (grades.size === 0) throw new Error(`golden set: ${item.id} names no record of the demo (${JSON.stringify(item.relevant)})`);
  return new Map([...grades].filter(([id]) => readable(principal, id)));
}

const { generator, settings: generation } = generatorFromEnv(process.env, embedder);
// The evidence thresholds are answerSettings' defaults (lib/rag/config/settings.ts).
const askSettings = Object.fromEntries(Object.entries(generation).filter(([, value]) => value !== undefined));
const context: SearchContext & { space: NonNullable<SearchContext["space"]> } = {
  sql: db.sql,
  embedder,
  space,
  reranker: createReranker(rerankerConfigFromEnv(process.env), embedder),
};
const format = (value: number) => value.toFixed(3);
const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const summaries: string[] = [];

// ---------------------------------------------------------------------------------------------
// Fusion, measured on the dev half only

async function calibrate(): Promise<void> {
  if (flags["no-calibrate"]) {
    await saveFusionCalibration(db.sql, space.id, null);
    context.space = { ...space, fusion: null };
    console.log(`\nFUSION — equal weights (--no-calibrate)`);
    return;
  }
  const dev = golden.search
    .filter((item) => item.split === "dev")
    .map((item) => ({ query: item.query, judged: gradesFor(item, researcher) }))
    .filter((item) => [...item.judged.values()].some((grade) => grade > 0));
  const measured = await measureFusionQuestions(context, researcher, dev);
  const defaultB = searchSettings.bm25B.value;
  const defaultSecondPassage = searchSettings.secondPassageShare.value;
  const fusion = calibrateSpace(measured, {
    source: `${dev.length} dev-half queries of ${relative(root, goldenPath)}, as the researcher`,
    defaultB,
    defaultSecondPassage,
  });
  await saveFusionCalibration(db.sql, space.id, fusion);
  context.space = { ...space, fusion };
  console.log(`\nFUSION — measured on the dev half (${dev.length} queries, as the researcher) and stored on the space`);
  for (const [slice, figures] of Object.entries(fusion.figures)) {
    console.log(
      `  ${slice.padEnd(4)} ${String(figures.queries).padStart(3)} queries: keyword ${format(figures.keyword)}, semantic ${format(figures.semantic)}, equal ${format(figures.equal)} → ` +
        `meaning share ${fusion.meaningShare[slice as keyof typeof fusion.meaningShare]?.toFixed(2)}: ${format(figures.calibrated)}`,
    );
  }
  console.log(`  hybrid nDCG@10 at each meaning share tried (0 = words only, 1 = meaning only):`);
  for (const [slice, tried] of Object.entries(fusion.shareFigures ?? {})) {
    console.log(`  ${slice.padEnd(4)} ${tried.map((point) => `${point.share.toFixed(2)} ${format(point.hybrid)}`).join(" ")}`);
  }
  if (flags["cross-validate"]) {
    // Ways of choosing b and the share, compared on the dev half alone: each question ranked at
    // the b and share calibrated on the other dev questions.
    console.log(
      `  leave-one-out hybrid nDCG@10 on the dev half, by how b and the share are chosen (b prior / share prior = questions of the overall curve; smoothing = neighbouring shares averaged on each side):`,
    );
    const bRules: [string, Partial<JointOptions>][] = [
      [`b ${defaultB} for all`, { measureLength: false }],
      ["one b for all languages", { lengthPriorQuestions: 1e6 }],
      ["b per language, prior 0", { lengthPriorQuestions: 0 }],
      ["b per language, prior 12", { lengthPriorQuestions: 12 }],
      ["b per language, prior 48", { lengthPriorQuestions: 48 }],
      ["b per language by hybrid", { lengthBy: "hybrid" }],
    ];
    // The rule in force, for paired differences: each question held out under both rules.
    const current = crossValidateSpace(measured, { defaultB, defaultSecondPassage }).scores;
    const paired = (scores: readonly number[]) => {
      const differences = scores.map((score, index) => score - (current[index] ?? 0));
      const average = mean(differences);
      const spread = Math.sqrt(
        differences.reduce((sum, value) => sum + (value - average) ** 2, 0) / Math.max(1, differences.length - 1) / Math.max(1, differences.length),
      );
      return `${average >= 0 ? "+" : ""}${average.toFixed(3)} ± ${spread.toFixed(3)} (paired, standard error) against the defaults`;
    };
    for (const [bName, bRule] of bRules) {
      for (const [smoothing, priorQuestions] of [
        [0, 12],
        [1, 48],
      ] as const) {
        const result = crossValidateSpace(measured, { defaultB, defaultSecondPassage, smoothing, priorQuestions, ...bRule });
        const languages = Object.entries(result.byLanguage)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([language, entry]) => `${language} ${format(entry.ndcg)} (${entry.queries})`)
          .join(", ");
        console.log(
          `    ${bName.padEnd(25)} share smoothing ${smoothing}, prior ${String(priorQuestions).padStart(2)}: all ${format(result.all)}; ${languages}; ${paired(result.scores)}`,
        );
      }
    }
  }
  console.log(`  BM25 length normalisation b, words leg alone at the chosen second-passage share (nDCG@10 at each b tried, then the chosen b):`);
  for (const [slice, tried] of Object.entries(fusion.lengthFigures ?? {})) {
    const chosen = fusion.lengthNormalisation?.[slice as keyof NonNullable<typeof fusion.lengthNormalisation>];
    console.log(`  ${slice.padEnd(4)} ${tried.map((point) => `b ${point.b}: ${format(point.keyword)}`).join(", ")} → b ${chosen}`);
  }
  if (fusion.secondPassageFigures) {
    console.log(
      `  a record's second passage, words leg alone at the b each language chose for that share (nDCG@10 at each share tried, then the chosen share): ` +
        `${fusion.secondPassageFigures.map((point) => `${point.share}: ${format(point.keyword)}`).join(", ")} → ${fusion.secondPassage}`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Search

const modes: SearchMode[] = ["keyword", "semantic", "hybrid"];
type Scored = { item: SearchItem; mode: SearchMode; principal: string; ndcg: number; recall: number; mrr: number; ms: number; unrelated: string[] };

/**
 * Hubness: how often one record fills a top-10 slot of queries it is not relevant to. A record
 * in the top 10 of many unrelated queries is a hub (a fragment every query is near), not an answer.
 */
function hubness(rows: readonly Scored[], mode: SearchMode): string {
  const slice = rows.filter((entry) => entry.mode === mode);
  const counts = new Map<string, number>();
  for (const entry of slice) for (const id of entry.unrelated) counts.set(id, (counts.get(id) ?? 0) + 1);
  const top = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 3);
  const share = (count: number) => `${((count / Math.max(1, slice.length)) * 100).toFixed(0)}%`;
  return `${mode}: ${top.map(([id, count]) => `“${titleOf.get(id)}” ${share(count)}`).join(", ") || "none"}`;
}

async function runSearch(): Promise<void> {
  const scored: Scored[] = [];
  let skipped = 0;
  for (const { name, principal } of principals) {
    for (const item of golden.search.filter((entry) => (splits as readonly string[]).includes(entry.split))) {
      const grades = gradesFor(item, principal);
      if (![...grades.values()].some((grade) => grade > 0)) {
        skipped++;
        continue;
      }
      for (const mode of modes) {
        const begin = performance.now();
        const result = await searchArchive(context, principal, { query: item.query, mode, limit: 10, collapse: "record" });
        const ms = performance.now() - begin;
        const ranked = result.hits.map((hit) => hit.recordId);
        const all = gradeRecords(item.relevant, records);
        const unrelated = ranked.filter((id) => !all.has(id));
        const entry = {
          item,
          mode,
          principal: name,
          ndcg: ndcgAt(ranked, grades, 10),
          recall: cappedRecallAt(ranked, grades, 10),
          mrr: mrrAt(ranked, grades, 10),
          ms,
          unrelated,
        };
        scored.push(entry);
        if (verbose) {
          const marks = ranked.map((id) => `${grades.get(id) ?? 0}`).join("");
          // The ten records themselves, as a digest: two runs (before and after a move) compare line by line.
          const digest = createHash("sha256").update(ranked.join(",")).digest("hex").slice(0, 10);
          console.log(`${name.padEnd(10)} ${mode.padEnd(8)} ${item.id} ndcg ${format(entry.ndcg)} [${marks}] records ${digest} ${item.query}`);
          if (mode === "hybrid" && entry.ndcg < 0.5)
            console.log(
              `           top: ${ranked
                .slice(0, 5)
                .map((id) => titleOf.get(id))
                .join(" | ")}`,
            );
        }
      }
    }
  }
  console.log(`\nSEARCH — ${golden.search.length} queries in ${relative(root, goldenPath)}; 10 results, collapsed to records, all sections`);
  if (skipped) console.log(`(${skipped} query×principal pairs left out: none of their relevant records is readable by that principal)`);
  for (const split of splits) {
    for (const { name } of principals) {
      const rows = scored.filter((entry) => entry.item.split === split && entry.principal === name);
      if (rows.length === 0) continue;
      const queries = new Set(rows.map((entry) => entry.item.id)).size;
      console.log(`\n${split} half, ${name} (${queries} queries)`);
      console.log(`${"slice".padEnd(24)}${modes.map((mode) => `${mode} nDCG@10`.padStart(18)).join("")}   hybrid R@10  hybrid MRR@10   hybrid p95`);
      const slices: [string, (entry: Scored) => boolean][] = [
        ["all", () => true],
        ["en", (entry) => entry.item.language === "en"],
        ["es", (entry) => entry.item.language === "es"],
        ["ca", (entry) => entry.item.language === "ca"],
        ...[...new Set(golden.search.flatMap((item) => item.kinds))]
          .sort()
          .map((kind): [string, (entry: Scored) => boolean] => [`kind ${kind}`, (entry) => entry.item.kinds.includes(kind)]),
      ];
      for (const [label, keep] of slices) {
        const slice = rows.filter(keep);
        if (slice.length === 0) continue;
        const of = (mode: SearchMode) => slice.filter((entry) => entry.mode === mode);
        const hybrid = of("hybrid");
        const count = new Set(slice.map((entry) => entry.item.id)).size;
        console.log(
          `${`${label} (${count})`.padEnd(24)}${modes.map((mode) => format(mean(of(mode).map((entry) => entry.ndcg))).padStart(18)).join("")}` +
            `${format(mean(hybrid.map((entry) => entry.recall))).padStart(14)}${format(mean(hybrid.map((entry) => entry.mrr))).padStart(15)}${`${percentile(
              hybrid.map((entry) => entry.ms),
              95,
            ).toFixed(0)} ms`.padStart(13)}`,
        );
        if (label === "all") {
          summaries.push(
            `search ${split} ${name}: nDCG@10 keyword ${format(mean(of("keyword").map((e) => e.ndcg)))}, semantic ${format(mean(of("semantic").map((e) => e.ndcg)))}, hybrid ${format(mean(hybrid.map((e) => e.ndcg)))}`,
          );
        }
      }
      const byLanguage = (["en", "es", "ca"] as const).map((language) => {
        const slice = rows.filter((entry) => entry.item.language === language);
        const best = Math.max(
          ...(["keyword", "semantic"] as const).map((mode) => mean(slice.filter((entry) => entry.mode === mode).map((entry) => entry.ndcg))),
        );
        const hybrid = mean(slice.filter((entry) => entry.mode === "hybrid").map((entry) => entry.ndcg));
        return `${language} ${hybrid >= best - 1e-9 ? "yes" : `no (${format(hybrid)} < ${format(best)})`}`;
      });
      console.log(`hybrid ≥ its best leg: ${byLanguage.join(", ")}`);
      console.log(`hubs (share of queries whose top 10 holds the record unrelated): ${modes.map((mode) => hubness(rows, mode)).join("; ")}`);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// HNSW recall on the archive's own vectors

async function runRecall(): Promise<void> {
  const depth = 60; // a first page's dense leg (limit 10, collapsed to records)
  const recalls: Record<string, number[]> = {};
  for (const item of golden.search) {
    const vector = await embedQuery(context, item.query);
    for (const { name, principal } of principals) {
      const served = await denseLeg(db.sql, principal, vector, { space, limit: depth, ...denseReading(context) });
      await db.sql.exec("SET enable_indexscan = off");
      const exact = await denseLeg(db.sql, principal, vector, { space, limit: depth, efSearch: denseEfSearch() }).finally(() =>
        db.sql.exec("SET enable_indexscan = on"),
      );
      const truth = new Set(exact.slice(0, 10).map((hit) => hit.chunkId));
      (recalls[name] ??= []).push(served.slice(0, 10).filter((hit) => truth.has(hit.chunkId)).length / Math.max(1, truth.size));
    }
  }
  const line = Object.entries(recalls)
    .map(([name, values]) => `${name} ${format(mean(values))}`)
    .join(", ");
  console.log(
    `\nHNSW recall@10 of the served dense leg against exact search, ${golden.search.length} queries, ${denseReadingLabel(denseReading(context))}: ${line}`,
  );
  summaries.push(`HNSW recall@10 on the full demo: ${line}`);
}

// ---------------------------------------------------------------------------------------------
// Ask

async function answer(question: string): Promise<{ outcome: AskOutcome; ms: number }> {
  const begin = performance.now();
  let outcome: AskOutcome | undefined;
  for await (const event of ask({ ...context, generator, settings: askSettings }, researcher, { question }))
    if (event.type === "final") outcome = event.outcome;
  if (!outcome) throw new Error(`no outcome for ${question}`);
  return { outcome, ms: performance.now() - begin };
}

type AskResult = { item: AskItem; outcome: AskOutcome; ms: number; answerable: boolean; expected: Set<string> };
/** A share and the counts it is taken over. */
type Share = { count: number; of: number };
const rate = (share: Share) => percent(share.count / Math.max(1, share.of));

/**
 * The answer figures of a set of questions. Primary source first: of the answered questions whose
 * expected records include testimony (a record with a passage at a second or on a page), the share
 * whose first citation — citations are in reading order — is such a passage of an expected record.
 */
function askFigures(results: AskResult[], testimonyRecords: Set<string>) {
  const answerable = results.filter((result) => result.answerable);
  const unanswerable = results.filter((result) => !result.answerable);
  const refused = answerable.filter((result) => result.outcome.status === "refused");
  const hadEvidence = (result: AskResult) => result.outcome.provenance.retrieved.some((hit) => hit.evidence);
  const facts = answerable.flatMap((result) => result.item.facts.map((fact) => result.outcome.status === "answered" && factHolds(result.outcome.text, fact)));
  const cited = answerable.flatMap((result) => result.outcome.citations.map((citation) => result.expected.has(citation.recordId)));
  const withTestimony = answerable.filter((result) => result.outcome.status === "answered" && [...result.expected].some((id) => testimonyRecords.has(id)));
  const primaryFirst = withTestimony.filter((result) => {
    const first = result.outcome.citations[0];
    return first !== undefined && result.expected.has(first.recordId) && (first.timeStart !== null || first.page !== null);
  });
  return {
    answerable: answerable.length,
    unanswerable: unanswerable.length,
    rightRecord: {
      count: answerable.filter((result) => result.outcome.citations.some((citation) => result.expected.has(citation.recordId))).length,
      of: answerable.length,
    },
    facts: { count: facts.filter(Boolean).length, of: facts.length },
    precision: { count: cited.filter(Boolean).length, of: cited.length },
    primary: { count: primaryFirst.length, of: withTestimony.length },
    wrongRefusals: { count: answerable.filter((result) => result.outcome.status !== "answered").length, of: answerable.length },
    /** Where the wrong refusals were decided: no passage passed the evidence test, or the answerer found no sentence. */
    refusedBy: {
      evidence: refused.filter((result) => !hadEvidence(result)).length,
      answerer: refused.filter(hadEvidence).length,
    },
    correctRefusals: { count: unanswerable.filter((result) => result.outcome.status === "refused").length, of: unanswerable.length },
  };
}
type AskFigures = ReturnType<typeof askFigures>;

/** The six figures on one line, with their counts when asked (a small slice). */
function figuresLine(figures: AskFigures, counts = false): string {
  const shown = (share: Share) => (counts ? `${rate(share)} (${share.count}/${share.of})` : rate(share));
  return (
    `right record ${shown(figures.rightRecord)}, facts ${shown(figures.facts)}, citation precision ${shown(figures.precision)}, ` +
    `primary source first ${shown(figures.primary)}, wrong refusals ${shown(figures.wrongRefusals)}, correct refusals ${shown(figures.correctRefusals)}`
  );
}

/** The golden set's kinds of an ask item ("why-how"…), none when the set gives none. */
const askKinds = (item: AskItem): readonly string[] => (item as AskItem & { kinds?: string[] }).kinds ?? [];

async function runAsk(): Promise<void> {
  const effective = { ...defaultAskSettings, ...askSettings };
  console.log(`\nASK — ${golden.ask.length} questions, as the researcher; generator ${generator.name}/${generator.model}`);
  console.log(
    `thresholds: similarity ≥ ${effective.strongSimilarity}, or ≥ ${effective.minSimilarity} with ${percent(effective.minTermCoverage)} of the question's words`,
  );
  // Records that hold testimony: a passage heard at a second of a recording or read on a page.
  const expectedIds = records.filter((record) => golden.ask.some((item) => item.records.includes(record.title))).map((record) => record.id);
  const testimonyRecords = new Set(
    (
      await db.sql.query<{ record_id: string }>(
        `SELECT DISTINCT record_id FROM chunks WHERE index_space_id = $1 AND record_id = ANY($2::text[]) AND (time_start IS NOT NULL OR page IS NOT NULL)`,
        [space.id, expectedIds],
      )
    ).map((row) => row.record_id),
  );
  for (const split of splits) {
    const items = golden.ask.filter((item) => item.split === split);
    const results: AskResult[] = [];
    for (const item of items) {
      const expected = new Set(records.filter((record) => item.records.includes(record.title) && readable(researcher, record.id)).map((record) => record.id));
      for (const title of item.records)
        if (!records.some((record) => record.title === title)) throw new Error(`golden set: ${item.id} names "${title}", which is not in the demo`);
      const { outcome, ms } = await answer(item.question);
      results.push({ item, outcome, ms, answerable: expected.size > 0, expected });
      if (dumpAsk) dumped.push(await dumpQuestion(item, expected, outcome));
    }
    const figures = askFigures(results, testimonyRecords);
    const times = results.map((result) => result.ms);
    console.log(`\n${split} half: ${figures.answerable} answerable, ${figures.unanswerable} to refuse`);
    console.log(`right record cited      ${rate(figures.rightRecord)}  (${figures.rightRecord.count}/${figures.rightRecord.of})`);
    console.log(`facts present           ${rate(figures.facts)}  (${figures.facts.count}/${figures.facts.of})`);
    console.log(
      `citation precision      ${rate(figures.precision)}  (${figures.precision.count}/${figures.precision.of} citations of answerable questions name an expected record)`,
    );
    console.log(
      `primary source first    ${rate(figures.primary)}  (${figures.primary.count}/${figures.primary.of} answered questions whose records include testimony)`,
    );
    console.log(
      `wrong refusals          ${rate(figures.wrongRefusals)}  (${figures.wrongRefusals.count}/${figures.wrongRefusals.of}; by the evidence test ${figures.refusedBy.evidence}, by the answerer ${figures.refusedBy.answerer})`,
    );
    console.log(`correct refusals        ${rate(figures.correctRefusals)}  (${figures.correctRefusals.count}/${figures.correctRefusals.of})`);
    console.log(`latency                 p50 ${percentile(times, 50).toFixed(0)} ms, p95 ${percentile(times, 95).toFixed(0)} ms`);
    summaries.push(`ask ${split}: ${figuresLine(figures)}`);
    const whyHow = askFigures(
      results.filter((result) => askKinds(result.item).includes("why-how")),
      testimonyRecords,
    );
    const whyHowLine =
      whyHow.answerable + whyHow.unanswerable === 0
        ? "no why-how questions"
        : `${whyHow.answerable} answerable, ${whyHow.unanswerable} to refuse: ${figuresLine(whyHow, true)}; wrong refusals by the evidence test ${whyHow.refusedBy.evidence}, by the answerer ${whyHow.refusedBy.answerer}`;
    console.log(`why-how                 ${whyHowLine}`);
    summaries.push(`ask ${split} why-how: ${whyHowLine}`);
    for (const result of results) {
      const good = result.answerable
        ? result.outcome.status === "answered" &&
          result.outcome.citations.some((citation) => result.expected.has(citation.recordId)) &&
          result.item.facts.every((fact) => factHolds(result.outcome.text, fact))
        : result.outcome.status === "refused";
      if (good && !verbose) continue;
      const cites = result.outcome.citations.map((citation) => citation.recordTitle).join(" | ") || "—";
      const missing = result.item.facts.filter((fact) => !factHolds(result.outcome.text, fact)).map((fact) => fact[0]);
      console.log(`  ${good ? "ok  " : "MISS"} ${result.item.id} ${result.outcome.status.padEnd(9)} ${result.item.question}`);
      if (!good) console.log(`       cited: ${cites}${missing.length && result.answerable ? `; facts missing: ${missing.join(", ")}` : ""}`);
      if (verbose && result.outcome.status === "answered") console.log(`       ${result.outcome.text.replace(/\s+/g, " ").slice(0, 300)}`);
    }
  }
}

const dumpAsk = flags["dump-ask"];
const dumped: unknown[] = [];

/** One question's retrieved passages with every evidence feature, thresholds off (see --dump-ask). */
async function dumpQuestion(item: AskItem, expected: Set<string>, outcome: AskOutcome): Promise<unknown> {
  const result = await searchArchive(context, researcher, { query: item.question, mode: "hybrid", limit: defaultAskSettings.candidates, collapse: "passage" });
  const interviewers = await transcriptInterviewers(
    db.sql,
    researcher,
    result.hits.filter((hit) => hit.passage.timeStart !== null).map((hit) => hit.recordId),
  );
  const reading = await readQuestion(item.question, embedder);
  const termWeights = await readableTermWeights(db.sql, researcher, space.id, [...reading.terms, ...reading.englishTerms, ...reading.translatedTerms.flat()]);
  const assessed = await assessEvidence(result.hits, item.question, {
    embedder,
    reading,
    termWeights,
    thresholds: { minSimilarity: -1, strongSimilarity: -1, minTermCoverage: 0 },
    interviewers,
  });
  return {
    id: item.id,
    split: item.split,
    language: item.language,
    question: item.question,
    answerable: expected.size > 0,
    facts: item.facts,
    status: outcome.status,
    unknownTerms: outcome.provenance.unknownTerms,
    termWeights: Object.fromEntries(termWeights),
    answer: outcome.text,
    cited: outcome.citations.map((citation) => citation.recordTitle),
    hits: assessed.map((entry, rank) => ({
      rank,
      title: entry.hit.recordTitle,
      expected: expected.has(entry.hit.recordId),
      section: entry.hit.sectionSlug,
      similarity: entry.hit.similarity,
      sentenceSimilarity: entry.sentenceSimilarity,
      coverage: entry.coverage,
      weightedCoverage: entry.weightedCoverage,
      form: entry.form,
      legs: entry.hit.legs,
      text: entry.hit.passage.text,
      translation: entry.hit.passage.translatedText,
    })),
  };
}

// --keep-fusion keeps a stored calibration; a space with none (a fresh or rebuilt index) is
// measured first, as the app does once its queue drains (lib/admin/fusion-calibration.ts), so no
// figure is ever taken on equal weights by accident.
if (!flags["keep-fusion"]) await calibrate();
else if (!context.space.fusion && !flags["no-calibrate"]) {
  console.log("\n--keep-fusion: the space has no stored fusion (a fresh or rebuilt index), so it is measured now, as the app does when its queue drains");
  await calibrate();
} else if (context.space.fusion)
  console.log(
    `\nFUSION — kept as stored on the space: meaning share ${JSON.stringify(context.space.fusion.meaningShare)}, BM25 b ${JSON.stringify(context.space.fusion.lengthNormalisation ?? searchSettings.bm25B.value)} (${context.space.fusion.source})`,
  );
if (only !== "ask") await runSearch();
if (only !== "ask") await runRecall();
if (only !== "search") await runAsk();
if (dumpAsk) {
  writeFileSync(dumpAsk, JSON.stringify(dumped, null, 1));
  console.log(`\nask features of ${dumped.length} questions written to ${dumpAsk}`);
}
console.log(`\nsummary`);
for (const line of summaries) console.log(`  ${line}`);
console.log(`time       ${((performance.now() - started) / 1000).toFixed(0)} s`);
console.log(`command    npm run eval:archive -- ${args.join(" ")}`);
await db.close();
