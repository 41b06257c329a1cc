import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../lib/db/database";
import { resetConfig } from "../../lib/config";
import { claimQueueItems, completeQueueItem, enqueueReindex, failQueueItem, releaseOrphanedClaims, retryParked } from "../../lib/rag/index/index-queue";
import { activateIndexSpace, ensureIndexSpace, getActiveIndexSpace, hnswIndexStatement, registerIndexSpace } from "../../lib/rag/index/index-spaces";
import { saveRecord } from "../../lib/archive/save-record";
import { systemPrincipal } from "../../lib/acl";
import { createProject, createRecord, createSection } from "../support/factories";
import { openTestDatabase, testDatabaseMode } from "../support/test-database";

let db: Database;
let section: { id: string; slug: string };
let projectId: string;

beforeAll(async () => {
  db = await openTestDatabase();
  section = await createSection(db.prisma);
  projectId = (await createProject(db.prisma)).id;
});
afterAll(async () => {
  await db.close();
});

const options = { maxAttempts: 3, leaseSeconds: 60, backoffBaseSeconds: 0 };

describe(`index queue (${testDatabaseMode()})`, () => {
  it("hands each record to one worker at a time and deletes the row when done", async () => {
    await db.prisma.indexQueueItem.deleteMany();
    const records = await Promise.all(Array.from({ length: 6 }, () => createRecord(db.prisma, section, projectId)));
    const first = await claimQueueItems(db.sql, "worker-a", 4, options);
    const second = await claimQueueItems(db.sql, "worker-b", 4, options);
    expect(first).toHaveLength(4);
    expect(second).toHaveLength(2);
    const claimed = [...first, ...second].map((item) => item.recordId);
    expect(new Set(claimed).size).toBe(6);
    expect(claimed.sort()).toEqual(records.map((record) => record.id).sort());
    expect(await claimQueueItems(db.sql, "worker-c", 4, options)).toHaveLength(0);
    for (const item of first) await completeQueueItem(db.sql, item, "worker-a");
    // Another worker cannot complete what it did not claim.
    for (const item of second) await completeQueueItem(db.sql, item, "worker-a");
    expect(await db.prisma.indexQueueItem.count()).toBe(2);
    for (const item of second) await completeQueueItem(db.sql, item, "worker-b");
    expect(await db.prisma.indexQueueItem.count()).toBe(0);
  });

  it("keeps the row when the record is saved again during indexing", async () => {
    const record = await createRecord(db.prisma, section, projectId);
    const [item] = await claimQueueItems(db.sql, "worker-a", 10, options);
    expect(item?.recordId).toBe(record.id);
    await saveRecord(db.prisma, systemPrincipal, { id: record.id, version: 1, sectionSlug: section.slug, projectId, values: { title: "changed meanwhile" } });
    if (item) await completeQueueItem(db.sql, item, "worker-a");
    expect(await db.prisma.indexQueueItem.findUnique({ where: { recordId: record.id } })).toMatchObject({ status: "pending" });
    await db.prisma.indexQueueItem.deleteMany();
  });

  it("backs off, parks a poison record after the last attempt, and retries parked rows on request", async () => {
    const poison = await createRecord(db.prisma, section, projectId);
    const healthy = await createRecord(db.prisma, section, projectId);
    for (let attempt = 1; attempt <= options.maxAttempts; attempt++) {
      const items = await claimQueueItems(db.sql, "worker-a", 10, options);
      const poisonItem = items.find((item) => item.recordId === poison.id);
      expect(poisonItem?.attempts).toBe(attempt);
      for (const item of items) {
        if (item.recordId === poison.id) {
          expect(await failQueueItem(db.sql, item, "worker-a", new Error("bad bytes"), options)).toBe(attempt < options.maxAttempts ? "retry" : "parked");
        } else {
          await completeQueueItem(db.sql, item, "worker-a");
        }
      }
    }
    expect(await db.prisma.indexQueueItem.findUnique({ where: { recordId: healthy.id } })).toBeNull();
    expect(await db.prisma.indexQueueItem.findUnique({ where: { recordId: poison.id } })).toMatchObject({
      status: "parked",
      lastError: "bad bytes",
      attempts: 3,
    });
    expect(await claimQueueItems(db.sql, "worker-a", 10, options)).toHaveLength(0);
    expect(await retryParked(db.sql, section.id)).toBe(1);
    expect((await claimQueueItems(db.sql, "worker-a", 10, options)).map((item) => item.recordId)).toEqual([poison.id]);
    await db.prisma.indexQueueItem.deleteMany();
  });

  it("takes over a claim whose worker died once the lease expires", async () => {
    const record = await createRecord(db.prisma, section, projectId);
    const [dead] = await claimQueueItems(db.sql, "dead-worker", 10, { ...options, leaseSeconds: 60 });
    expect(dead?.recordId).toBe(record.id);
    expect(await claimQueueItems(db.sql, "worker-b", 10, { ...options, leaseSeconds: 60 })).toHaveLength(0);
    await db.sql.query(`UPDATE index_queue SET locked_at = now() - interval '2 minutes'`);
    const [taken] = await claimQueueItems(db.sql, "worker-b", 10, { ...options, leaseSeconds: 60 });
    expect(taken?.recordId).toBe(record.id);
    if (taken) await completeQueueItem(db.sql, taken, "worker-b");
    if (dead) await completeQueueItem(db.sql, dead, "dead-worker");
    expect(await db.prisma.indexQueueItem.count()).toBe(0);
  });

  it("puts the claims of a process that died back in line at start-up, and parks a record that was claimed too often", async () => {
    const [survivor, crasher] = [await createRecord(db.prisma, section, projectId), await createRecord(db.prisma, section, projectId)];
    await db.sql.query(`UPDATE index_queue SET attempts = $2 WHERE record_id = $1`, [crasher.id, options.maxAttempts - 1]);
    expect(await claimQueueItems(db.sql, "dead-process", 10, options)).toHaveLength(2);
    expect(await releaseOrphanedClaims(db.sql, options)).toEqual({ released: 1, parked: 1 });
    expect(await db.prisma.indexQueueItem.findUnique({ where: { recordId: survivor.id } })).toMatchObject({ status: "pending", lockedBy: null, attempts: 1 });
    expect(await db.prisma.indexQueueItem.findUnique({ where: { recordId: crasher.id } })).toMatchObject({
      status: "parked",
      lastError: `The process indexing this record stopped ${options.maxAttempts} times before it finished (killed or crashed).`,
    });
    // No lease to wait out: the survivor is claimable at once.
    expect((await claimQueueItems(db.sql, "new-process", 10, options)).map((item) => item.recordId)).toEqual([survivor.id]);
    expect(await releaseOrphanedClaims(db.sql, options)).toEqual({ released: 1, parked: 0 });
    await db.prisma.indexQueueItem.deleteMany();
  });

  it("re-queues a section without doubling rows", async () => {
    const before = await db.prisma.record.count({ where: { sectionId: section.id } });
    expect(await enqueueReindex(db.sql, { sectionId: section.id })).toBe(before);
    expect(await enqueueReindex(db.sql, { sectionId: section.id })).toBe(before);
    expect(await db.prisma.indexQueueItem.count()).toBe(before);
    await db.prisma.indexQueueItem.deleteMany();
  });
});

describe(`index spaces (${testDatabaseMode()})`, () => {
  it("registers a space with its own partial HNSW index and keeps exactly one active", async () => {
    const first = await ensureIndexSpace(db.sql, { provider: "hash", model: "hash-a", dimension: 8, chunkerVersion: 1 });
    expect(first.status).toBe("active");
    const second = await ensureIndexSpace(db.sql, { provider: "hash", model: "hash-b", dimension: 16, chunkerVersion: 1 });
    expect(second.status).toBe("building");
    const indexes = await db.sql.query<{ indexname: string; indexdef: string }>(
      `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'chunks' AND indexdef ILIKE '%hnsw%'`,
    );
    expect(indexes.map((index) => index.indexname).sort()).toEqual([hnswIndexStatement(first).name, hnswIndexStatement(second).name].sort());
    expect(indexes.find((index) => index.indexname === hnswIndexStatement(second).name)?.indexdef).toContain(`'${second.id}'`);
    expect((await registerIndexSpace(db.sql, { provider: "hash", model: "hash-b", dimension: 16, chunkerVersion: 1 })).id).toBe(second.id);
    await activateIndexSpace(db.sql, second.id);
    expect((await getActiveIndexSpace(db.sql))?.id).toBe(second.id);
    expect(await db.prisma.indexSpace.count({ where: { status: "active" } })).toBe(1);
    expect(() => hnswIndexStatement({ id: "x'; DROP TABLE chunks; --", dimension: 8 })).toThrow();
    // Built as configured: pgvector's defaults unless MNEMO_HNSW_M / MNEMO_HNSW_EF_CONSTRUCTION say otherwise.
    expect(indexes[0]?.indexdef).toMatch(/WITH \(m='?16'?, ef_construction='?64'?\)/);
    expect(hnswIndexStatement(second, { m: 32, efConstruction: 128 }).sql).toContain("WITH (m = 32, ef_construction = 128)");
    expect(() => hnswIndexStatement(second, { m: 32, efConstruction: 63 })).toThrow(/unsupported HNSW build/);
    expect(() => hnswIndexStatement(second, { m: 16.5, efConstruction: 64 })).toThrow(/unsupported HNSW build/);
  });

  it("builds a new space's index with the configured graph", async () => {
    process.env.MNEMO_HNSW_M = "24";
    process.env.MNEMO_HNSW_EF_CONSTRUCTION = "96";
    resetConfig();
    try {
      const space = await ensureIndexSpace(db.sql, { provider: "hash", model: "hash-c", dimension: 8, chunkerVersion: 1 });
      const [index] = await db.sql.query<{ indexdef: string }>(`SELECT indexdef FROM pg_indexes WHERE indexname = $1`, [hnswIndexStatement(space).name]);
      expect(index?.indexdef).toMatch(/WITH \(m='?24'?, ef_construction='?96'?\)/);
    } finally {
      delete process.env.MNEMO_HNSW_M;
      delete process.env.MNEMO_HNSW_EF_CONSTRUCTION;
      resetConfig();
    }
  });
});
