/**
 * `npm run bench:load`: the production build under load from signed-in users, in both database
 * modes. The small demo is seeded and indexed once into .bench/load (the indexer is off during
 * the run); `next start` serves it on loopback, embedded (PGlite in the web process) and in
 * server mode (the same data served over the Postgres protocol by a separate process, reached
 * with `pg` through DATABASE_URL). For BENCH_LOAD_SECONDS (default 30) four autocannon loads run
 * at once, each with its share of BENCH_LOAD_CONNECTIONS (default 8): record pages, record-list
 * searches by meaning, questions to the ask endpoint (streamed to the end), and agent-API
 * searches with a token, spread over four demo users. Prints throughput, p50/p95/p99 latency
 * and errors per kind, and writes .bench/load.json for `npm run report`.
 *
 * Server mode here is PGlite behind pglite-socket, one connection: it exercises the server-mode
 * code path (pg driver, wire protocol, separate database process), not a tuned Postgres.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { createApiToken } from "../lib/auth/api-tokens";
import { loadPrincipal } from "../lib/auth/load-principal";
import { openDatabase } from "../lib/db/database";

const seconds = Number(process.env.BENCH_LOAD_SECONDS ?? 30);
const connections = Math.max(4, Number(process.env.BENCH_LOAD_CONNECTIONS ?? 8));
const modes = (process.env.BENCH_LOAD_MODES ?? "embedded,server").split(",").map((mode) => mode.trim()) as ("embedded" | "server")[];
const root = ".bench/load";
const authSecret = "bench-load-secret-bench-load-secret-0123456789";
const webPort = Number(process.env.BENCH_LOAD_PORT ?? 3300);
const dbPort = webPort + 1;

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
const questions = ["Why did the mine close?", "What happened to the village when the reservoir was filled?", "How did the fishermen sell their catch?", "When was the dam built?"];

function run(command: string, args: string[], env: NodeJS.ProcessEnv): void {
  const result = spawnSync(command, args, { stdio: "inherit", env });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} exited with ${result.status}`);
}

function newestSource(paths: string[]): number {
  let newest = 0;
  const visit = (path: string) => {
    if (!existsSync(path)) return;
    const stats = statSync(path);
    if (stats.isDirectory()) {
      for (const entry of readdirSync(path)) if (entry !== "generated") visit(join(path, entry));
    }
    else newest = Math.max(newest, stats.mtimeMs);
  };
  paths.forEach(visit);
  return newest;
}

function start(command: string, args: string[], env: NodeJS.ProcessEnv, label: string): ChildProcess {
  const child = spawn(command, args, { env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let recent: string[] = [];
  const log = (chunk: Buffer) => {
    for (const line of chunk.toString().split("\n")) {
      recent = [...recent.slice(-30), line];
      if (/error|warn|invalid/i.test(line)) console.log(`[${label}] ${line}`);
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
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      resolve();
    }
  });
}

async function waitFor(url: string, child: ChildProcess, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before ${url} answered`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

/** Signs in through Auth.js's credentials flow and returns the session cookie. */
async function signIn(base: string, user: { email: string; password: string }): Promise<string> {
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const csrfCookie = csrf.headers.getSetCookie().map((cookie) => cookie.split(";")[0]).join("; ");
  const response = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie },
    body: new URLSearchParams({ csrfToken, email: user.email, password: user.password, callbackUrl: `${base}/records` }),
  });
  const session = response.headers.getSetCookie().find((cookie) => cookie.startsWith("authjs.session-token="));
  if (!session) throw new Error(`sign-in failed for ${user.email} (${response.status})`);
  return session.split(";")[0]!;
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
  non2xx: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

type RequestSpec = { method: "GET" | "POST"; path: string; headers: Record<string, string>; body?: string };

function load(base: string, kind: string, share: number, next: () => RequestSpec): Promise<KindResult> {
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    const instance = autocannon(
      {
        url: base,
        connections: share,
        duration: seconds,
        timeout: 60,
        requests: [{ setupRequest: (request: autocannon.Request) => ({ ...request, ...next() }) }],
      },
      (error: Error | null, result: autocannon.Result) => {
        if (error) return reject(error);
        latencies.sort((a, b) => a - b);
        resolve({
          kind,
          connections: share,
          requests: latencies.length,
          throughput: latencies.length / seconds,
          p50: percentile(latencies, 50),
          p95: percentile(latencies, 95),
          p99: percentile(latencies, 99),
          errors: result.errors + result.timeouts,
          non2xx: result.non2xx,
        });
      },
    );
    instance.on("response", (_client: unknown, _status: number, _bytes: number, responseTime: number) => latencies.push(responseTime));
  });
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

async function main() {
  mkdirSync(root, { recursive: true });
  const baseEnv: NodeJS.ProcessEnv = { ...process.env, AUTH_SECRET: authSecret, MNEMO_DEMO_SIZE: "small", NODE_ENV: "production" };
  delete baseEnv.DATABASE_URL;

  const buildId = join(".next", "BUILD_ID");
  if (!existsSync(buildId) || statSync(buildId).mtimeMs < newestSource(["app", "components", "lib", "next.config.ts", "package.json"])) {
    console.log("[bench:load] building…");
    run("npx", ["next", "build"], { ...baseEnv, NODE_ENV: "production" });
  }

  const embeddedDir = join(root, "embedded");
  if (!existsSync(join(embeddedDir, "ready")) || process.env.BENCH_LOAD_RESEED) {
    rmSync(embeddedDir, { recursive: true, force: true });
    console.log("[bench:load] seeding and indexing the small demo (once)…");
    const env = { ...baseEnv, MNEMO_DATA_DIR: embeddedDir };
    run("npx", ["tsx", "--conditions=react-server", "prisma/seed/run.ts"], env);
    run("npx", ["tsx", "--conditions=react-server", "scripts/worker.ts", "--drain"], env);
    writeFileSync(join(embeddedDir, "ready"), new Date().toISOString());
  }

  // Record ids every demo user may read (projects all the non-admins are members of), and an
  // API token for the researcher.
  const database = await openDatabase({ dataDir: join(embeddedDir, "pgdata") });
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
  const researcher = await database.prisma.user.findUniqueOrThrow({ where: { email: "researcher@mnemo.demo" } });
  const principal = await loadPrincipal(database.prisma, researcher.id, researcher.sessionVersion);
  if (!principal) throw new Error("the demo researcher cannot sign in");
  const { token } = await createApiToken(database.prisma, principal, { name: `bench ${new Date().toISOString()}`, expiresInDays: 1 });
  const stats = await database.sql.query<{ records: number; passages: number }>(`SELECT (SELECT count(*)::int FROM records) AS records, (SELECT count(*)::int FROM chunks) AS passages`);
  await database.close();

  const results: { mode: string; kinds: KindResult[]; total: { throughput: number; errors: number } }[] = [];
  for (const mode of modes) {
    const children: ChildProcess[] = [];
    const env: NodeJS.ProcessEnv = { ...baseEnv, MNEMO_INDEX_WORKER: "off", MNEMO_API_RATE_LIMIT: "100000", PORT: String(webPort) };
    if (mode === "embedded") {
      env.MNEMO_DATA_DIR = embeddedDir;
    } else {
      const serverDir = join(root, "server");
      rmSync(serverDir, { recursive: true, force: true });
      cpSync(embeddedDir, serverDir, { recursive: true });
      children.push(start("npx", ["tsx", "--conditions=react-server", "scripts/pglite-server.ts", join(serverDir, "pgdata"), String(dbPort)], baseEnv, "pglite"));
      await new Promise((resolve) => setTimeout(resolve, 4000));
      env.MNEMO_DATA_DIR = serverDir;
      env.DATABASE_URL = `postgresql://postgres:postgres@127.0.0.1:${dbPort}/postgres`;
      env.DATABASE_POOL_SIZE = "1";
    }
    const base = `http://127.0.0.1:${webPort}`;
    const web = start("npx", ["next", "start", "-H", "127.0.0.1", "-p", String(webPort)], env, "web");
    children.push(web);
    try {
      await waitFor(`${base}/api/health`, web);
      const cookies = await Promise.all(users.map((user) => signIn(base, user)));
      const requests: Record<string, () => RequestSpec> = {
        record: () => ({ method: "GET", path: `/records/${pick(recordIds)}`, headers: { cookie: pick(cookies) } }),
        search: () => ({ method: "GET", path: `/records?${new URLSearchParams({ q: pick(queries), mode: "hybrid" })}`, headers: { cookie: pick(cookies) } }),
        ask: () => ({
          method: "POST",
          path: "/api/ask",
          headers: { cookie: pick(cookies), "content-type": "application/json" },
          body: JSON.stringify({ question: pick(questions) }),
        }),
        api: () => ({
          method: "POST",
          path: "/api/v1/search",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify({ query: pick(queries), limit: 10 }),
        }),
      };
      // Warm-up: models load on first use; every kind once or twice before measuring.
      for (const next of Object.values(requests)) {
        for (let i = 0; i < 2; i++) {
          const spec = next();
          const response = await fetch(`${base}${spec.path}`, { method: spec.method, headers: spec.headers, body: spec.body });
          await response.text();
          if (!response.ok) throw new Error(`warm-up ${spec.method} ${spec.path}: ${response.status}`);
        }
      }
      const askShare = Math.max(1, Math.round(connections / 8));
      const apiShare = Math.max(1, Math.round(connections / 8));
      const recordShare = Math.max(1, Math.floor((connections - askShare - apiShare) / 2));
      const searchShare = Math.max(1, connections - askShare - apiShare - recordShare);
      console.log(`[bench:load] ${mode}: ${connections} connections for ${seconds} s (record ${recordShare}, search ${searchShare}, ask ${askShare}, api ${apiShare})…`);
      const kinds = await Promise.all([
        load(base, "record page", recordShare, requests.record!),
        load(base, "search (list, by meaning)", searchShare, requests.search!),
        load(base, "ask (streamed to the end)", askShare, requests.ask!),
        load(base, "API search (token)", apiShare, requests.api!),
      ]);
      results.push({
        mode,
        kinds,
        total: { throughput: kinds.reduce((sum, kind) => sum + kind.throughput, 0), errors: kinds.reduce((sum, kind) => sum + kind.errors + kind.non2xx, 0) },
      });
    } finally {
      for (const child of children.reverse()) await stop(child);
    }
  }

  const machine = { cpus: cpus().length, cpu: cpus()[0]?.model ?? "unknown", memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version };
  console.log(`\nbench:load — ${stats[0]?.records} records, ${stats[0]?.passages} passages; ${connections} connections for ${seconds} s per mode; ${machine.cpus} × ${machine.cpu}`);
  console.log("| mode | kind | connections | requests | req/s | p50 ms | p95 ms | p99 ms | errors |");
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const result of results) {
    for (const kind of result.kinds) {
      console.log(
        `| ${result.mode} | ${kind.kind} | ${kind.connections} | ${kind.requests} | ${kind.throughput.toFixed(1)} | ${kind.p50.toFixed(0)} | ${kind.p95.toFixed(0)} | ${kind.p99.toFixed(0)} | ${kind.errors + kind.non2xx} |`,
      );
    }
    console.log(`| ${result.mode} | **all** | ${connections} | | ${result.total.throughput.toFixed(1)} | | | | ${result.total.errors} |`);
  }
  writeFileSync(
    join(".bench", "load.json"),
    JSON.stringify({ at: new Date().toISOString(), seconds, connections, machine, dataset: stats[0], results }, null, 2),
  );
}

await main();
