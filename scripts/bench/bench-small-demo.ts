import { spawnSync } from "node:child_process";
import { cpSync, existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";

/** Runs a command to its end with the given environment; throws when it fails. */
export function runToEnd(command: string, args: string[], env: NodeJS.ProcessEnv): void {
  const result = spawnSync(command, args, { stdio: "inherit", env });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} exited with ${result.status}`);
}

/**
 * The benchmarks' small demo under `root`: `seeded` (every record queued, nothing indexed) and,
 * from a copy, `indexed` (the worker drained), each built once and marked ready; `reseed` builds
 * both again. bench:load and bench:record-page measure the same data.
 */
export function ensureSmallDemo(root: string, env: NodeJS.ProcessEnv, options: { label: string; reseed?: boolean }): { seededDir: string; indexedDir: string } {
  const seededDir = join(root, "seeded");
  const indexedDir = join(root, "indexed");
  const demoEnv: NodeJS.ProcessEnv = { ...env, MNEMO_DEMO_SIZE: "small" };
  delete demoEnv.DATABASE_URL;
  if (!existsSync(join(seededDir, "ready")) || options.reseed) {
    rmSync(seededDir, { recursive: true, force: true });
    rmSync(indexedDir, { recursive: true, force: true });
    console.log(`[${options.label}] seeding the small demo (once)…`);
    runToEnd("npx", ["tsx", "--conditions=react-server", "prisma/seed/run.ts"], { ...demoEnv, MNEMO_DATA_DIR: seededDir });
    writeFileSync(join(seededDir, "ready"), new Date().toISOString());
  }
  if (!existsSync(join(indexedDir, "ready"))) {
    rmSync(indexedDir, { recursive: true, force: true });
    cpSync(seededDir, indexedDir, { recursive: true });
    rmSync(join(indexedDir, "ready"));
    console.log(`[${options.label}] indexing the small demo (once)…`);
    runToEnd("npx", ["tsx", "--conditions=react-server", "scripts/worker.ts", "--drain"], { ...demoEnv, MNEMO_DATA_DIR: indexedDir });
    writeFileSync(join(indexedDir, "ready"), new Date().toISOString());
  }
  return { seededDir, indexedDir };
}

/** The benchmarks' own PostgreSQL: one cluster kept under `.bench/postgres`, started for a run and stopped after. */
export const benchPostgresRoot = join(".bench", "postgres");

async function superuserQuery(url: string, sql: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

export function databaseUrl(clusterUrl: string, name: string): string {
  const url = new URL(clusterUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The small demo on the benchmarks' PostgreSQL, as `ensureSmallDemo` keeps it for PGlite: a database
 * `demo_small_seeded` (every record queued) and `demo_small_indexed` (a copy drained by a real
 * `npm run worker`), built once each and marked ready; their media in `.bench/postgres/small/media`.
 * A run copies one of them with `CREATE DATABASE … TEMPLATE` (seconds) and drops its copy after.
 */
export async function ensureSmallDemoOnPostgres(
  clusterUrl: string,
  env: NodeJS.ProcessEnv,
  options: { label: string; reseed?: boolean },
): Promise<{ seeded: string; indexed: string; storageDir: string }> {
  const seeded = "demo_small_seeded";
  const indexed = "demo_small_indexed";
  const dataDir = join(benchPostgresRoot, "small");
  const ready = (name: string) => join(benchPostgresRoot, `${name}.ready`);
  const demoEnv: NodeJS.ProcessEnv = { ...env, MNEMO_DEMO_SIZE: "small", MNEMO_DATA_DIR: dataDir };
  if (!existsSync(ready(seeded)) || options.reseed) {
    for (const name of [indexed, seeded]) {
      rmSync(ready(name), { force: true });
      await superuserQuery(clusterUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    }
    rmSync(dataDir, { recursive: true, force: true });
    await superuserQuery(clusterUrl, `CREATE DATABASE "${seeded}"`);
    console.log(`[${options.label}] seeding the small demo into PostgreSQL (once)…`);
    runToEnd("npx", ["tsx", "--conditions=react-server", "prisma/seed/run.ts"], { ...demoEnv, DATABASE_URL: databaseUrl(clusterUrl, seeded) });
    writeFileSync(ready(seeded), new Date().toISOString());
  }
  if (!existsSync(ready(indexed))) {
    await superuserQuery(clusterUrl, `DROP DATABASE IF EXISTS "${indexed}" WITH (FORCE)`);
    await superuserQuery(clusterUrl, `CREATE DATABASE "${indexed}" TEMPLATE "${seeded}"`);
    console.log(`[${options.label}] indexing the small demo on PostgreSQL with npm run worker (once)…`);
    runToEnd("npx", ["tsx", "--conditions=react-server", "scripts/worker.ts", "--drain"], { ...demoEnv, DATABASE_URL: databaseUrl(clusterUrl, indexed) });
    // Fresh statistics, as autovacuum would give them in time, before the template is copied.
    await superuserQuery(databaseUrl(clusterUrl, indexed), "VACUUM ANALYZE");
    writeFileSync(ready(indexed), new Date().toISOString());
  }
  return { seeded, indexed, storageDir: join(dataDir, "media") };
}

/** A run's own copy of a template database; returns its URL and a drop(). */
export async function copyDatabase(clusterUrl: string, template: string, name: string): Promise<{ url: string; drop(): Promise<void> }> {
  await superuserQuery(clusterUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await superuserQuery(clusterUrl, `CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  return {
    url: databaseUrl(clusterUrl, name),
    drop: async () => void (await superuserQuery(clusterUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)),
  };
}
