/**
 * `npm run test:faults:app`: the production web app (`next start`, embedded mode, whose index
 * worker runs inside the web process) killed with SIGKILL while it indexes a freshly seeded small
 * demo, twice, then started again and left to drain. Checks that nothing is left in the queue,
 * nothing is parked, no passage exists twice, and the passages and object vectors are exactly
 * what a clean run over the same records produces. Prints what it measured; exits 1 on a failed
 * check. Needs a production build (`npx next build`); uses the hash embedder so it is quick.
 *
 *   FAULTS_PORT=3130 npm run test:faults:app
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase, type Database } from "../../lib/db/database";
import { configuredIndexer } from "../../lib/rag/index/configured-indexer";
import { enqueueReindex } from "../../lib/rag/index/index-queue";
import { runWorker } from "../../lib/rag/index/run-worker";
import { duplicatePassages, passageSnapshot } from "../../tests/support/index-checks";

const port = process.env.FAULTS_PORT ?? "3130";
const dataDir = mkdtempSync(join(tmpdir(), "mnemo-app-kill-"));
const env: NodeJS.ProcessEnv = {
  ...process.env,
  MNEMO_DATA_DIR: dataDir,
  MNEMO_DEMO_SIZE: "small",
  AUTH_SECRET: randomBytes(32).toString("base64url"),
  MNEMO_EMBEDDER: "hash",
  MNEMO_ALLOW_HASH_EMBEDDER: "1",
  NEXT_TELEMETRY_DISABLED: "1",
};
delete env.DATABASE_URL;
delete env.MNEMO_INDEX_WORKER;
Object.assign(process.env, env);

const failures: string[] = [];
function check(what: string, ok: boolean, detail = ""): void {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}${detail ? `: ${detail}` : ""}`);
  if (!ok) failures.push(what);
}
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function withDatabase<T>(work: (database: Database) => Promise<T>): Promise<T> {
  const database = await openDatabase({ dataDir: join(dataDir, "pgdata") });
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}
const count = async (database: Database, sql: string, params: unknown[] = []) => (await database.sql.query<{ n: number }>(sql, params))[0]?.n ?? 0;

interface Server {
  child: ChildProcess;
  lines: string[];
  exited: Promise<void>;
}

function startServer(): Server {
  // Node itself runs Next's CLI, so the pid is the web process and SIGKILL reaches it.
  const child = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-H", "127.0.0.1", "-p", port], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  for (const stream of [child.stdout, child.stderr]) stream?.on("data", (data: Buffer) => lines.push(...data.toString("utf8").split("\n").filter(Boolean)));
  return { child, lines, exited: new Promise((resolve) => child.once("close", () => resolve())) };
}

async function waitForLine(server: Server, pattern: RegExp, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (server.lines.some((line) => pattern.test(line))) return Date.now() - started;
    if (server.child.exitCode !== null) throw new Error(`the server stopped:\n${server.lines.slice(-20).join("\n")}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no line matching ${pattern} within ${timeoutMs} ms:\n${server.lines.slice(-20).join("\n")}`);
}

async function main(): Promise<void> {
  if (!existsSync(".next/BUILD_ID")) throw new Error("No production build: run `npx next build` first.");
  let started = Date.now();
  const seeded = spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "prisma/seed/run.ts"], {
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (seeded.status !== 0) throw new Error("seeding failed");
  const records = await withDatabase(async (database) => ({
    total: await count(database, `SELECT count(*)::int AS n FROM records`),
    queued: await count(database, `SELECT count(*)::int AS n FROM index_queue`),
  }));
  console.log(`seeded the small demo in ${seconds(Date.now() - started)}: ${records.total} records, ${records.queued} queued for indexing`);

  // Two kills while the in-process worker indexes, at different points of the work.
  const kills: { afterMs: number; claimed: number; claimedByThisProcess: number; writtenButUnfinished: number; left: number }[] = [];
  for (const delayMs of [1500, 9000]) {
    const server = startServer();
    await waitForLine(server, /\[index\] worker started/, 120_000);
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    const reclaimed = server.lines.find((line) => line.includes("took back"));
    if (reclaimed) console.log(`restarted: ${reclaimed.replace(/^.*\[index\] /, "")}`);
    server.child.kill("SIGKILL");
    await server.exited;
    const pid = server.child.pid;
    kills.push(
      await withDatabase(async (database) => ({
        afterMs: delayMs,
        claimed: await count(database, `SELECT count(*)::int AS n FROM index_queue WHERE status = 'running'`),
        claimedByThisProcess: await count(database, `SELECT count(*)::int AS n FROM index_queue WHERE status = 'running' AND locked_by LIKE $1`, [
          `%:${pid}:%`,
        ]),
        writtenButUnfinished: await count(
          database,
          `SELECT count(*)::int AS n FROM index_queue q WHERE q.status = 'running' AND q.locked_by LIKE $1 AND EXISTS (SELECT 1 FROM chunks c WHERE c.record_id = q.record_id)`,
          [`%:${pid}:%`],
        ),
        left: await count(database, `SELECT count(*)::int AS n FROM index_queue`),
      })),
    );
    const kill = kills.at(-1)!;
    console.log(
      `SIGKILL ${kills.length}, ${seconds(delayMs)} after the worker started: ${kill.claimed} records claimed (${kill.claimedByThisProcess} by the killed process), ` +
        `${kill.writtenButUnfinished} of them already written, ${kill.left} still queued`,
    );
  }
  check(
    "a kill landed while records were claimed",
    kills.some((kill) => kill.claimedByThisProcess > 0),
    kills.map((kill) => kill.claimedByThisProcess).join("/"),
  );
  check("work was left for the restart", (kills.at(-1)?.left ?? 0) > 0);

  // Restart: the worker takes the dead process's claims back and drains the queue.
  started = Date.now();
  const server = startServer();
  await waitForLine(server, /\[index\] worker started/, 120_000);
  const startMs = Date.now() - started;
  await waitForLine(server, /\[index\] \d+ records indexed, 0 waiting/, 300_000);
  const drainMs = Date.now() - started;
  const reclaimed = server.lines.find((line) => line.includes("took back"));
  server.child.kill("SIGTERM");
  await server.exited;
  console.log(
    `restarted: worker up in ${seconds(startMs)}, queue empty ${seconds(drainMs)} after the start${reclaimed ? ` (${reclaimed.replace(/^.*\[index\] /, "")})` : ""}`,
  );
  check("the restarted worker took back the dead process's claims at once", reclaimed !== undefined || kills.at(-1)?.claimed === 0);

  await withDatabase(async (database) => {
    const left = await count(database, `SELECT count(*)::int AS n FROM index_queue`);
    const parked = await count(database, `SELECT count(*)::int AS n FROM index_queue WHERE status = 'parked'`);
    check("the queue drained", left === 0, `${left} rows left, ${parked} parked`);
    const duplicates = await duplicatePassages(database.sql);
    check("no passage twice for a record, group, space and position", duplicates === 0, `${duplicates} duplicates`);
    const objectVectors = `SELECT concat_ws('|', record_id, space, field_key, source_hash, md5(embedding::text)) AS line FROM object_vectors ORDER BY 1`;
    const recovered = {
      passages: await passageSnapshot(database.sql),
      objects: (await database.sql.query<{ line: string }>(objectVectors)).map((row) => row.line),
    };
    const indexedRecords = await count(database, `SELECT count(DISTINCT record_id)::int AS n FROM chunks`);

    // A clean run over the same records, in this process, for comparison.
    const cleanStarted = Date.now();
    await database.sql.exec(`DELETE FROM chunks; DELETE FROM object_vectors;`);
    await enqueueReindex(database.sql, {});
    const { embedder, space, objects } = await configuredIndexer(database.sql);
    const clean = await runWorker({ prisma: database.prisma, sql: database.sql, embedder, space, objects, drain: true, idleMs: 10, batchSize: 32 });
    const cleanMs = Date.now() - cleanStarted;
    const reference = {
      passages: await passageSnapshot(database.sql),
      objects: (await database.sql.query<{ line: string }>(objectVectors)).map((row) => row.line),
    };
    check(
      "the clean run indexed every record without parking",
      clean.parked === 0 && clean.indexed === records.total,
      `${clean.indexed} indexed, ${clean.parked} parked, in ${seconds(cleanMs)}`,
    );
    check(
      "after the kills, exactly the passages of a clean run",
      JSON.stringify(recovered.passages) === JSON.stringify(reference.passages),
      `${recovered.passages.length} passages of ${indexedRecords} records, clean run ${reference.passages.length}`,
    );
    check(
      "after the kills, exactly the object vectors of a clean run",
      JSON.stringify(recovered.objects) === JSON.stringify(reference.objects),
      `${recovered.objects.length} vs ${reference.objects.length}`,
    );
  });
}

try {
  await main();
} catch (error) {
  failures.push(error instanceof Error ? error.message : String(error));
  console.error(error);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(failures.length === 0 ? "all checks passed" : `${failures.length} check(s) failed`);
process.exit(failures.length === 0 ? 0 : 1);
