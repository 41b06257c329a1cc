/**
 * `npm run report`: runs every benchmark and evaluation of the project, keeps each run's output in
 * .bench/report/<step>.json (MNEMO_REPORT_CACHE sets another folder), then writes each step's
 * figures into its doc — docs/benchmarks.md for speed, load, scale and safety, docs/quality.md for
 * search, answer and object quality — between the step's markers:
 *
 *   <!-- report:bench:load -->
 *   <!-- /report:bench:load -->
 *
 * Only the text between a step's markers is replaced (the command, when it ran, how long it took,
 * the figures); the hand-written text around it is kept byte for byte. A step without a stored
 * result keeps its region as it is. A step with a result and no markers in its doc gets a new
 * section at the end of that doc. A marker that does not pair up stops the script before it writes
 * anything. The splicing lives in scripts/eval/report-doc.ts.
 *
 *   --list           names the steps, their doc and command
 *   --only a,b       runs these steps, then writes the docs from every step's last stored result
 *   --render         writes the docs from the stored results without running anything
 *   --dry-run        as --render, but only says which regions would change
 *
 * A step that fails is written as failed with the end of its output.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, platform, release, totalmem } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { type DocPlan, ReportDocError, type Step, type StepResult, isProgress, updateDocs } from "./report-doc";

const aclFuzz = { MNEMO_ACL_FUZZ_SEED: "20261202", MNEMO_ACL_FUZZ_PROBES: "10000" };

/** In the order they run: a step that reads what an earlier one builds comes after it. */
export const steps: Step[] = [
  {
    name: "test:acl-fuzz",
    title: "ACL leak fuzzing",
    about:
      "Canary records in restricted projects; random principals send seeded random requests through every path (list, record, media, search, similar, ask, objects, proposals, JSON API, MCP). Leaks and denied-vs-missing differences must be 0; the medians compare the time of a request aimed at an unreadable record with the same request aimed at a missing one.",
    doc: "benchmarks",
    command: "npm run test:acl-fuzz",
    env: aclFuzz,
    keep: (line) => line.includes("acl-fuzz"),
  },
  {
    name: "test:acl-fuzz:server",
    title: "ACL leak fuzzing, server mode",
    about: "The same fuzzing with the database reached over the Postgres protocol (pg driver).",
    doc: "benchmarks",
    command: "npm run test:acl-fuzz",
    env: { ...aclFuzz, MNEMO_TEST_DB_MODE: "socket" },
    keep: (line) => line.includes("acl-fuzz"),
  },
  {
    name: "test:bad-inputs",
    title: "Bad-input catalogue",
    about: "Malformed inputs across forms, actions, the API and MCP: each must get a 4xx with a clear message, never a 500, and leave nothing half-written.",
    doc: "benchmarks",
    command: "npm run test:bad-inputs",
    keep: (line) => /catalogue|bad-input/i.test(line),
  },
  {
    name: "test:faults",
    title: "Faults: crashes and provider outages",
    about: "Workers and writers killed with SIGKILL mid-work, then restarted; embedding, rerank and answer endpoints down, failing or slow.",
    doc: "benchmarks",
    command:
      "npx vitest run --project integration --reporter=verbose tests/integration/faults.test.ts tests/integration/crash-recovery.test.ts && " +
      "MNEMO_TEST_DB_MODE=socket npx vitest run --project integration --reporter=verbose tests/integration/faults.test.ts tests/integration/crash-recovery.test.ts",
    // The crash tests print their figures; every test's outcome is listed.
    keep: (line) => /\[crash-recovery\]|^\s*(✓|×|↓) |^\s*Tests\s/.test(line),
  },
  {
    name: "test:faults:app",
    title: "Faults: the production app killed while it indexes",
    about: "`next start` on the small demo, killed with SIGKILL twice while its in-process worker indexes, restarted; the index must equal a clean run's.",
    doc: "benchmarks",
    command: "npm run test:faults:app",
    keep: (line) => /^(ok |FAIL|seeded|SIGKILL|restarted|clean|all checks|\d+ check)/.test(line),
  },
  {
    name: "bench:load:pages",
    title: "Load: one page on one connection and on eight",
    about:
      "The researcher opens one page over and over (a coin's page, the unfiltered record list, an interview's page), on one connection and then on eight, embedded, on PostgreSQL and on two web processes behind a proxy.",
    doc: "benchmarks",
    command: "npm run bench:load",
    env: { BENCH_LOAD_MODES: "embedded,postgres,postgres-scaleout", BENCH_LOAD_PHASES: "pages", BENCH_LOAD_PAGE_SECONDS: "15" },
  },
  {
    name: "bench:load",
    title: "Load: mixed team traffic in every topology",
    about:
      "Mixed traffic at once — researchers browsing the list with facets, searching it by meaning, opening records and asking (streamed); a curator saving through the editor's action; an agent searching and reading on the API — after and during the first indexing, embedded, on PostgreSQL (one web process, a separate worker) and scaled out (two web processes behind a round-robin proxy, one worker). The second table is how far indexing got in each window.",
    doc: "benchmarks",
    command: "npm run bench:load",
    env: { BENCH_LOAD_PHASES: "after,during" },
  },
  {
    name: "bench:model-share",
    title: "The index worker's share of the model threads under constant requests",
    about:
      "Eight clients embedding queries back to back on two model threads while the index loop embeds passages beside them: request latency and how far the index gets, for each way the pool shares its threads.",
    doc: "benchmarks",
    command: "npm run bench:model-share",
  },
  {
    name: "bench:principal",
    title: "Per-request principal and section definitions, cached per process",
    about: "What a request spends resolving its principal and reading the section definitions, with the per-process caches off and on.",
    doc: "benchmarks",
    command: "npm run bench:principal",
  },
  {
    // After bench:load: it reads the indexed small demo that bench:load leaves in .bench/load/indexed.
    name: "bench:pglite-settings",
    title: "Embedded database memory settings",
    about: "The record list's queries and record pages on the indexed small demo, with PGlite's default memory settings and with more.",
    doc: "benchmarks",
    command: "npm run bench:pglite-settings",
  },
  {
    name: "bench:search",
    title: "Search latency and HNSW recall",
    about:
      "Search by meaning end to end over at least 50,000 passages; recall@10 of the HNSW index against exact search, for an admin and a principal who reads about 2% of the passages.",
    doc: "benchmarks",
    command: "npm run bench:search",
  },
  {
    name: "bench:index",
    title: "Indexing throughput",
    about:
      "The full indexing pipeline as a ratio of the raw embedder's throughput on the same texts; embed calls when re-indexing unchanged records; peak memory.",
    doc: "benchmarks",
    command: "npm run bench:index",
  },
  {
    name: "bench:import",
    title: "Bulk import",
    about:
      "10,000 generated rows for the demo's Publications section on a fresh embedded database: rows/s of the dry run, the import job and a re-import of the same file (every row unchanged); the longest the event loop was held; peak memory.",
    doc: "benchmarks",
    command: "npm run bench:import",
  },
  {
    // Long: it builds an archive of 100,000 passages on PostgreSQL and on PGlite (its defaults).
    name: "bench:scale",
    title: "Scale: 100,000 passages on PostgreSQL and PGlite",
    about:
      "An archive shaped like the demo built by the app's own indexer and measured through searchArchive: ingest, HNSW build, memory and disk, keyword/semantic/hybrid latency and HNSW recall@10 per principal, the record list with facets and the extractive ask.",
    doc: "benchmarks",
    command: "npm run bench:scale -- --passages 100000 --databases postgres,pglite --queries 30",
    // Its progress lines share the [bench:scale] prefix with the check of the synthetic vectors.
    keep: (line) => !isProgress(line) || /^\[bench:scale\] .*(real embedder|mean cosine|held no sentence|FAILED)/.test(line),
  },
  {
    name: "bench:bridge",
    title: "The language bridge on a new Spanish or Catalan query",
    about:
      "A query the process has not seen is translated to English with Apertium before either leg runs: one apertium run per query against the long-lived pipelines.",
    doc: "benchmarks",
    command: "npm run bench:bridge",
  },
  {
    name: "eval:archive",
    title: "Search and answers on the whole demo archive",
    about:
      "The full demo (every section, 4,533 records) as the researcher and the admin meet it: nDCG@10, recall@10 and MRR@10 per mode and query language, and cited answers (right record, facts, citation precision, primary source first, refusals; also for why/how questions alone), on the dev half the fusion was measured on and on the test half nobody tuned on.",
    doc: "quality",
    command: "npm run eval:archive",
  },
  {
    // After eval:archive: the full demo it indexes into .data/eval-cache is what this step opens.
    name: "bench:record-page",
    title: "A record page: its first byte and its parts",
    about:
      "What a record page's parts cost as the page calls them, then the pages over HTTP from the production server: time to the first byte and to the whole page, on the full demo as the researcher.",
    doc: "benchmarks",
    command: "npm run bench:record-page",
    env: { BENCH_RECORD_PAGE_DEMO: "full" },
  },
  {
    name: "eval:retrieval",
    title: "Retrieval quality (BEIR SciFact)",
    about: "nDCG@10, recall@100 and MRR@10 on SciFact as searchArchive serves it, with the fusion measured on the tune half and reported on the report half.",
    doc: "quality",
    command: "npm run eval:retrieval -- --calibrate --no-tatoeba --no-short-sentences",
  },
  {
    name: "eval:retrieval:tatoeba",
    title: "Tatoeba through the product's search",
    about:
      "Cross-lingual recall@1 English–Spanish on Tatoeba: dense cosine, and keyword, semantic and hybrid through searchArchive, its fusion measured on the even lines and judged on the odd ones.",
    doc: "quality",
    command: "npm run eval:retrieval -- --tatoeba-only",
  },
  {
    name: "eval:retrieval:short-sentences",
    title: "Short Catalan and Spanish sentences",
    about:
      "Language detection and cross-lingual recall@1 on short sentences written for Mnemo (scripts/data/short-sentences.tsv; even lines tuned on, odd lines reported).",
    doc: "quality",
    command: "npm run eval:retrieval -- --no-beir --no-tatoeba",
  },
  {
    name: "eval:ask",
    title: "Cited answers",
    about: "Citation precision, answer recall and refusal correctness on the demo archive's golden questions.",
    doc: "quality",
    command: "npm run eval:ask",
  },
  {
    name: "eval:objects",
    title: "Object proposals and similar objects",
    about: "Leave-one-out typology, material, period and date proposals on the full demo's objects, similar-objects latency, and the near-duplicate floor.",
    doc: "quality",
    command: "npm run eval:objects",
  },
  {
    name: "eval:image-descriptors",
    title: "Offline image descriptors",
    about: "Which local descriptor best predicts an object's labels from its (generated) image.",
    doc: "quality",
    command: "npm run eval:image-descriptors",
  },
  {
    name: "eval:ocr",
    title: "OCR of scanned pages",
    about:
      "Character error rate (Levenshtein distance over the known text's characters, whitespace runs as one space) and wall-clock seconds per page of the index worker's OCR (tesseract spa+cat+eng, OMP_THREAD_LIMIT=1, a levelled and despeckled second reading under the confidence bar) on the opening pages of three demo publications (English, Spanish, Catalan) rendered at 300 dpi clean, turned 1.5°, speckled (3% of pixels), at 150 dpi, and inside a PDF.",
    doc: "quality",
    command: "npm run eval:ocr",
  },
  {
    name: "eval:segmentation",
    title: "Speech segments from silence detection",
    about:
      "Turn starts of the demo's synthesised interviews against the speech segments ffmpeg's silencedetect finds, at the worker's settings and around them.",
    doc: "quality",
    command: "npm run eval:segmentation",
  },
];

const cacheDir = process.env.MNEMO_REPORT_CACHE || join(".bench", "report");
const cacheFile = (step: Step) => join(cacheDir, `${step.name.replace(/[^a-z0-9-]+/gi, "_")}.json`);

function machine(): string {
  const cpu = cpus()[0]?.model ?? "unknown CPU";
  return `${cpus().length} × ${cpu}, ${Math.round(totalmem() / 2 ** 30)} GiB RAM, ${platform()} ${release()}, Node ${process.version}`;
}

function runStep(step: Step): Promise<StepResult> {
  return new Promise((resolve) => {
    const startedAt = new Date();
    const env = { ...process.env, ...(step.env ?? {}) };
    console.log(
      `[report] ${step.name}: ${step.command}${
        step.env
          ? ` (${Object.entries(step.env)
              .map(([key, value]) => `${key}=${value}`)
              .join(" ")})`
          : ""
      }`,
    );
    const child = spawn("bash", ["-c", step.command], { env, stdio: ["ignore", "pipe", "pipe"] });
    let text = "";
    const collect = (chunk: Buffer) => {
      text += chunk.toString();
      process.stdout.write(chunk);
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.on("close", (exitCode) => {
      // Colour codes out; figures in.
      const lines = text.replace(/\x1b\[[0-9;]*m/g, "").split("\n");
      resolve({
        name: step.name,
        command: step.command,
        env: step.env ?? {},
        startedAt: startedAt.toISOString(),
        seconds: Math.round((Date.now() - startedAt.getTime()) / 1000),
        exitCode,
        // Everything printed is kept; the docs pick the figures when they are written.
        output: lines,
        machine: machine(),
      });
    });
  });
}

function storedResults(): Map<string, StepResult> {
  const results = new Map<string, StepResult>();
  for (const step of steps) {
    const file = cacheFile(step);
    if (existsSync(file)) results.set(step.name, JSON.parse(readFileSync(file, "utf8")) as StepResult);
  }
  return results;
}

function printPlan(plan: DocPlan, dryRun: boolean) {
  for (const warning of plan.warnings) console.warn(`[report] warning: ${warning}`);
  const verb = (done: string, would: string) => (dryRun ? would : done);
  if (plan.replaced.length > 0) console.log(`[report] ${plan.file}: ${verb("replaced", "would replace")} ${plan.replaced.join(", ")}`);
  if (plan.same.length > 0) console.log(`[report] ${plan.file}: unchanged ${plan.same.join(", ")}`);
  if (plan.appended.length > 0)
    console.log(
      `[report] ${plan.file}: no markers yet for ${plan.appended.join(", ")}; ${verb("appended", "would append")} a section at the end (move it where it belongs)`,
    );
  if (plan.waiting.length > 0) console.log(`[report] ${plan.file}: kept as they are (no stored result in ${cacheDir}): ${plan.waiting.join(", ")}`);
  const changed = plan.after !== plan.before;
  console.log(`[report] ${plan.file}: ${changed ? verb("written", "would be written") : "nothing to change"}`);
}

async function main() {
  // Strict: a misspelt --dry-run must not start hours of runs.
  const { values: args } = parseArgs({
    options: { list: { type: "boolean" }, only: { type: "string" }, render: { type: "boolean" }, "dry-run": { type: "boolean" } },
    strict: true,
    allowPositionals: false,
  });
  if (args.list) {
    for (const step of steps)
      console.log(
        `${step.name.padEnd(32)} ${step.doc.padEnd(11)} ${Object.entries(step.env ?? {})
          .map(([key, value]) => `${key}=${value} `)
          .join("")}${step.command}`,
      );
    return;
  }
  const dryRun = args["dry-run"] === true;
  const renderOnly = dryRun || args.render === true;
  const only = args.only === undefined ? null : new Set(args.only.split(",").filter(Boolean));
  const unknown = only ? [...only].filter((name) => !steps.some((step) => step.name === name)) : [];
  if (unknown.length > 0) throw new ReportDocError(`unknown step(s): ${unknown.join(", ")}; see npm run report -- --list`);

  if (!renderOnly) {
    // A marker that does not pair up is found now, not after hours of runs.
    updateDocs(".", steps, new Map(), { dryRun: true });
    mkdirSync(cacheDir, { recursive: true });
    for (const step of steps) {
      if (only && !only.has(step.name)) continue;
      const result = await runStep(step);
      writeFileSync(cacheFile(step), JSON.stringify(result, null, 2));
    }
  }
  // Read again after the runs: the docs may have been edited meanwhile.
  for (const plan of updateDocs(".", steps, storedResults(), { dryRun })) printPlan(plan, dryRun);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    await main();
  } catch (error) {
    const usage = error instanceof Error && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS");
    if (!(error instanceof ReportDocError) && !usage) throw error;
    console.error(`[report] ${(error as Error).message}; nothing written${usage ? " (options: --list, --only a,b, --render, --dry-run)" : ""}`);
    process.exitCode = 1;
  }
}
