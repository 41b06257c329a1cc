/**
 * `npm run eval:ask`: the ask pipeline on the demo archive against a golden set written for it
 * (scripts/data/ask-golden.json): questions with the records whose passages answer them, and
 * questions the archive cannot answer. Prints citation precision (cited passages that belong to
 * an expected record), answer recall (questions citing at least one expected record; and the
 * share of expected records cited), and refusal correctness on both kinds of question, plus the
 * evidence scores behind each refusal so the thresholds can be read off rather than guessed.
 * The set is split deterministically into alternate entries: the dev half (even positions) is
 * where thresholds and scoring are tuned, the test half (odd positions) is only reported, and
 * each half's figures are printed apart.
 *
 * The small demo archive is seeded and indexed once into .data/eval-cache/ask-<model>-c<chunker>/ (about
 * two minutes here); later runs reuse it. The generator is the configured one (MNEMO_GENERATOR,
 * default the offline extractive answerer); thresholds are answerSettings' defaults (lib/rag/config/settings.ts).
 *
 *   npm run eval:ask [-- --verbose] [-- --dev | --test]   (--verbose also prints each answer)
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { systemPrincipal } from "../../lib/acl";
import { openDatabase } from "../../lib/db/database";
import { generatorFromEnv } from "../../lib/rag/ask/create-generator";
import { CHUNKER_VERSION } from "../../lib/rag/chunk";
import { type AskOutcome, ask, defaultAskSettings } from "../../lib/rag/ask/ask";
import { createEmbedder, embedderConfigFromEnv } from "../../lib/rag/embed/create-embedder";
import { configuredIndexer } from "../../lib/rag/index/configured-indexer";
import { activateIndexSpace } from "../../lib/rag/index/index-spaces";
import { runWorker } from "../../lib/rag/index/run-worker";
import { seedDemo } from "../../prisma/seed/seed-demo";

interface Golden {
  answerable: { question: string; expected: string[] }[];
  unanswerable: string[];
}

function readArguments() {
  try {
    return parseArgs({
      options: { verbose: { type: "boolean", default: false }, dev: { type: "boolean", default: false }, test: { type: "boolean", default: false } },
      strict: true,
    }).values;
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\nusage: npm run eval:ask [-- --verbose] [-- --dev | --test]`);
    process.exit(2);
  }
}
const flags = readArguments();
const verbose = flags.verbose;
const golden = JSON.parse(readFileSync(join(process.cwd(), "scripts", "data", "ask-golden.json"), "utf8")) as Golden;

const started = performance.now();
const embedder = createEmbedder(embedderConfigFromEnv(process.env));
// A new chunker makes a new index space: its cache is a new one, seeded and indexed afresh.
const cacheDir = join(process.cwd(), ".data", "eval-cache", `ask-${embedder.provider}-${embedder.model}-${embedder.dimension}-c${CHUNKER_VERSION}`);
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
const settings = Object.fromEntries(Object.entries(generation).filter(([, value]) => value !== undefined));
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

type Half = "dev" | "test";
/** Alternate entries: even positions are the dev half (tune here), odd ones the test half (report here). */
const halfOf = (index: number): Half => (index % 2 === 0 ? "dev" : "test");
const onlyHalf = (["dev", "test"] as const).find((half) => flags[half]);
const halves: Half[] = onlyHalf ? [onlyHalf] : ["dev", "test"];

interface AnswerableResult {
  half: Half;
  cited: number;
  citedExpected: number;
  expectedShare: number;
  answered: boolean;
  line: string;
  miss: boolean;
}
interface UnanswerableResult {
  half: Half;
  refused: boolean;
  line: string;
}
const timings: number[] = [];
const answerableResults: AnswerableResult[] = [];
for (const [index, item] of golden.answerable.entries()) {
  const half = halfOf(index);
  if (!halves.includes(half)) continue;
  const { outcome, ms } = await answer(item.question);
  timings.push(ms);
  const titles = outcome.citations.map((citation) => citation.recordTitle);
  const good = titles.filter((title) => item.expected.includes(title));
  const shown = outcome.status === "answered" ? `cited: ${titles.join(" | ") || "—"}` : bestEvidence(outcome);
  const line = `${half.padEnd(5)} ${outcome.status.padEnd(10)} ${item.question}\n                 ${shown}${verbose && outcome.status === "answered" ? `\n                 ${outcome.text.replace(/\n+/g, " ")}` : ""}`;
  const miss = good.length === 0 || good.length < titles.length;
  answerableResults.push({
    half,
    cited: titles.length,
    citedExpected: good.length,
    expectedShare: new Set(good).size / item.expected.length,
    answered: outcome.status === "answered",
    line,
    miss,
  });
  if (!miss && verbose) console.log(line);
}
const unanswerableResults: UnanswerableResult[] = [];
for (const [index, question] of golden.unanswerable.entries()) {
  const half = halfOf(index);
  if (!halves.includes(half)) continue;
  const { outcome, ms } = await answer(question);
  timings.push(ms);
  const refused = outcome.status === "refused";
  const line = `${half.padEnd(5)} ${outcome.status.padEnd(10)} ${question}\n                 ${bestEvidence(outcome)}${refused ? "" : `; cited: ${outcome.citations.map((citation) => citation.recordTitle).join(" | ")}`}`;
  unanswerableResults.push({ half, refused, line });
  if (verbose && refused) console.log(line);
}

const sorted = [...timings].sort((a, b) => a - b);
const percentile = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

console.log(`\nMnemo eval:ask — ${new Date().toISOString()}`);
console.log(`machine: ${cpus()[0]?.model ?? "?"} × ${cpus().length}, node ${process.version}`);
console.log(`index: ${space.name}; generator: ${generator.name}/${generator.model}`);
console.log(
  `thresholds: similarity ≥ ${effective.strongSimilarity}, or ≥ ${effective.minSimilarity} with ${percent(effective.minTermCoverage)} of the question's words`,
);
console.log(
  `golden set: ${golden.answerable.length} answerable, ${golden.unanswerable.length} unanswerable questions (scripts/data/ask-golden.json), split into alternate halves: dev (tune) and test (report)`,
);
for (const half of halves) {
  const answerable = answerableResults.filter((result) => result.half === half);
  const unanswerable = unanswerableResults.filter((result) => result.half === half);
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  const cited = sum(answerable.map((result) => result.cited));
  const citedExpected = sum(answerable.map((result) => result.citedExpected));
  const withExpected = answerable.filter((result) => result.citedExpected > 0).length;
  const falseRefusals = answerable.filter((result) => !result.answered).length;
  const correctRefusals = unanswerable.filter((result) => result.refused).length;
  console.log(`\n${half} half: ${answerable.length} answerable, ${unanswerable.length} unanswerable`);
  console.log(
    `  citation precision      ${percent(cited ? citedExpected / cited : 0)}  (${citedExpected} of ${cited} cited passages are from an expected record)`,
  );
  console.log(
    `  answer recall           ${percent(withExpected / answerable.length)}  (${withExpected} of ${answerable.length} questions cite an expected record)`,
  );
  console.log(
    `  expected records cited  ${percent(sum(answerable.map((result) => result.expectedShare)) / answerable.length)}  (mean share of each question's expected records)`,
  );
  console.log(
    `  refusal correctness     ${percent((correctRefusals + answerable.length - falseRefusals) / (answerable.length + unanswerable.length))}  (unanswerable refused ${correctRefusals}/${unanswerable.length}; answerable refused ${falseRefusals}/${answerable.length})`,
  );
}
console.log(`\nlatency per question    p50 ${percentile(50).toFixed(0)} ms, p95 ${percentile(95).toFixed(0)} ms`);
const misses = answerableResults.filter((result) => result.miss).map((result) => result.line);
const wrongAnswers = unanswerableResults.filter((result) => !result.refused).map((result) => result.line);
if (misses.length > 0) console.log(`\nanswerable questions with a wrong or missing citation:\n${misses.join("\n")}`);
if (wrongAnswers.length > 0) console.log(`\nunanswerable questions that were not refused:\n${wrongAnswers.join("\n")}`);
console.log(`\ncommand: npm run eval:ask; ${((performance.now() - started) / 1000).toFixed(0)} s`);
await db.close();
