import { beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../lib/db/database";
import { createOpenAiCompatibleEmbedder } from "../../lib/rag/embed/openai-compatible-embedder";
import { CHUNKER_VERSION } from "../../lib/rag/chunk";
import { ensureIndexSpace } from "../../lib/rag/index/index-spaces";
import { runWorker } from "../../lib/rag/index/run-worker";
import { closeAfterAll } from "../support/close-after-all";
import { createProject, createRecord, createSection, saveAllGroup } from "../support/factories";
import { startFakeEmbeddingServer, type FakeEmbeddingServer } from "../support/fake-embedding-server";
import { duplicatePassages } from "../support/index-checks";
import { serveTestDatabase, type ServedDatabase } from "../support/test-database";

/**
 * Workers against a server database (PGlite over the Postgres protocol): two workers never
 * index the same record at once; a poison record parks without blocking. (Workers killed with
 * SIGKILL: crash-recovery.test.ts.)
 */
const dimension = 32;
let served: ServedDatabase;
let db: Database;
let fake: FakeEmbeddingServer;
let section: { id: string; slug: string };
let projectId: string;

beforeAll(async () => {
  fake = await startFakeEmbeddingServer({ dimension, delayMs: 150, failWhen: (text) => text.includes("POISON") });
  served = await serveTestDatabase({ maxConnections: 8 });
  db = served.database;
  section = await createSection(db.prisma);
  projectId = (await createProject(db.prisma)).id;
  await saveAllGroup(db.prisma, db.sql, section.slug, ["title", "summary"], 64);
}, 120_000);

closeAfterAll(
  () => served,
  () => fake,
);

describe("index workers in server mode", () => {
  it("two workers never index the same record at once, and a poison record parks without blocking the rest", async () => {
    // One after another: the pool has one connection, and sixteen waiting transactions can
    // outlast Prisma's two seconds to start one on a busy machine.
    const records = [];
    for (let index = 0; index < 16; index++) {
      records.push(
        await createRecord(db.prisma, section, projectId, {
          title: `Note ${index}`,
          summary: index === 5 ? "POISON text the model cannot take" : `Harbour note ${index}.`,
        }),
      );
    }
    const embedder = createOpenAiCompatibleEmbedder({ baseUrl: fake.url, model: "fake-model", dimension, batchSize: 8, timeoutMs: 10_000 });
    const space = await ensureIndexSpace(db.sql, { provider: embedder.provider, model: embedder.model, dimension, chunkerVersion: CHUNKER_VERSION });
    const second = await openDatabase({ url: served.url, poolSize: 1, migrateOnOpen: false });
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
    expect(await duplicatePassages(db.sql)).toBe(0);
  }, 180_000);

  it("one worker keeps several batches in flight, each its own claim: every record once, none twice at once", async () => {
    const records = [];
    for (let index = 0; index < 12; index++) {
      records.push(await createRecord(db.prisma, section, projectId, { title: `Lane note ${index}`, summary: `A net mender's ledger, entry ${index}.` }));
    }
    const embedder = createOpenAiCompatibleEmbedder({ baseUrl: fake.url, model: "fake-model", dimension, batchSize: 8, timeoutMs: 10_000 });
    const space = await ensureIndexSpace(db.sql, { provider: embedder.provider, model: embedder.model, dimension, chunkerVersion: CHUNKER_VERSION });
    const inFlight = new Map<string, string>();
    const overlaps: string[] = [];
    const lanes = new Set<string>();
    let mostAtOnce = 0;
    const onRecord = (event: { recordId: string; workerId: string; phase: "start" | "end" }) => {
      if (event.phase === "start") {
        if (inFlight.has(event.recordId)) overlaps.push(event.recordId);
        inFlight.set(event.recordId, event.workerId);
        lanes.add(event.workerId);
        mostAtOnce = Math.max(mostAtOnce, new Set(inFlight.values()).size);
      } else inFlight.delete(event.recordId);
    };
    const queue = { maxAttempts: 2, leaseSeconds: 60, backoffBaseSeconds: 0 };
    const progress = await runWorker({
      prisma: db.prisma,
      sql: db.sql,
      embedder,
      space,
      drain: true,
      idleMs: 50,
      batchSize: 2,
      concurrency: 3,
      workerId: "lanes",
      queue,
      onRecord,
    });
    expect(overlaps).toEqual([]);
    expect(progress.indexed).toBe(records.length);
    expect(progress.failed).toBe(0);
    // Three lanes, each its own worker on the queue, and batches of different lanes in flight together.
    expect([...lanes].sort()).toEqual(["lanes", "lanes/2", "lanes/3"]);
    expect(mostAtOnce).toBeGreaterThan(1);
    const indexed = await db.sql.query<{ count: number }>(`SELECT count(DISTINCT record_id)::int AS count FROM chunks WHERE record_id = ANY($1::text[])`, [
      records.map((record) => record.id),
    ]);
    expect(indexed[0]?.count).toBe(records.length);
    expect(await duplicatePassages(db.sql)).toBe(0);
  }, 180_000);
});
