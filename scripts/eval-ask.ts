/**
 * `npm run eval:ask`: the ask pipeline on the demo archive against a golden set written for it
 * (scripts/data/ask-golden.json): questions with the records whose passages answer them, and
 * questions the archive cannot answer. Prints citation precision (cited passages that belong to
 * an expected record), answer recall (questions citing at least one expected record; and the
 * share of expected records cited), and refusal correctness on both kinds of question, plus the
 * evidence scores behind each refusal so the thresholds can be read off rather than guessed.
 *
 * The small demo archive is seeded and indexed once into .data/eval-cache/ask-<model>/ (about
 * two minutes here); later runs reuse it. The generator is the configured one (MNEMO_GENERATOR,
 * default the offline extractive answerer); thresholds come from MNEMO_ASK_* like the app's.
 *
 *   npm run eval:ask [-- --verbose]
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { systemPrincipal } from "../lib/acl";
import { openDatabase } from "../lib/db/database";
import { askThresholdsFromEnv, generatorFromEnv } from "../lib/llm/create-generator";
import { type AskOutcome, ask, defaultAskSettings } from "../lib/rag/ask/ask";
import { createEmbedder, embedderConfigFromEnv } from "../lib/rag/embed/create-embedder";
import { configuredIndexer } from "../lib/rag/index/configured-indexer";
import { activateIndexSpace } from "../lib/rag/index/index-spaces";
import { runWorker } from "../lib/rag/index/run-worker";
import { seedDemo } from "../prisma/seed/seed-demo";

interface Golden {
  answerable: { question: string; expected: string[] }[];
  unanswerable: string[];
}

const verbose = process.argv.includes("--verbose");
const golden = JSON.parse(readFileSync(join(process.cwd(), "scripts", "data", "ask-golden.json"), "utf8")) as Golden;

const started = performance.now();
const embedder = createEmbedder(embedderConfigFromEnv(process.env));
const cacheDir = join(process.cwd(), ".data", "eval-cache", `ask-${embedder.provider}-${embedder.model}-${embedder.dimension}`);
const marker = join(cacheDir, "indexed.json");
mkdirSync(cacheDir, { recursive: true });
const db = await openDatabase({ dataDir: join(cacheDir, "pgdata") });

if (!existsSync(marker)) {
  console.log(`Seeding the small demo archive into ${cacheDir} and indexing it (once)…`);
  await seedDemo(db.prisma, db.sql, { dataDir: join(process.cwd(), "prisma", "seed", "data"), storageDir: join(cacheDir, "media"), size: "small" });
}
const { space } = await configuredIndexer(db.sql);
await activateIndexSpace(db.sql, space.id);
if (!existsSync(marker)) {
  const indexStarted = performance.now();
  await runWorker({ prisma: db.prisma, sql: db.sql, embedder, space, drain: true, idleMs: 10, batchSize: 32, log: () => undefined });
  writeFileSync(marker, JSON.stringify({ space: space.name, indexedAt: new Date().toISOString(), seconds: (performance.now() - indexStarted) / 1000 }));
  console.log(`Indexed in ${((performance.now() - indexStarted) / 1000).toFixed(0)} s.`);
}

const { generator, settings: generation } = generatorFromEnv(process.env, embedder);
const thresholds = Object.fromEntries(Object.entries(askThresholdsFromEnv(process.env)).filter(([, value]) => value !== undefined));
const settings = { ...Object.fromEntries(Object.entries(generation).filter(([, value]) => value !== undefined)), ...thresholds };
const context = { sql: db.sql, embedder, space, generator, settings };
const effective = { ...defaultAskSettings, ...settings };

async function answer(question: string): Promise<{ outcome: AskOutcome; ms: number }> {
  const begin = performance.now();
  let outcome: AskOutcome | undefined;
  for await (const event of ask(context, systemPrincipal, { question })) if (event.type === "final") outcome = event.outcome;
  if (!outcome) throw new Error(`no outcome for ${question}`);
  return { outcome, ms: performance.now() - begin };
}

const bestEvidence = (outcome: AskOutcome) => {
  const best = [...outcome.provenance.retrieved].sort((a, b) => (b.similarity ?? -1) - (a.similarity ?? -1))[0];
  return best ? `best similarity ${best.similarity?.toFixed(2) ?? "—"}, coverage ${best.coverage.toFixed(2)}` : "nothing retrieved";
};

let cited = 0;
let citedExpected = 0;
let answeredWithExpected = 0;
let expectedRecordShare = 0;
let falseRefusals = 0;
const timings: number[] = [];
const misses: string[] = [];
for (const item of golden.answerable) {
  const { outcome, ms } = await answer(item.question);
  timings.push(ms);
  const titles = outcome.citations.map((citation) => citation.recordTitle);
  const good = titles.filter((title) => item.expected.includes(title));
  cited += titles.length;
  citedExpected += good.length;
  if (good.length > 0) answeredWithExpected++;
  expectedRecordShare += new Set(good).size / item.expected.length;
  if (outcome.status !== "answered") falseRefusals++;
  const line = `${outcome.status.padEnd(10)} ${item.question}\n           ${outcome.status === "answered" ? `cited: ${titles.join(" | ") || "—"}` : bestEvidence(outcome)}`;
  if (good.length === 0 || good.length < titles.length) misses.push(line);
  else if (verbose) console.log(line);
}

let correctRefusals = 0;
const wrongAnswers: string[] = [];
for (const question of golden.unanswerable) {
  const { outcome, ms } = await answer(question);
  timings.push(ms);
  if (outcome.status === "refused") correctRefusals++;
  else wrongAnswers.push(`${outcome.status.padEnd(10)} ${question}\n           ${bestEvidence(outcome)}; cited: ${outcome.citations.map((citation) => citation.recordTitle).join(" | ")}`);
  if (verbose && outcome.status === "refused") console.log(`refused    ${question}\n           ${bestEvidence(outcome)}`);
}

const sorted = [...timings].sort((a, b) => a - b);
const percentile = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const answerable = golden.answerable.length;
const unanswerable = golden.unanswerable.length;

console.log(`\nMnemo eval:ask — ${new Date().toISOString()}`);
console.log(`machine: ${cpus()[0]?.model ?? "?"} × ${cpus().length}, node ${process.version}`);
console.log(`index: ${space.name}; generator: ${generator.name}/${generator.model}`);
console.log(
  `thresholds: similarity ≥ ${effective.strongSimilarity}, or ≥ ${effective.minSimilarity} with ${percent(effective.minTermCoverage)} of the question's words`,
);
console.log(`golden set: ${answerable} answerable, ${unanswerable} unanswerable questions (scripts/data/ask-golden.json)\n`);
console.log(`citation precision      ${percent(cited ? citedExpected / cited : 0)}  (${citedExpected} of ${cited} cited passages are from an expected record)`);
console.log(`answer recall           ${percent(answeredWithExpected / answerable)}  (${answeredWithExpected} of ${answerable} questions cite an expected record)`);
console.log(`expected records cited  ${percent(expectedRecordShare / answerable)}  (mean share of each question's expected records)`);
console.log(`refusal correctness     ${percent((correctRefusals + answerable - falseRefusals) / (answerable + unanswerable))}  (unanswerable refused ${correctRefusals}/${unanswerable}; answerable refused ${falseRefusals}/${answerable})`);
console.log(`latency per question    p50 ${percentile(50).toFixed(0)} ms, p95 ${percentile(95).toFixed(0)} ms`);
if (misses.length > 0) console.log(`\nanswerable questions with a wrong or missing citation:\n${misses.join("\n")}`);
if (wrongAnswers.length > 0) console.log(`\nunanswerable questions that were not refused:\n${wrongAnswers.join("\n")}`);
console.log(`\ncommand: npm run eval:ask; ${((performance.now() - started) / 1000).toFixed(0)} s`);
await db.close();
