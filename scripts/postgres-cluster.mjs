// A throwaway PostgreSQL cluster (with pgvector) for the suite's real-server mode and the benchmarks.
//
//   node scripts/postgres-cluster.mjs run -- <command …>
//       runs the command with MNEMO_TEST_POSTGRES_URL set: the given one when the environment has it,
//       otherwise a new cluster's, started in a temporary directory on a free port and removed after.
//
// It uses the PostgreSQL that is installed (pg_config on PATH, or Debian's /usr/lib/postgresql/<n>/bin)
// and needs the pgvector extension installed into it; it never downloads anything. As root, the
// cluster runs as the `postgres` user, as Debian's packages set it up.
import { spawn, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

/** The installed PostgreSQL's binaries and whether pgvector is in it, or why there is none. */
export function findPostgres() {
  const candidates = [];
  const fromPath = spawnSync("pg_config", ["--bindir"], { encoding: "utf8" });
  if (fromPath.status === 0) candidates.push(fromPath.stdout.trim());
  if (existsSync("/usr/lib/postgresql")) {
    for (const version of readdirSync("/usr/lib/postgresql").sort((a, b) => Number(b) - Number(a))) {
      candidates.push(`/usr/lib/postgresql/${version}/bin`);
    }
  }
  for (const bin of candidates) {
    if (!existsSync(join(bin, "initdb")) || !existsSync(join(bin, "pg_ctl"))) continue;
    const config = join(bin, "pg_config");
    const share = existsSync(config) ? spawnSync(config, ["--sharedir"], { encoding: "utf8" }).stdout.trim() : "";
    const vector = share !== "" && existsSync(join(share, "extension", "vector.control"));
    return { bin, vector };
  }
  return null;
}

export async function freePort() {
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export const settingsForTests = {
  // A throwaway cluster: durability is not what the tests measure, speed is.
  fsync: "off",
  synchronous_commit: "off",
  full_page_writes: "off",
  max_connections: "300",
  shared_buffers: "256MB",
};

/** A durable server sized for a 24 GB, 2-core machine running the app beside it (the benchmarks). */
export const settingsForBenchmarks = {
  max_connections: "200",
  shared_buffers: "2GB",
  effective_cache_size: "8GB",
  maintenance_work_mem: "4GB",
  work_mem: "32MB",
  random_page_cost: "1.1",
  max_parallel_maintenance_workers: "1",
  max_parallel_workers_per_gather: "1",
};

/**
 * Starts a cluster in `dir` on `port` (initialised first when `dir` holds none); resolves to its
 * superuser URL and a stop(). `settings` are passed as `-c name=value` (the tests' defaults unless given).
 */
export async function startCluster({ dir, port, settings = settingsForTests, log = () => undefined }) {
  const found = findPostgres();
  if (!found) throw new Error("PostgreSQL is not installed (no initdb): install PostgreSQL 15+ and pgvector, or set MNEMO_TEST_POSTGRES_URL");
  if (!found.vector) throw new Error(`pgvector is not installed into the PostgreSQL at ${found.bin}: install it, or set MNEMO_TEST_POSTGRES_URL`);
  mkdirSync(dir, { recursive: true });
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const owner = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
    if (owner.status !== 0) throw new Error("running as root needs a `postgres` user to run the cluster");
    const uid = Number(owner.stdout.trim());
    const gid = Number(spawnSync("id", ["-g", "postgres"], { encoding: "utf8" }).stdout.trim());
    chownSync(dir, uid, gid);
  }
  const run = (command, args) => {
    const line = [command, ...args].map((part) => `'${part.replaceAll("'", "'\\''")}'`).join(" ");
    const result = asRoot ? spawnSync("su", ["postgres", "-s", "/bin/sh", "-c", line], { encoding: "utf8" }) : spawnSync(command, args, { encoding: "utf8" });
    if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr || result.stdout}`);
  };
  if (!existsSync(join(dir, "PG_VERSION"))) {
    log(`initdb ${dir}`);
    run(join(found.bin, "initdb"), ["-D", dir, "-A", "trust", "-U", "postgres", "--no-sync"]);
  }
  const options = [`-p ${port}`, "-k /tmp", "-c listen_addresses=127.0.0.1", ...Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`)].join(
    " ",
  );
  run(join(found.bin, "pg_ctl"), ["-D", dir, "-o", options, "-l", join(dir, "server.log"), "-w", "start"]);
  log(`PostgreSQL started on 127.0.0.1:${port}`);
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    logFile: join(dir, "server.log"),
    /** `fast` for a cluster kept for later (a clean shutdown), `immediate` for a throwaway one. */
    stop(mode = "immediate") {
      run(join(found.bin, "pg_ctl"), ["-D", dir, "-m", mode, "-w", "stop"]);
    },
  };
}

/** Runs `command` with MNEMO_TEST_POSTGRES_URL set, starting and removing a cluster when it is unset. */
async function runWithCluster(command, env = {}) {
  let cluster = null;
  let dir = null;
  const childEnv = { ...process.env, ...env };
  if (!childEnv.MNEMO_TEST_POSTGRES_URL) {
    dir = mkdtempSync(join(tmpdir(), "mnemo-postgres-"));
    try {
      cluster = await startCluster({ dir, port: await freePort(), log: (line) => console.log(`[postgres] ${line}`) });
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      console.error(`[postgres] ${error.message}`);
      process.exit(2);
    }
    childEnv.MNEMO_TEST_POSTGRES_URL = cluster.url;
  }
  const child = spawn(command[0], command.slice(1), { stdio: "inherit", env: childEnv });
  const forward = (signal) => child.kill(signal);
  process.on("SIGINT", forward);
  process.on("SIGTERM", forward);
  const code = await new Promise((resolve) => child.on("exit", (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0))));
  if (cluster) {
    try {
      cluster.stop();
    } catch (error) {
      console.error(`[postgres] ${error.message}`);
    }
    rmSync(dir, { recursive: true, force: true });
  }
  return code;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const usage = "usage: node scripts/postgres-cluster.mjs run -- <command …>";
  let tokens;
  try {
    // Everything after "--" is the command, its own flags included.
    ({ tokens } = parseArgs({ options: {}, allowPositionals: true, strict: true, tokens: true }));
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
    process.exit(2);
  }
  const separator = tokens.findIndex((token) => token.kind === "option-terminator");
  const before = tokens.slice(0, Math.max(0, separator)).map((token) => token.kind === "positional" && token.value);
  const command = tokens.slice(separator + 1).map((token) => (token.kind === "positional" ? token.value : ""));
  if (separator < 0 || before.length !== 1 || before[0] !== "run" || command.length === 0) {
    console.error(usage);
    process.exit(2);
  }
  process.exit(await runWithCluster(command));
}
