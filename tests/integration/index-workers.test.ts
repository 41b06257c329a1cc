import { spawn, type ChildProcess } from "node:child_process";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import type { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPGlite, openDatabase, type Database } from "../../lib/db/database";
import { saveEmbedGroup } from "../../lib/rag/config/embed-groups";
import { createOpenAiCompatibleEmbedder } from "../../lib/rag/embed/openai-compatible-embedder";
import { CHUNKER_VERSION } from "../../lib/rag/chunk";
import { ensureIndexSpace } from "../../lib/rag/index/index-spaces";
import { runWorker } from "../../lib/rag/index/run-worker";
import { createProject, createRecord, createSection } from "../support/factories";
import { startFakeEmbeddingServer, type FakeEmbeddingServer } from "../support/fake-embedding-server";

/**
 * Workers against a server database (PGlite over the Postgres protocol): a worker process
 * killed with SIGKILL mid-batch loses nothing and duplicates nothing once another takes over;
 * two workers never index the same record at once; a poison record parks without blocking.
 */
const dimension = 32;
let pglite: PGlite;
let socketServer: PGLiteSocketServer;
let url: string;
let db: Database;
let fake: FakeEmbeddingServer;
let section: { id: string; slug: string };
let projectId: string;

const embedderEnv = () => ({
  MNEMO_EMBEDDER: "openai-compatible",
  MNEMO_EMBEDDING_BASE_URL: fake.url,
  MNEMO_EMBEDDING_MODEL: "fake-model",
  MNEMO_EMBEDDING_DIMENSION: String(dimension),
  MNEMO_EMBEDDING_BATCH_SIZE: "8",
  MNEMO_EMBEDDING_TIMEOUT_MS: "10000",
});

beforeAll(async () => {
  fake = await startFakeEmbeddingServer({ dimension, delayMs: 150, failWhen: (text) => text.includes("POISON") });
  pglite = await createPGlite("memory://");
  socketServer = new PGLiteSocketServer({ db: pglite, port: 0, host: "127.0.0.1", maxConnections: 8 });
  await socketServer.start();
  url = `postgresql://postgres:postgres@${socketServer.getServerConn()}/postgres`;
  db = await openDatabase({ url, poolSize: 1 });
  section = await createSection(db.prisma);
  projectId = (await createProject(db.prisma)).id;
  await saveEmbedGroup(db.prisma, db.sql, {
    sectionSlug: section.slug,
    group: { slug: "all", label: "All", fields: ["title", "summary"], chunking: "short", maxTokens: 64, minTokens: 1, overlap: 0 },
    requeue: false,
  });
}, 120_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  await db?.close();
  await socketServer?.stop();
  await pglite?.close();
  await fake?.close();
});

function startWorkerProcess(extraArgs: string[], extraEnv: Record<string, string> = {}): ChildProcess {
  // Node itself (not npx, which would survive as a parent and leave the real worker orphaned
  // when killed), with tsx as its loader.
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/worker.ts", ...extraArgs], {
    env: { ...process.env, ...embedderEnv(), ...extraEnv, DATABASE_URL: url, DATABASE_POOL_SIZE: "1", NODE_ENV: "test" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  return child;
}

const children: ChildProcess[] = [];

async function waitFor(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("condition not met in time");
}

async function duplicateChunks(): Promise<number> {
  const [row] = await db.sql.query<{ duplicates: number }>(
    `SELECT count(*)::int AS duplicates FROM (
       SELECT record_id, embed_group_id, index_space_id, ordinal FROM chunks
        GROUP BY 1, 2, 3, 4 HAVING count(*) > 1) d`,
  );
  return row?.duplicates ?? -1;
}

describe("index workers in server mode", () => {
  it("a worker killed with SIGKILL mid-batch loses nothing: a restarted worker indexes every record once", async () => {
    const records = await Promise.all(Array.from({ length: 24 }, (_, index) => createRecord(db.prisma, section, projectId, { title: `Letter ${index}`, summary: `About the mill, part ${index}.` })));
    const first = startWorkerProcess([], { MNEMO_INDEX_LEASE_SECONDS: "2" });
    // Kill it once it has finished some records and is in the middle of others.
    await waitFor(async () => (await db.prisma.indexQueueItem.count({ where: { status: "running" } })) > 0 && (await db.prisma.chunk.count()) > 0, 60_000);
    first.kill("SIGKILL");
    await new Promise((resolve) => first.once("exit", resolve));
    const left = await db.prisma.indexQueueItem.count();
    expect(left).toBeGreaterThan(0);

    const second = startWorkerProcess(["--drain"], { MNEMO_INDEX_LEASE_SECONDS: "2" });
    const exitCode = await new Promise<number | null>((resolve) => second.once("exit", resolve));
    expect(exitCode).toBe(0);
    expect(await db.prisma.indexQueueItem.count()).toBe(0);
    const indexed = await db.sql.query<{ record_id: string }>(`SELECT DISTINCT record_id FROM chunks`);
    expect(indexed.map((row) => row.record_id).sort()).toEqual(records.map((record) => record.id).sort());
    expect(await duplicateChunks()).toBe(0);
  }, 180_000);

  it("two workers never index the same record at once, and a poison record parks without blocking the rest", async () => {
    const records = await Promise.all(Array.from({ length: 16 }, (_, index) => createRecord(db.prisma, section, projectId, { title: `Note ${index}`, summary: index === 5 ? "POISON text the model cannot take" : `Harbour note ${index}.` })));
    const embedder = createOpenAiCompatibleEmbedder({ baseUrl: fake.url, model: "fake-model", dimension, batchSize: 8, timeoutMs: 10_000 });
    const space = await ensureIndexSpace(db.sql, { provider: embedder.provider, model: embedder.model, dimension, chunkerVersion: CHUNKER_VERSION });
    const second = await openDatabase({ url, poolSize: 1, migrateOnOpen: false });
    const inFlight = new Map<string, string>();
    const overlaps: string[] = [];
    const seen: string[] = [];
    const onRecord = (event: { recordId: string; workerId: string; phase: "start" | "end" }) => {
      if (event.phase === "start") {
        if (inFlight.has(event.recordId)) overlaps.push(event.recordId);
        inFlight.set(event.recordId, event.workerId);
        seen.push(event.recordId);
      } else inFlight.delete(event.recordId);
    };
    const queue = { maxAttempts: 2, leaseSeconds: 60, backoffBaseSeconds: 0 };
    try {
      const [a, b] = await Promise.all([
        runWorker({ prisma: db.prisma, sql: db.sql, embedder, space, drain: true, idleMs: 50, batchSize: 3, queue, onRecord }),
        runWorker({ prisma: second.prisma, sql: second.sql, embedder, space, drain: true, idleMs: 50, batchSize: 3, queue, onRecord }),
      ]);
      expect(overlaps).toEqual([]);
      expect(a.indexed).toBeGreaterThan(0);
      expect(b.indexed).toBeGreaterThan(0);
      expect(a.indexed + b.indexed).toBe(records.length - 1);
      expect(a.parked + b.parked).toBe(1);
    } finally {
      await second.close();
    }
    const poison = records[5];
    expect(await db.prisma.indexQueueItem.findUnique({ where: { recordId: poison?.id ?? "" } })).toMatchObject({ status: "parked" });
    expect(await db.prisma.indexQueueItem.count({ where: { status: { not: "parked" } } })).toBe(0);
    expect(await duplicateChunks()).toBe(0);
  }, 180_000);
});
