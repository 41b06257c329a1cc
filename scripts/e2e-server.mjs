// The server Playwright tests run against: the small demo archive seeded into a fresh database,
// the production build, server.ts (as `npm start`) on the given port.
// - default: the embedded database in .test-data/e2e, indexed by the web process itself;
// - `--postgres`: a new database on the real PostgreSQL at MNEMO_TEST_POSTGRES_URL (server mode),
//   dropped at exit; the web process runs no indexer and `npm run worker` indexes as its own process.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { createServer } from "node:net";
import { parseArgs } from "node:util";
import pg from "pg";

const usage = "usage: node scripts/e2e-server.mjs [port] [--postgres]";
let parsed;
try {
  parsed = parseArgs({ options: { postgres: { type: "boolean", default: false } }, allowPositionals: true, strict: true });
} catch (error) {
  console.error(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
  process.exit(2);
}
if (parsed.positionals.length > 1) {
  console.error(usage);
  process.exit(2);
}
const port = parsed.positionals[0] ?? "3100";
const onPostgres = parsed.values.postgres;
const dataDir = onPostgres ? ".test-data/e2e-postgres" : ".test-data/e2e";
rmSync(dataDir, { recursive: true, force: true });
const env = {
  ...process.env,
  MNEMO_DATA_DIR: dataDir,
  MNEMO_DEMO_SIZE: "small",
  AUTH_SECRET: randomBytes(32).toString("base64url"),
};
delete env.DATABASE_URL;

/** Runs one statement as the cluster's superuser (creating or dropping the test's database). */
async function asSuperuser(sql) {
  const client = new pg.Client({ connectionString: process.env.MNEMO_TEST_POSTGRES_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

let databaseName = null;
if (onPostgres) {
  if (!process.env.MNEMO_TEST_POSTGRES_URL) {
    console.error("e2e-server --postgres needs MNEMO_TEST_POSTGRES_URL (npm run test:e2e:postgres starts a cluster)");
    process.exit(2);
  }
  databaseName = `mnemo_e2e_${randomBytes(4).toString("hex")}`;
  await asSuperuser(`CREATE DATABASE "${databaseName}"`);
  const url = new URL(process.env.MNEMO_TEST_POSTGRES_URL);
  url.pathname = `/${databaseName}`;
  Object.assign(env, { DATABASE_URL: url.toString(), MNEMO_INDEX_WORKER: "off" });
}
// An OCR language whose package is not installed (playwright.postgres.config.ts): the app says what is missing.
if (process.env.E2E_MISSING_OCR_LANGUAGE) env.MNEMO_OCR_LANGUAGES = `spa+cat+eng+${process.env.E2E_MISSING_OCR_LANGUAGE}`;

/** A port nothing listens on now, for the scripted research model. */
async function freePort() {
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port: free } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return free;
}

// Research mode runs against a scripted loopback model (scripts/fake-research-provider.ts);
// plain Ask keeps the offline extractive answerer (MNEMO_GENERATOR stays unset). The demo's
// sections are local-only, so the model is declared inside (it runs on this host): it reads the
// records and quotes them. Withholding from an external model is covered by the integration tests.
const researchPort = await freePort();
Object.assign(env, {
  MNEMO_RESEARCH_PROVIDER: "openai-compatible",
  MNEMO_RESEARCH_BASE_URL: `http://127.0.0.1:${researchPort}`,
  MNEMO_RESEARCH_MODEL: "fake-research",
  MNEMO_RESEARCH_EXTERNAL: "0",
});

function run(command, args) {
  const result = spawnSync(command, args, { stdio: "inherit", env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

run("npx", ["tsx", "--conditions=react-server", "prisma/seed/run.ts"]);
if (!process.env.E2E_SKIP_BUILD) run("npx", ["next", "build"]);
const researchModel = spawn("npx", ["tsx", "scripts/fake-research-provider.ts", String(researchPort), "openai"], { stdio: "inherit", env });
const server = spawn("npx", ["tsx", "server.ts", "-H", "127.0.0.1", "-p", port], { stdio: "inherit", env });
const worker = onPostgres ? spawn("npx", ["tsx", "--conditions=react-server", "scripts/worker.ts"], { stdio: "inherit", env }) : null;
const children = [researchModel, server, worker].filter(Boolean);
let exiting = false;
async function exit(code) {
  if (exiting) return;
  exiting = true;
  for (const child of children) child.kill("SIGTERM");
  if (databaseName) {
    // The worker and server close their pools on SIGTERM; FORCE ends whatever is still connected.
    await asSuperuser(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`).catch((error) => console.error(`[e2e] ${error.message}`));
  }
  process.exit(code);
}
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => void exit(0));
server.on("exit", (code) => void exit(code ?? 0));
worker?.on("exit", (code) => {
  // A worker that dies leaves the queue undrained: fail loudly instead of timing out in a test.
  console.error(`[e2e] the index worker exited (${code}); stopping the server`);
  void exit(1);
});
