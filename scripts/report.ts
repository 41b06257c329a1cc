/**
 * `npm run report`: runs every benchmark and evaluation of the project and writes
 * docs/benchmarks.md with each one's figures, the command that produced them, when, how long it
 * took and on which machine. Each run's output is kept in .bench/report/<name>.json, so
 * `npm run report -- --only bench:load,eval:ask` re-runs some and rebuilds the page with the
 * others' last results (each section keeps its own date). `--list` names the steps; `--render`
 * rewrites the page from the stored results without running anything.
 * A step that fails is reported as failed with its output, and the page is still written.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, platform, release, totalmem } from "node:os";
import { join } from "node:path";

interface Step {
  name: string;
  title: string;
  /** What the figures mean, in a sentence or two. */
  about: string;
  command: string;
  env?: Record<string, string>;
  /** Keep only the lines that carry figures (progress lines are dropped). */
  keep?: (line: string) => boolean;
}

// Progress and runner chatter, not figures: log prefixes, npm banners, counters like
// "  32 / 5183 records, …" or "queries: 643 / 809, 275 s", and vitest's frame.
const progress =
  /^(\[(db|index|worker|seed|demo|bench:load|eval|pglite|web\d*|report)\]|> |npm (warn|notice)|\s*$|\s*(queries: )?\d+ \/ \d+\b.*\d+ s$|.*RUN\s+v\d|.*Duration\s|.*Start at\s|.*Test Files\s|.*✓|.*stdout \|)/;

const steps: Step[] = [
  {
    name: "test:acl-fuzz",
    title: "ACL leak fuzzing",
    about:
      "Canary records in restricted projects; random principals send seeded random requests through every path (list, record, media, search, similar, ask, objects, proposals, JSON API, MCP). Leaks and denied-vs-missing differences must be 0; the medians compare the time of a request aimed at an unreadable record with the same request aimed at a missing one.",
    command: "npm run test:acl-fuzz",
    env: { MNEMO_ACL_FUZZ_SEED: "20261130" },
    keep: (line) => line.includes("acl-fuzz"),
  },
  {
    name: "test:acl-fuzz:server",
    title: "ACL leak fuzzing, server mode",
    about: "The same fuzzing with the database reached over the Postgres protocol (pg driver).",
    command: "npm run test:acl-fuzz",
    env: { MNEMO_ACL_FUZZ_SEED: "20261130", MNEMO_TEST_DB_MODE: "socket" },
    keep: (line) => line.includes("acl-fuzz"),
  },
  {
    name: "test:bad-inputs",
    title: "Bad-input catalogue",
    about: "Malformed inputs across forms, actions, the API and MCP: each must get a 4xx with a clear message, never a 500, and leave nothing half-written.",
    command: "npm run test:bad-inputs",
    keep: (line) => /catalogue|bad-input/i.test(line),
  },
  {
    name: "test:faults",
    title: "Faults: crashes and provider outages",
    about: "Workers and writers killed with SIGKILL mid-work, then restarted; embedding, rerank and answer endpoints down, failing or slow.",
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
    command: "npm run test:faults:app",
    keep: (line) => /^(ok |FAIL|seeded|SIGKILL|restarted|clean|all checks|\d+ check)/.test(line),
  },
  {
    name: "bench:load",
    title: "Load: the production build under concurrent signed-in users",
    about:
      "Mixed traffic at once — researchers browsing the list with facets, searching it by meaning, opening records and asking (streamed); a curator saving through the editor's action; an agent searching and reading on the API — after and during the first indexing, embedded, in server mode (one web process, a separate worker) and scaled out (two web processes behind a round-robin proxy, one worker). The second table is how far indexing got in each window.",
    command: "npm run bench:load",
  },
  {
    name: "bench:search",
    title: "Search latency and HNSW recall",
    about: "Search by meaning end to end over at least 50,000 passages; recall@10 of the HNSW index against exact search, for an admin and a principal who reads about 2% of the passages.",
    command: "npm run bench:search",
  },
  {
    name: "bench:index",
    title: "Indexing throughput",
    about: "The full indexing pipeline as a ratio of the raw embedder's throughput on the same texts; embed calls when re-indexing unchanged records; peak memory.",
    command: "npm run bench:index",
  },
  {
    name: "bench:import",
    title: "Bulk import",
    about: "10,000 generated rows for the demo's Publications section on a fresh embedded database: rows/s of the dry run, the import job and a re-import of the same file (every row unchanged); the longest the event loop was held; peak memory.",
    command: "npm run bench:import",
  },
  {
    name: "eval:archive",
    title: "Search and answers on the whole demo archive",
    about:
      "The full demo (every section, 4,533 records) as the researcher and the admin meet it: nDCG@10, recall@10 and MRR@10 per mode and query language, and cited answers (right record, facts, citation precision, refusals), on the dev half the fusion was measured on and on the test half nobody tuned on.",
    command: "npm run eval:archive",
  },
  {
    name: "eval:retrieval",
    title: "Retrieval quality (BEIR SciFact, Tatoeba)",
    about: "nDCG@10, recall@100 and MRR@10 for keyword, dense and hybrid search through the product's own pipeline; cross-lingual recall@1 English–Spanish.",
    command: "npm run eval:retrieval",
  },
  {
    name: "eval:ask",
    title: "Cited answers",
    about: "Citation precision, answer recall and refusal correctness on the demo archive's golden questions.",
    command: "npm run eval:ask",
  },
  {
    name: "eval:objects",
    title: "Object proposals and similar objects",
    about: "Leave-one-out typology, material, period and date proposals on the full demo's objects, similar-objects latency, and the near-duplicate floor.",
    command: "npm run eval:objects",
  },
  {
    name: "eval:image-descriptors",
    title: "Offline image descriptors",
    about: "Which local descriptor best predicts an object's labels from its (generated) image.",
    command: "npm run eval:image-descriptors",
  },
  {
    name: "eval:ocr",
    title: "OCR of scanned pages",
    about:
      "Character error rate (Levenshtein distance over the known text's characters, whitespace runs as one space) and wall-clock seconds per page of the index worker's OCR (tesseract spa+cat+eng, OMP_THREAD_LIMIT=1, a levelled and despeckled second reading under the confidence bar) on the opening pages of three demo publications (English, Spanish, Catalan) rendered at 300 dpi clean, turned 1.5°, speckled (3% of pixels), at 150 dpi, and inside a PDF.",
    command: "npm run eval:ocr",
  },
];

interface StepResult {
  name: string;
  command: string;
  env: Record<string, string>;
  startedAt: string;
  seconds: number;
  exitCode: number | null;
  output: string[];
}

const cacheDir = join(".bench", "report");

function machine(): string {
  const cpu = cpus()[0]?.model ?? "unknown CPU";
  return `${cpus().length} × ${cpu}, ${Math.round(totalmem() / 2 ** 30)} GiB RAM, ${platform()} ${release()}, Node ${process.version}`;
}

function runStep(step: Step): Promise<StepResult> {
  return new Promise((resolve) => {
    const startedAt = new Date();
    const env = { ...process.env, ...(step.env ?? {}) };
    console.log(`[report] ${step.name}: ${step.command}${step.env ? ` (${Object.entries(step.env).map(([key, value]) => `${key}=${value}`).join(" ")})` : ""}`);
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
        // Everything printed is kept; the page picks the figures when it is written.
        output: lines,
      });
    });
  });
}

function section(step: Step, result: StepResult | undefined): string {
  const heading = `## ${step.title}\n\n${step.about}\n\n`;
  if (!result) return `${heading}_Not run yet: \`npm run report -- --only ${step.name}\`._\n`;
  const env = Object.entries(result.env).map(([key, value]) => `${key}=${value} `).join("");
  const status = result.exitCode === 0 ? "" : `\n**This run failed (exit ${result.exitCode}); the end of its output follows.**\n`;
  const keep = step.keep ?? ((line: string) => !progress.test(line));
  const body = (result.exitCode === 0 ? result.output.filter(keep) : result.output.slice(-60)).join("\n").trim();
  // Markdown tables are kept as tables (consecutive table lines stay one table); anything else
  // is shown as printed.
  const runs: { table: boolean; lines: string[] }[] = [];
  for (const line of body.split("\n")) {
    const table = line.trimStart().startsWith("|");
    const last = runs.at(-1);
    if (last && last.table === table) last.lines.push(line);
    else runs.push({ table, lines: [line] });
  }
  const blocks = runs
    .map((run) => (run.table ? run.lines.map((line) => line.trim()).join("\n") : "```\n" + run.lines.join("\n").trim() + "\n```"))
    .filter((block) => block !== "```\n\n```");
  return `${heading}\`${env}${result.command}\` — ${result.startedAt.slice(0, 16).replace("T", " ")} UTC, ${result.seconds} s${status}\n\n${blocks.join("\n\n")}\n`;
}

function main() {
  const args = process.argv.slice(2);
  if (args.includes("--list")) {
    for (const step of steps) console.log(`${step.name.padEnd(24)} ${step.command}`);
    return Promise.resolve();
  }
  const onlyIndex = args.indexOf("--only");
  const only = onlyIndex >= 0 ? new Set((args[onlyIndex + 1] ?? "").split(",").filter(Boolean)) : null;
  const unknown = only ? [...only].filter((name) => !steps.some((step) => step.name === name)) : [];
  if (unknown.length > 0) throw new Error(`unknown step(s): ${unknown.join(", ")}; see npm run report -- --list`);
  mkdirSync(cacheDir, { recursive: true });

  return (async () => {
    for (const step of steps) {
      if (args.includes("--render") || (only && !only.has(step.name))) continue;
      const result = await runStep(step);
      writeFileSync(join(cacheDir, `${step.name.replace(/[^a-z0-9-]+/gi, "_")}.json`), JSON.stringify({ ...result, machine: machine() }, null, 2));
    }
    const sections: string[] = [];
    const machines = new Set<string>();
    for (const step of steps) {
      const file = join(cacheDir, `${step.name.replace(/[^a-z0-9-]+/gi, "_")}.json`);
      const stored = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as StepResult & { machine: string }) : undefined;
      if (stored) machines.add(stored.machine);
      sections.push(section(step, stored));
    }
    const page = [
      "# Mnemo — benchmarks and evaluations",
      "",
      "Written by `npm run report` (scripts/report.ts) from the runs below; each section names its command and when it ran. " +
        "The machine is shared and noisy: compare figures within one run (ratios), not across runs.",
      "",
      `Machine: ${[...machines].join("; ") || machine()}.`,
      "",
      ...sections,
    ].join("\n");
    writeFileSync(join("docs", "benchmarks.md"), page.replace(/\n{3,}/g, "\n\n"));
    console.log(`[report] wrote docs/benchmarks.md (${sections.length} sections)`);
  })();
}

await main();
