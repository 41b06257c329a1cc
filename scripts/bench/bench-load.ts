/**
 * `npm run bench:load`: the production server (server.ts, as `npm start`) under mixed traffic
 * from a team, in three topologies and two phases, on the small demo.
 *
 * Traffic (BENCH_LOAD_CONNECTIONS closed-loop connections, default 10, shared out by weight):
 * researchers browsing the record list with facets (section, language, decades, pages),
 * searching it by meaning, opening record pages and asking questions (streamed to the end),
 * signed in as the four demo users; a curator opening a record's editor and saving it through
 * the editor's own server action (the request the browser sends: POST to the edit page with
 * Next-Action and React's encoded form, answered with a redirect); an agent with an API token
 * searching and reading records on /api/v1. For BENCH_LOAD_SECONDS (default 30).
 *
 * Phases (BENCH_LOAD_PHASES, default `after,during`): `after` indexing (the indexed demo; the
 * worker only has the curator's saves to index), `during` the first indexing (the seeded demo
 * with every record queued, the worker running while the load runs), and `reindex` (the indexed
 * demo with every record queued again just before the load, through the admin page's Reindex
 * action; unchanged passages are reused, so this is the light case). Indexing progress in the
 * window is read from /api/health as the admin, before and after the load.
 *
 * Phase `pages`: no mixed traffic; the researcher opens one page over and over, on one connection
 * and then on eight, for BENCH_LOAD_PAGE_SECONDS each (default 20): a coin's page, the unfiltered
 * record list and an interview's page. The ratio of the two throughputs says whether concurrent
 * requests use the cores; beside it, the cores the whole machine kept busy at one and at eight
 * connections (/proc/stat, cpu-busy.ts), the machine's CPU time per page, the part of it this
 * process spent (the load generator, and the proxy in scale-out: a real client's and balancer's
 * work, done elsewhere) and the rate all cores would serve at each cost: what bounds the ratio.
 *
 * Topologies (BENCH_LOAD_MODES, default `embedded,postgres,postgres-scaleout`):
 * - embedded: one web process with PGlite and its in-process index worker;
 * - postgres: a real PostgreSQL with pgvector (a cluster this script keeps under .bench/postgres,
 *   started for the run with scripts/postgres-cluster.mjs's benchmark settings; the demo seeded and
 *   indexed into it once by `npm run worker`, each run on a copy made with CREATE DATABASE …
 *   TEMPLATE), one web process and a separate `npm run worker` process;
 * - postgres-scaleout: that database, TWO web processes and one worker process, behind a
 *   round-robin HTTP proxy in this script that the load targets;
 * - server and scaleout: the same two topologies on PGlite served over the Postgres protocol by
 *   scripts/pglite-server.ts (one session that runs one message at a time, lib/db/serve-pglite.ts):
 *   the server-mode code paths without a database that runs queries in parallel.
 *
 * BENCH_LOAD_MODEL_THREADS sets MNEMO_MODEL_THREADS (lib/rag/embed/model-pool.ts) in the web
 * processes and the separate worker (unset: their default, one thread per core, at most four);
 * BENCH_LOAD_POOL_SIZE the database connections per process in the server topologies (default: 1
 * on PGlite, which runs one message at a time whatever the pool; the app's own default on PostgreSQL).
 * BENCH_LOAD_INDEX_LOG=1 prints the index workers' progress lines, timed from each process's start.
 * BENCH_LOAD_CPU_PROF=<dir> runs each web process under `node --cpu-prof` into that directory
 * (a directory per process and run, a .cpuprofile per thread, written when it stops);
 * `npm run profile:summary -- <dir>`
 * says where the time went.
 * Prints one markdown table (p50/p95/p99 per kind, totals, errors) and one of indexing progress,
 * and writes .bench/load.json.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { Agent, type IncomingMessage, type Server, type ServerResponse, createServer, request as httpRequest } from "node:http";
import { connect } from "node:net";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { benchPostgresRoot, copyDatabase, ensureSmallDemo, ensureSmallDemoOnPostgres, runToEnd } from "./bench-small-demo";
import { coresBusy, pageCost, sampleCpu } from "./cpu-busy";
import { settingsForBenchmarks, startCluster, type Cluster } from "../postgres-cluster.mjs";
import { createApiToken } from "../../lib/auth/api-tokens";
import { loadPrincipal } from "../../lib/auth/load-principal";
import { openDatabase, type OpenDatabaseOptions } from "../../lib/db/database";

const allTopologies = ["embedded", "server", "scaleout", "postgres", "postgres-scaleout"] as const;
type Topology = (typeof allTopologies)[number];
type Phase = "after" | "during" | "reindex" | "pages";
const onPostgres = (topology: Topology) => topology === "postgres" || topology === "postgres-scaleout";
const scaledOut = (topology: Topology) => topology === "scaleout" || topology === "postgres-scaleout";

function listFromEnv<T extends string>(name: string, fallback: string, allowed: readonly T[]): T[] {
  const values = (process.env[name] ?? fallback)
    .split(",")
    .map((value) => value.trim())
    .filter(Boolean);
  const wrong = values.filter((value) => !allowed.includes(value as T));
  if (wrong.length > 0 || values.length === 0)
    throw new Error(`${name}: expected a comma-separated list of ${allowed.join(", ")} (got "${process.env[name]}")`);
  return values as T[];
}

const seconds = Number(process.env.BENCH_LOAD_SECONDS ?? 30);
const connections = Math.max(7, Number(process.env.BENCH_LOAD_CONNECTIONS ?? 10));
const topologies = listFromEnv<Topology>("BENCH_LOAD_MODES", "embedded,postgres,postgres-scaleout", allTopologies);
const phases = listFromEnv<Phase>("BENCH_LOAD_PHASES", "after,during,pages", ["after", "during", "reindex", "pages"]);
const pageSeconds = Number(process.env.BENCH_LOAD_PAGE_SECONDS ?? 20);
const modelThreads = process.env.BENCH_LOAD_MODEL_THREADS?.trim() || undefined;
const poolSizeSetting = process.env.BENCH_LOAD_POOL_SIZE?.trim() || undefined;
/** Connections per process: as set, else one on PGlite (one message at a time) and the app's default on PostgreSQL. */
const poolSizeFor = (topology: Topology): string | undefined => poolSizeSetting ?? (onPostgres(topology) ? undefined : "1");
const cpuProfileDir = process.env.BENCH_LOAD_CPU_PROF?.trim() || undefined;
const root = ".bench/load";
const authSecret = "bench-load-secret-bench-load-secret-0123456789";
const webPort = Number(process.env.BENCH_LOAD_PORT ?? 3300);
const ports = { web: webPort, database: webPort + 1, secondWeb: webPort + 2, proxy: webPort + 3, postgres: webPort + 4 };

const users = [
  { email: "researcher@mnemo.demo", password: "mnemo-researcher" },
  { email: "curator@mnemo.demo", password: "mnemo-curator" },
  { email: "mine.researcher@mnemo.demo", password: "mnemo-mine" },
  { email: "admin@mnemo.demo", password: "mnemo-admin" },
];
const queries = [
  "why did the mine close",
  "fishing boats in the harbour",
  "the village flooded by the reservoir",
  "¿qué pasó con la mina?",
  "la inundació del poble",
  "silver coins of the Roman Republic",
  "what did the miners do after the strike",
  "bread and the bakery",
  "school in the valley",
  "harbour trades and women's work",
];
const questions = [
  "Why did the mine close?",
  "What happened to the village when the reservoir was filled?",
  "How did the fishermen sell their catch?",
  "When was the dam built?",
];

// Connections per kind, by weight (at least one each): what a team of researchers, one curator
// and one agent do at once.
const kindWeights = { browse: 2, search: 2, record: 2, ask: 1, save: 1, apiSearch: 1, apiRecord: 1 } as const;
type KindKey = keyof typeof kindWeights;
const kindLabels: Record<KindKey | "editForm", string> = {
  browse: "researcher: list with facets",
  search: "researcher: list search by meaning",
  record: "researcher: record page",
  ask: "researcher: ask (streamed to the end)",
  editForm: "curator: open the editor",
  save: "curator: save (editor's action)",
  apiSearch: "agent: API search (token)",
  apiRecord: "agent: API record (token)",
};

function shares(total: number): Record<KindKey, number> {
  const keys = Object.keys(kindWeights) as KindKey[];
  const weightSum = keys.reduce((sum, key) => sum + kindWeights[key], 0);
  const result = Object.fromEntries(keys.map((key) => [key, Math.max(1, Math.floor((total * kindWeights[key]) / weightSum))])) as Record<KindKey, number>;
  // What flooring left over goes to the heaviest kinds first.
  let left = total - keys.reduce((sum, key) => sum + result[key], 0);
  for (const key of [...keys].sort((a, b) => kindWeights[b] - kindWeights[a])) {
    if (left <= 0) break;
    result[key]++;
    left--;
  }
  return result;
}

function newestSource(paths: string[]): number {
  let newest = 0;
  const visit = (path: string) => {
    if (!existsSync(path)) return;
    const stats = statSync(path);
    if (stats.isDirectory()) {
      for (const entry of readdirSync(path)) if (entry !== "generated") visit(join(path, entry));
    } else newest = Math.max(newest, stats.mtimeMs);
  };
  paths.forEach(visit);
  return newest;
}

/** Node's flags for a CPU profile of one web process when BENCH_LOAD_CPU_PROF names a directory. */
function profileArgs(name: string): string[] {
  if (!cpuProfileDir) return [];
  // One directory per process and run: Node writes a profile per thread (the main thread, the
  // module loader's, each model thread), named by pid and thread id.
  const dir = join(cpuProfileDir, `${name}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  return ["--cpu-prof", `--cpu-prof-dir=${dir}`];
}

/** Starts a long-running process (node itself, with tsx as a loader, so stopping it stops the program, not a launcher). */
function start(command: string, args: string[], env: NodeJS.ProcessEnv, label: string): ChildProcess {
  const child = spawn(command, args, { env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const startedAt = performance.now();
  let recent: string[] = [];
  const log = (chunk: Buffer) => {
    for (const line of chunk.toString().split("\n")) {
      recent = [...recent.slice(-30), line];
      if (/error|warn|invalid/i.test(line) || (process.env.BENCH_LOAD_INDEX_LOG && line.includes("[index]")))
        console.log(`[${label} +${((performance.now() - startedAt) / 1000).toFixed(1)} s] ${line}`);
    }
  };
  child.stdout?.on("data", log);
  child.stderr?.on("data", log);
  child.on("exit", (code, signal) => {
    if (signal !== "SIGTERM" && code !== 0) console.log(`[${label}] exited with ${code ?? signal}:\n${recent.join("\n")}`);
  });
  return child;
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      resolve();
    }
  });
}

async function waitFor(url: string, child: ChildProcess, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before ${url} answered`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

async function waitForPort(port: number, child: ChildProcess, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the database server exited (${child.exitCode}) before port ${port} opened`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`port ${port} did not open within ${timeoutMs / 1000} s`);
}

/** Signs in through Auth.js's credentials flow and returns the session cookie. */
async function signIn(base: string, user: { email: string; password: string }): Promise<string> {
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const csrfCookie = csrf.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
  const response = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie },
    body: new URLSearchParams({ csrfToken, email: user.email, password: user.password, callbackUrl: `${base}/records` }),
  });
  await response.arrayBuffer();
  const session = response.headers.getSetCookie().find((cookie) => cookie.startsWith("authjs.session-token="));
  if (!session) throw new Error(`sign-in failed for ${user.email} (${response.status})`);
  return session.split(";")[0]!;
}

/**
 * Round-robin reverse proxy for the scale-out topology: each request goes to the next web
 * process, bodies streamed both ways (answers arrive as they are generated), headers (cookies,
 * Host, Origin) passed through unchanged, keep-alive to the backends.
 */
function roundRobinProxy(backends: number[]): { server: Server; served: number[] } {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const served = backends.map(() => 0);
  let next = 0;
  const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    const index = next++ % backends.length;
    served[index]!++;
    const upstream = httpRequest(
      { host: "127.0.0.1", port: backends[index], method: incoming.method, path: incoming.url, headers: incoming.headers, agent },
      (response) => {
        outgoing.writeHead(response.statusCode ?? 502, response.statusMessage, response.rawHeaders);
        response.pipe(outgoing);
      },
    );
    upstream.on("error", () => {
      if (!outgoing.headersSent) outgoing.writeHead(502).end();
      else outgoing.destroy();
    });
    // The client went away (an aborted answer): so does the backend request.
    outgoing.on("close", () => {
      if (!outgoing.writableFinished) upstream.destroy();
    });
    incoming.pipe(upstream);
  });
  return { server, served };
}

interface KindResult {
  kind: string;
  connections: number;
  requests: number;
  throughput: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  /** Cores the whole machine kept busy over the window (cpu-busy.ts); NaN where not measured. */
  coresBusy?: number;
  /**
   * This process's CPU ms per request over the window: the load generator (and the proxy in
   * scale-out). Only the pages phase reads it: there one load runs at a time, while the mixed
   * phases run several at once and each would count the others' CPU.
   */
  benchCpuMsPerPage?: number;
}

/**
 * What bounds a page's throughput: cores busy at one connection and at eight, the machine's CPU
 * time per page at eight (every process: web, database, load generator), the part of it that is
 * this process's (the load generator, the proxy in scale-out), and the rates all the cores would
 * serve at the machine's cost and at the server's alone. One connection already keeping more than
 * one core busy (the page's queries and its rendering overlap) caps 8 ÷ 1 below the core count.
 */
function busyCells(one: KindResult, eight: KindResult): string {
  const figure = (value: number | undefined, digits: number) => (value === undefined || Number.isNaN(value) ? "–" : value.toFixed(digits));
  const cost = pageCost({ coresBusy: eight.coresBusy, throughput: eight.throughput, cores: cpus().length, benchCpuMsPerPage: eight.benchCpuMsPerPage });
  return [
    `${figure(one.coresBusy, 2)} / ${figure(eight.coresBusy, 2)}`,
    figure(cost.machineMs, 0),
    figure(eight.benchCpuMsPerPage, 0),
    figure(cost.ceiling, 1),
    figure(cost.serverCeiling, 1),
  ].join(" | ");
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function summarise(kind: string, share: number, latencies: number[], errors: number, duration = seconds): KindResult {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    kind,
    connections: share,
    requests: sorted.length,
    throughput: sorted.length / duration,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    errors,
  };
}

type RequestSpec = { method: "GET" | "POST"; path: string; headers: Record<string, string>; body?: string };

function load(base: string, kind: string, share: number, next: () => RequestSpec, duration = seconds): Promise<KindResult> {
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    const cpuBefore = sampleCpu();
    const ownBefore = process.cpuUsage();
    const instance = autocannon(
      {
        url: base,
        connections: share,
        duration,
        timeout: 60,
        requests: [{ setupRequest: (request: autocannon.Request) => ({ ...request, ...next() }) }],
      },
      (error: Error | null, result: autocannon.Result) => {
        if (error) return reject(error);
        const own = process.cpuUsage(ownBefore);
        const summary = summarise(kind, share, latencies, result.errors + result.timeouts + result.non2xx, duration);
        resolve({
          ...summary,
          coresBusy: coresBusy(cpuBefore, sampleCpu(), cpus().length),
          benchCpuMsPerPage: summary.requests > 0 ? (own.user + own.system) / 1000 / summary.requests : Number.NaN,
        });
      },
    );
    instance.on("response", (_client: unknown, _status: number, _bytes: number, responseTime: number) => latencies.push(responseTime));
  });
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

function decodeEntities(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, decimal: string) => String.fromCodePoint(Number(decimal)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&nbsp;/g, "\u00a0")
    .replace(/&amp;/g, "&");
}

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return match ? decodeEntities(match[1]!) : undefined;
}

/**
 * What `new FormData(form)` gives for the record editor's server-rendered form: hidden, text and
 * number inputs, checked checkboxes, textareas, selected options (file inputs left empty).
 */
function editorFormEntries(html: string): [string, string][] {
  const form = /<form[^>]*>([\s\S]*?)<\/form>/.exec(html)?.[1];
  if (!form) throw new Error("the edit page has no form");
  const entries: [string, string][] = [];
  const controls = /<input\b[^>]*>|<textarea\b([^>]*)>([\s\S]*?)<\/textarea>|<select\b([^>]*)>([\s\S]*?)<\/select>/g;
  for (const match of form.matchAll(controls)) {
    const tag = match[0];
    if (tag.startsWith("<input")) {
      const name = attribute(tag, "name");
      const type = attribute(tag, "type") ?? "text";
      if (!name || /\sdisabled[\s=>]/.test(tag) || type === "file" || type === "submit" || type === "button") continue;
      if ((type === "checkbox" || type === "radio") && !/\schecked[\s=>]/.test(tag)) continue;
      entries.push([name, attribute(tag, "value") ?? (type === "checkbox" ? "on" : "")]);
    } else if (tag.startsWith("<textarea")) {
      const name = attribute(` ${match[1]}`, "name");
      // React renders a textarea's first newline doubled; the browser drops the first one.
      if (name) entries.push([name, decodeEntities(match[2]!.replace(/^\n/, ""))]);
    } else {
      const name = attribute(` ${match[3]}`, "name");
      if (!name) continue;
      const options = [...match[4]!.matchAll(/<option\b[^>]*>/g)].map((option) => option[0]);
      const selected = options.filter((option) => /\sselected[\s=>]/.test(option));
      const chosen = selected.length > 0 ? selected : /\smultiple[\s=>]/.test(match[3]!) ? [] : options.slice(0, 1);
      for (const option of chosen) entries.push([name, attribute(option, "value") ?? ""]);
    }
  }
  return entries;
}

/** A server action's id, as the browser's bundle knows it: from the build's server-reference manifest. */
function serverActionId(filename: string, exportedName: string): string {
  const manifest = JSON.parse(readFileSync(join(".next", "server", "server-reference-manifest.json"), "utf8")) as {
    node: Record<string, { filename?: string; exportedName?: string }>;
  };
  const found = Object.entries(manifest.node).find(([, entry]) => entry.filename === filename && entry.exportedName === exportedName);
  if (!found) throw new Error(`${exportedName} (${filename}) is not in .next/server/server-reference-manifest.json`);
  return found[0];
}

/** Queues every record again as the admin page's Reindex button does (its server action, one plain-object argument). */
async function startReindexAsAdmin(base: string, adminCookie: string): Promise<void> {
  const response = await fetch(`${base}/admin`, {
    method: "POST",
    headers: {
      cookie: adminCookie,
      origin: base,
      accept: "text/x-component",
      "content-type": "text/plain;charset=UTF-8",
      "next-action": serverActionId("app/admin/actions.ts", "startReindexAction"),
    },
    body: JSON.stringify([{}]),
  });
  const answer = await response.text();
  if (!response.ok || !answer.includes('"jobId"')) throw new Error(`starting the reindex failed (${response.status}): ${answer.slice(0, 300)}`);
}

interface EditTarget {
  recordId: string;
  fieldKey: string;
}

/**
 * A curator's loop: open a record's editor (GET), change one text field (a marker toggled at its
 * end, so every save is a real change that is indexed again) and save through the editor's
 * server action, as the browser does: POST to the edit page with Next-Action and the form
 * encoded as React encodes an action's arguments ([previous state, FormData]). A save succeeds
 * when the action redirects to the record (x-action-redirect).
 */
async function curatorLoop(
  base: string,
  cookie: string,
  actionId: string,
  targets: EditTarget[],
  until: { deadline: number } | { turns: number },
  stats: { form: number[]; save: number[]; formErrors: number; saveErrors: number; lastError?: string },
): Promise<void> {
  // Cut at the end of the window, as autocannon cuts its requests in flight (neither counted).
  const windowEnd = "deadline" in until ? AbortSignal.timeout(Math.max(1, until.deadline - Date.now())) : undefined;
  for (let turn = 0; "turns" in until ? turn < until.turns : !windowEnd!.aborted; turn++) {
    const target = targets[turn % targets.length]!;
    const path = `/records/${target.recordId}/edit`;
    let step: "form" | "save" = "form";
    try {
      let started = performance.now();
      const page = await fetch(`${base}${path}`, { headers: { cookie }, signal: windowEnd });
      const html = await page.text();
      if (!page.ok) {
        stats.formErrors++;
        stats.lastError = `edit page ${page.status}`;
        continue;
      }
      stats.form.push(performance.now() - started);
      const fieldName = `values.${target.fieldKey}`;
      // React's encodeReply: the FormData argument's entries under `_1_`, then the arguments as "0".
      const body = new FormData();
      for (const [name, value] of editorFormEntries(html)) {
        const changed = name === fieldName ? (value.endsWith(" ·") ? value.slice(0, -2) : `${value} ·`) : value;
        body.append(`_1_${name}`, changed);
      }
      body.append("0", JSON.stringify([null, "$K1"]));
      step = "save";
      started = performance.now();
      const saved = await fetch(`${base}${path}`, {
        method: "POST",
        redirect: "manual",
        headers: { cookie, origin: base, accept: "text/x-component", "next-action": actionId },
        body,
        signal: windowEnd,
      });
      const answer = await saved.text();
      if (saved.headers.get("x-action-redirect")?.startsWith(`/records/${target.recordId}`)) stats.save.push(performance.now() - started);
      else {
        stats.saveErrors++;
        stats.lastError = `save ${saved.status}: ${answer.slice(0, 300)}`;
      }
    } catch (error) {
      if (windowEnd?.aborted) return;
      if (step === "form") stats.formErrors++;
      else stats.saveErrors++;
      stats.lastError = error instanceof Error ? error.message : String(error);
    }
  }
}

/** Records waiting for the index, summed over the sections the admin's health report lists. */
async function indexingState(base: string, adminCookie: string): Promise<{ waiting: number; indexed: number; records: number }> {
  const response = await fetch(`${base}/api/health`, { headers: { cookie: adminCookie } });
  const report = (await response.json()) as { indexing: { sections?: { records: number; indexed: number; waiting: number }[] } };
  const sections = report.indexing.sections ?? [];
  return {
    waiting: sections.reduce((sum, section) => sum + section.waiting, 0),
    indexed: sections.reduce((sum, section) => sum + section.indexed, 0),
    records: sections.reduce((sum, section) => sum + section.records, 0),
  };
}

interface RunSetup {
  recordIds: string[];
  editTargets: EditTarget[];
  browseParams: URLSearchParams[];
  token: string;
  /** One record of each kind the `pages` phase opens, readable by the researcher. */
  coinId: string;
  interviewId: string;
}

/**
 * Reads what the load needs from the run's copy of the data, before any server opens it:
 * records every demo user may read, records the curator may edit (with a text field to
 * change), list filters, an API token for the researcher.
 */
async function prepareRun(databaseOptions: OpenDatabaseOptions): Promise<RunSetup> {
  const database = await openDatabase(databaseOptions);
  try {
    const members = users.filter((user) => !user.email.startsWith("admin@")).map((user) => user.email);
    const recordIds = (
      await database.sql.query<{ id: string }>(
        `SELECT r.id FROM records r
          WHERE r.project_id IN (
            SELECT m.project_id FROM memberships m JOIN users u ON u.id = m.user_id
             WHERE u.email = ANY($1::text[]) GROUP BY m.project_id HAVING count(DISTINCT u.id) = $2)
          ORDER BY random() LIMIT 400`,
        [members, members.length],
      )
    ).map((row) => row.id);
    if (recordIds.length === 0) throw new Error("no record is readable by every demo user");

    const principalOf = async (email: string) => {
      const user = await database.prisma.user.findUniqueOrThrow({ where: { email } });
      const principal = await loadPrincipal(database.prisma, user.id, user.sessionVersion);
      if (!principal) throw new Error(`${email} cannot sign in`);
      return principal;
    };
    const curator = await principalOf("curator@mnemo.demo");
    const editable = await database.prisma.record.findMany({
      where: { projectId: { in: [...curator.editableProjectIds] } },
      select: { id: true, values: true, section: { select: { fields: true } } },
    });
    const editTargets = editable
      .flatMap((record) => {
        const fields = record.section.fields as { key: string; type: string }[];
        const values = record.values as Record<string, unknown>;
        const field = fields.find(
          (candidate) =>
            (candidate.type === "text" || candidate.type === "longtext") && typeof values[candidate.key] === "string" && values[candidate.key] !== "",
        );
        return field ? [{ recordId: record.id, fieldKey: field.key }] : [];
      })
      .sort(() => Math.random() - 0.5)
      .slice(0, 40);
    if (editTargets.length === 0) throw new Error("the curator may edit no record with a text field");

    const sections = await database.prisma.section.findMany({ select: { slug: true } });
    const decades = [1900, 1920, 1940, 1960, 1980];
    const browseParams = sections.flatMap((section) =>
      [undefined, "en", "es", "ca"].flatMap((language) =>
        [undefined, ...decades].map((from, index) => {
          const params = new URLSearchParams({ section: section.slug });
          if (language) params.set("language", language);
          if (from !== undefined) {
            params.set("from", String(from));
            params.set("to", String(from + 19));
          }
          if (index % 3 === 2) params.set("page", "2");
          return params;
        }),
      ),
    );

    const { token } = await createApiToken(database.prisma, await principalOf("researcher@mnemo.demo"), {
      name: `bench ${new Date().toISOString()}`,
      expiresInDays: 1,
    });
    const researcher = await principalOf("researcher@mnemo.demo");
    const firstOf = async (slug: string) => {
      const [row] = await database.sql.query<{ id: string }>(
        `SELECT r.id FROM records r JOIN sections s ON s.id = r.section_id
          WHERE s.slug = $1 AND r.project_id = ANY($2::text[]) ORDER BY r.title, r.id LIMIT 1`,
        [slug, [...researcher.readableProjectIds]],
      );
      if (!row) throw new Error(`the researcher reads no record of ${slug}`);
      return row.id;
    };
    return { recordIds, editTargets, browseParams, token, coinId: await firstOf("coins"), interviewId: await firstOf("oral-histories") };
  } finally {
    await database.close();
  }
}

interface RunResult {
  topology: Topology;
  phase: Phase;
  kinds: KindResult[];
  total: { requests: number; throughput: number; errors: number };
  indexing: { before: number; after: number; records: number; indexedInWindow: number };
  /** Scale-out: requests each web process served through the proxy during the load. */
  perWebProcess?: number[];
  lastError?: string;
}

/** The demo each run starts from: PGlite data directories, and the same demo on the benchmarks' PostgreSQL. */
interface Demo {
  seededDir: string;
  indexedDir: string;
  postgres?: { cluster: Cluster; seeded: string; indexed: string; storageDir: string };
}

async function runOnce(topology: Topology, phase: Phase, demo: Demo): Promise<RunResult> {
  const runDir = join(root, "run");
  rmSync(runDir, { recursive: true, force: true });
  const baseEnv: NodeJS.ProcessEnv = { ...process.env, AUTH_SECRET: authSecret, MNEMO_DEMO_SIZE: "small", NODE_ENV: "production", MNEMO_DATA_DIR: runDir };
  delete baseEnv.DATABASE_URL;
  let postgresCopy: Awaited<ReturnType<typeof copyDatabase>> | undefined;
  let setup: RunSetup;
  if (onPostgres(topology)) {
    if (!demo.postgres) throw new Error("no PostgreSQL demo for a postgres topology");
    mkdirSync(runDir, { recursive: true });
    postgresCopy = await copyDatabase(demo.postgres.cluster.url, phase === "during" ? demo.postgres.seeded : demo.postgres.indexed, "bench_load_run");
    baseEnv.MNEMO_STORAGE_DIR = demo.postgres.storageDir;
    setup = await prepareRun({ url: postgresCopy.url, poolSize: 2, migrateOnOpen: false });
  } else {
    cpSync(phase === "during" ? demo.seededDir : demo.indexedDir, runDir, { recursive: true });
    setup = await prepareRun({ dataDir: join(runDir, "pgdata") });
  }

  // The knob goes to every process that runs models: the web processes and the separate worker
  // (the embedded worker shares its web process's threads).
  if (modelThreads !== undefined) baseEnv.MNEMO_MODEL_THREADS = modelThreads;
  const webEnv: NodeJS.ProcessEnv = { ...baseEnv, MNEMO_API_RATE_LIMIT: "100000" };
  const children: ChildProcess[] = [];
  let proxy: ReturnType<typeof roundRobinProxy> | undefined;
  try {
    const webPorts = scaledOut(topology) ? [ports.web, ports.secondWeb] : [ports.web];
    if (topology === "embedded") {
      webEnv.MNEMO_INDEX_WORKER = "in-process";
    } else {
      let url = postgresCopy?.url;
      if (!url) {
        const database = start(
          process.execPath,
          ["--conditions=react-server", "--import", "tsx", "scripts/pglite-server.ts", join(runDir, "pgdata"), String(ports.database)],
          { ...baseEnv, PGLITE_MAX_CONNECTIONS: "16" },
          "pglite",
        );
        children.push(database);
        await waitForPort(ports.database, database);
        url = `postgresql://postgres:postgres@127.0.0.1:${ports.database}/postgres`;
      }
      Object.assign(webEnv, { DATABASE_URL: url, DATABASE_POOL_SIZE: poolSizeFor(topology), MNEMO_INDEX_WORKER: "off" });
    }
    // The first web process migrates (a no-op here) before the others start: PGlite's one
    // session shares a session-level advisory lock between all its connections.
    const webs = webPorts.map((port, index) => ({
      port,
      start: () =>
        start(
          process.execPath,
          [...profileArgs(`${topology}-web${index + 1}`), "--import", "tsx", "server.ts", "-H", "127.0.0.1", "-p", String(port)],
          webEnv,
          `web${index + 1}`,
        ),
    }));
    const first = webs[0]!.start();
    children.push(first);
    await waitFor(`http://127.0.0.1:${webs[0]!.port}/api/health`, first);
    const rest = webs.slice(1).map((web) => ({ web, child: web.start() }));
    children.push(...rest.map((entry) => entry.child));
    if (topology !== "embedded") {
      const { DATABASE_URL, DATABASE_POOL_SIZE } = webEnv;
      children.push(
        start(
          process.execPath,
          ["--conditions=react-server", "--import", "tsx", "scripts/worker.ts"],
          { ...baseEnv, DATABASE_URL, DATABASE_POOL_SIZE },
          "worker",
        ),
      );
    }
    for (const { web, child } of rest) await waitFor(`http://127.0.0.1:${web.port}/api/health`, child);

    let base = `http://127.0.0.1:${ports.web}`;
    if (scaledOut(topology)) {
      proxy = roundRobinProxy(webPorts);
      await new Promise<void>((resolve) => proxy!.server.listen(ports.proxy, "127.0.0.1", resolve));
      base = `http://127.0.0.1:${ports.proxy}`;
    }

    const cookies = await Promise.all(users.map((user) => signIn(base, user)));
    const [, curatorCookie, , adminCookie] = cookies as [string, string, string, string];
    const requests: Record<Exclude<KindKey, "save">, () => RequestSpec> = {
      browse: () => ({ method: "GET", path: `/records?${pick(setup.browseParams)}`, headers: { cookie: pick(cookies) } }),
      search: () => ({ method: "GET", path: `/records?${new URLSearchParams({ q: pick(queries), mode: "hybrid" })}`, headers: { cookie: pick(cookies) } }),
      record: () => ({ method: "GET", path: `/records/${pick(setup.recordIds)}`, headers: { cookie: pick(cookies) } }),
      ask: () => ({
        method: "POST",
        path: "/api/ask",
        headers: { cookie: pick(cookies), "content-type": "application/json" },
        body: JSON.stringify({ question: pick(questions) }),
      }),
      apiSearch: () => ({
        method: "POST",
        path: "/api/v1/search",
        headers: { authorization: `Bearer ${setup.token}`, "content-type": "application/json" },
        body: JSON.stringify({ query: pick(queries), limit: 10 }),
      }),
      apiRecord: () => ({ method: "GET", path: `/api/v1/records/${pick(setup.recordIds)}`, headers: { authorization: `Bearer ${setup.token}` } }),
    };
    const actionId = serverActionId("app/records/actions.ts", "saveRecordAction");
    // Warm-up: models load on first use, in every web process; every kind, a save included.
    for (let round = 0; round < 2 * webPorts.length; round++) {
      for (const [kind, next] of Object.entries(requests)) {
        const spec = next();
        // A process still loading its models may answer 503 (or 429) with Retry-After: wait and ask again.
        for (let attempt = 1; ; attempt++) {
          const response = await fetch(`${base}${spec.path}`, { method: spec.method, headers: spec.headers, body: spec.body });
          const text = await response.text();
          if (response.ok) break;
          if ((response.status === 503 || response.status === 429) && attempt < 6) {
            console.log(`[bench:load] warm-up ${kind}: ${response.status}, trying again (${text.slice(0, 160)})`);
            await new Promise((resolve) => setTimeout(resolve, Math.min(10, Number(response.headers.get("retry-after")) || 2) * 1000));
            continue;
          }
          throw new Error(`warm-up ${kind} ${spec.method} ${spec.path}: ${response.status} ${text.slice(0, 300)}`);
        }
      }
      const warm = { form: [], save: [], formErrors: 0, saveErrors: 0 } as Parameters<typeof curatorLoop>[5];
      await curatorLoop(base, curatorCookie, actionId, [setup.editTargets[round % setup.editTargets.length]!], { turns: 1 }, warm);
      if (warm.saveErrors + warm.formErrors > 0 || warm.save.length === 0) throw new Error(`warm-up save: ${warm.lastError ?? "no save"}`);
    }

    if (phase === "pages") {
      const pages = [
        { label: "coin page", path: `/records/${setup.coinId}` },
        { label: "record list, unfiltered", path: "/records" },
        { label: "interview page", path: `/records/${setup.interviewId}` },
      ];
      const kinds: KindResult[] = [];
      proxy?.served.fill(0);
      for (const page of pages) {
        for (const pageConnections of [1, 8]) {
          console.log(`[bench:load] ${topology}: the researcher's ${page.label} on ${pageConnections} connection(s) for ${pageSeconds} s…`);
          kinds.push(
            await load(
              base,
              `${page.label} · ${pageConnections}`,
              pageConnections,
              () => ({ method: "GET", path: page.path, headers: { cookie: cookies[0]! } }),
              pageSeconds,
            ),
          );
        }
      }
      const requestsTotal = kinds.reduce((sum, kind) => sum + kind.requests, 0);
      return {
        topology,
        phase,
        kinds,
        total: { requests: requestsTotal, throughput: requestsTotal / (pageSeconds * kinds.length), errors: kinds.reduce((sum, kind) => sum + kind.errors, 0) },
        indexing: { before: 0, after: 0, records: 0, indexedInWindow: 0 },
        perWebProcess: proxy ? [...proxy.served] : undefined,
      };
    }

    const share = shares(connections);
    console.log(
      `[bench:load] ${topology}, ${phase} indexing: ${connections} connections for ${seconds} s (${(Object.keys(share) as KindKey[]).map((key) => `${key} ${share[key]}`).join(", ")})…`,
    );
    if (phase === "reindex") await startReindexAsAdmin(base, adminCookie);
    proxy?.served.fill(0);
    const before = await indexingState(base, adminCookie);
    const deadline = Date.now() + seconds * 1000;
    const curator = { form: [] as number[], save: [] as number[], formErrors: 0, saveErrors: 0, lastError: undefined as string | undefined };
    // Each curator connection edits its own records, so two never save one record at once.
    const curatorLoops = Array.from({ length: share.save }, (_, index) =>
      curatorLoop(
        base,
        curatorCookie,
        actionId,
        setup.editTargets.filter((_, target) => target % share.save === index),
        { deadline },
        curator,
      ),
    );
    const loads = (Object.keys(requests) as (keyof typeof requests)[]).map((key) => load(base, kindLabels[key], share[key], requests[key]));
    const [measured] = await Promise.all([Promise.all(loads), Promise.all(curatorLoops)]);
    const after = await indexingState(base, adminCookie);
    const kinds = [
      ...measured,
      summarise(kindLabels.editForm, share.save, curator.form, curator.formErrors),
      summarise(kindLabels.save, share.save, curator.save, curator.saveErrors),
    ];
    const requestsTotal = kinds.reduce((sum, kind) => sum + kind.requests, 0);
    return {
      topology,
      phase,
      kinds,
      total: { requests: requestsTotal, throughput: requestsTotal / seconds, errors: kinds.reduce((sum, kind) => sum + kind.errors, 0) },
      indexing: { before: before.waiting, after: after.waiting, records: after.records, indexedInWindow: before.waiting - after.waiting },
      perWebProcess: proxy ? [...proxy.served] : undefined,
      lastError: curator.lastError,
    };
  } finally {
    if (proxy) {
      proxy.server.closeAllConnections();
      await new Promise((resolve) => proxy!.server.close(resolve));
    }
    // Web processes and the worker first, the database server last.
    for (const child of children.slice(1).reverse()) await stop(child);
    if (children[0]) await stop(children[0]);
    await postgresCopy?.drop();
  }
}

async function main() {
  mkdirSync(root, { recursive: true });
  const baseEnv: NodeJS.ProcessEnv = { ...process.env, AUTH_SECRET: authSecret, MNEMO_DEMO_SIZE: "small", NODE_ENV: "production" };
  delete baseEnv.DATABASE_URL;

  const buildId = join(".next", "BUILD_ID");
  if (!existsSync(buildId) || statSync(buildId).mtimeMs < newestSource(["app", "components", "lib", "next.config.ts", "package.json"])) {
    console.log("[bench:load] building…");
    runToEnd("npx", ["next", "build"], baseEnv);
  }

  // The small demo seeded (every record queued, nothing indexed) and, from a copy, indexed: once.
  const reseed = Boolean(process.env.BENCH_LOAD_RESEED);
  const demo: Demo = ensureSmallDemo(root, baseEnv, { label: "bench:load", reseed });
  let cluster: Cluster | undefined;
  const results: RunResult[] = [];
  let dataset: { records: number; passages: number } | undefined;
  try {
    if (topologies.some(onPostgres)) {
      cluster = await startCluster({
        dir: join(benchPostgresRoot, "cluster"),
        port: ports.postgres,
        settings: settingsForBenchmarks,
        log: (line) => console.log(`[postgres] ${line}`),
      });
      demo.postgres = { cluster, ...(await ensureSmallDemoOnPostgres(cluster.url, baseEnv, { label: "bench:load", reseed })) };
    }
    for (const topology of topologies) {
      for (const phase of phases) {
        const result = await runOnce(topology, phase, demo);
        results.push(result);
        if (result.lastError) console.log(`[bench:load] ${topology}, ${phase}: last curator error: ${result.lastError}`);
      }
    }
  } finally {
    cluster?.stop("fast");
  }
  const { indexedDir } = demo;
  {
    const database = await openDatabase({ dataDir: join(indexedDir, "pgdata") });
    [dataset] = await database.sql.query<{ records: number; passages: number }>(
      `SELECT (SELECT count(*)::int FROM records) AS records, (SELECT count(*)::int FROM chunks) AS passages`,
    );
    await database.close();
  }

  const machine = { cpus: cpus().length, cpu: cpus()[0]?.model ?? "unknown", memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version };
  const threads = modelThreads === undefined ? "unset (one per core, at most 4)" : modelThreads === "-1" ? "-1 (cores − 1)" : modelThreads;
  console.log(
    `\nbench:load — small demo, ${dataset?.records} records, ${dataset?.passages} passages; ${connections} connections for ${seconds} s per run; model threads per process (MNEMO_MODEL_THREADS): ${threads}; ` +
      `database pool per process: ${poolSizeSetting ?? "1 on PGlite served, the app's default (10) on PostgreSQL"}; ${machine.cpus} × ${machine.cpu}`,
  );
  const ms = (value: number) => (Number.isNaN(value) ? "–" : value.toFixed(0));
  console.log("| topology | phase | kind | connections | requests | req/s | p50 ms | p95 ms | p99 ms | errors |");
  console.log("|---|---|---|---|---|---|---|---|---|---|");
  const mixed = results.filter((result) => result.phase !== "pages");
  for (const result of mixed) {
    for (const kind of result.kinds) {
      console.log(
        `| ${result.topology} | ${result.phase} | ${kind.kind} | ${kind.connections} | ${kind.requests} | ${kind.throughput.toFixed(1)} | ${ms(kind.p50)} | ${ms(kind.p95)} | ${ms(kind.p99)} | ${kind.errors} |`,
      );
    }
    console.log(
      `| ${result.topology} | ${result.phase} | **all** | ${connections} | ${result.total.requests} | ${result.total.throughput.toFixed(1)} | | | | ${result.total.errors} |`,
    );
  }
  console.log("\nIndexing in each run's window (records waiting for the index, from /api/health as the admin), and how the proxy spread the load:");
  console.log("| topology | phase | records waiting before the load | after | indexed in the window | requests per web process |");
  console.log("|---|---|---|---|---|---|");
  for (const result of mixed) {
    console.log(
      `| ${result.topology} | ${result.phase} | ${result.indexing.before} of ${result.indexing.records} | ${result.indexing.after} | ${result.indexing.indexedInWindow} in ${seconds} s | ${result.perWebProcess?.join(" / ") ?? "one process"} |`,
    );
  }
  const pageRuns = results.filter((result) => result.phase === "pages");
  if (pageRuns.length > 0) {
    console.log(`\nOne page over and over as the researcher, on one connection and on eight (${pageSeconds} s each):`);
    console.log(
      "| topology | page | 1 connection: req/s | p50 ms | 8 connections: req/s | p50 ms | p95 ms | 8 ÷ 1 | errors | cores busy: 1 / 8 connections | machine CPU ms a page | of it the bench's (load generator, proxy) | all cores' ceiling req/s | without the bench's |",
    );
    console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (const result of pageRuns) {
      for (let index = 0; index + 1 < result.kinds.length; index += 2) {
        const one = result.kinds[index]!;
        const eight = result.kinds[index + 1]!;
        console.log(
          `| ${result.topology} | ${one.kind.replace(/ · 1$/, "")} | ${one.throughput.toFixed(1)} | ${ms(one.p50)} | ${eight.throughput.toFixed(1)} | ${ms(eight.p50)} | ${ms(eight.p95)} | ${(eight.throughput / one.throughput).toFixed(2)}× | ${one.errors + eight.errors} | ${busyCells(one, eight)} |`,
        );
      }
    }
  }
  writeFileSync(
    join(".bench", "load.json"),
    JSON.stringify(
      {
        at: new Date().toISOString(),
        seconds,
        pageSeconds,
        connections,
        modelThreads: modelThreads ?? null,
        poolSize: poolSizeSetting ?? null,
        machine,
        dataset,
        results,
      },
      null,
      2,
    ),
  );
}

await main();
