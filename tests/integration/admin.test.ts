import { beforeAll, describe, expect, it } from "vitest";
import { type Principal, systemPrincipal } from "../../lib/acl";
import { deleteEmbedGroup, previewEmbedGroup, saveEmbedGroupAsAdmin } from "../../lib/admin/embed-group-admin";
import { getIndexHealth } from "../../lib/admin/index-health";
import { getReindexProgress, listReindexJobs, retryFailed, startReindex } from "../../lib/admin/reindex-jobs";
import type { Database } from "../../lib/db/database";
import { AppError } from "../../lib/errors";
import { saveEmbedGroup } from "../../lib/rag/index/save-embed-group";
import { EmbeddingError, type Embedder } from "../../lib/rag/embed/embedder";
import { createHashEmbedder } from "../../lib/rag/embed/hash-embedder";
import { type IndexSpace } from "../../lib/rag/index/index-spaces";
import { runWorker } from "../../lib/rag/index/run-worker";
import { indexReadiness } from "../../lib/rag/index/index-readiness";
import { healthReport } from "../../lib/health";
import { saveObjectContext } from "../../lib/rag/objects/save-object-context";
import { closeAfterAll } from "../support/close-after-all";
import { addMember, createProject, createRecord, createSection, createUser, principalOf, testIndexSpace } from "../support/factories";
import { openTestDatabase } from "../support/test-database";

/**
 * The admin services: only admins reach them (anyone else: not found, as if the page did not
 * exist); embed groups are validated, previewed without saving, saved with a re-queue; a reindex
 * reports progress from the queue, is not doubled when started twice, and its counts agree with
 * the index when it ends; failures are listed with their errors and can be retried.
 */
let db: Database;
let space: IndexSpace;
let admin: Principal;
let curator: Principal;
let researcher: Principal;
let sectionSlug: string;
const recordIds: string[] = [];
const embedder = createHashEmbedder({ dimension: 32 });

const group = { slug: "body", label: "Body", fields: ["title", "summary"], chunking: "long_document", maxTokens: 40, minTokens: 4, overlap: 0, languages: [] };

async function drain(using: Embedder = embedder) {
  return runWorker({
    prisma: db.prisma,
    sql: db.sql,
    embedder: using,
    space,
    drain: true,
    idleMs: 10,
    batchSize: 8,
    queue: { maxAttempts: 1, leaseSeconds: 30, backoffBaseSeconds: 0 },
  });
}

beforeAll(async () => {
  db = await openTestDatabase();
  space = await testIndexSpace(db.sql, embedder);
  const project = await createProject(db.prisma);
  admin = await principalOf(db.prisma, (await createUser(db.prisma, { role: "admin" })).id);
  const curatorUser = await createUser(db.prisma, { role: "curator" });
  await addMember(db.prisma, curatorUser.id, project.id, "editor");
  curator = await principalOf(db.prisma, curatorUser.id);
  researcher = await principalOf(db.prisma, (await createUser(db.prisma)).id);
  const section = await createSection(db.prisma);
  sectionSlug = section.slug;
  await saveEmbedGroup(db.prisma, db.sql, { sectionSlug, group, requeue: false });
  for (let i = 0; i < 6; i++) {
    const summary = `## Background\nThe harbour record number ${i} describes nets and salt.\n\n[[page:3]]\nA second paragraph about the auction of fish at dawn, number ${i}, with enough words to need its own passage when the bound is small.`;
    recordIds.push((await createRecord(db.prisma, section, project.id, { title: `Harbour ${i}`, summary }, systemPrincipal)).id);
  }
  await drain();
}, 120_000);

closeAfterAll(() => db);

describe("admin services", () => {
  it("answer everyone but an admin as if they did not exist", async () => {
    for (const who of [curator, researcher]) {
      const attempts: Promise<unknown>[] = [
        getIndexHealth(db.sql, who),
        startReindex(db.prisma, db.sql, who, { sectionSlug }),
        listReindexJobs(db.sql, who),
        getReindexProgress(db.sql, who, "00000000-0000-4000-8000-000000000000"),
        retryFailed(db.prisma, db.sql, who, {}),
        previewEmbedGroup(db.prisma, db.sql, who, { sectionSlug, group }),
        saveEmbedGroupAsAdmin(db.prisma, db.sql, who, { sectionSlug, group }),
        deleteEmbedGroup(db.prisma, who, { sectionSlug, groupId: "00000000-0000-4000-8000-000000000000" }),
        saveObjectContext(db.prisma, db.sql, who, { sectionSlug, context: null }),
      ];
      for (const attempt of attempts) await expect(attempt).rejects.toMatchObject({ code: "not_found" });
    }
    expect(await db.sql.query(`SELECT 1 FROM reindex_jobs`)).toHaveLength(0);
    expect(await db.sql.query(`SELECT 1 FROM index_queue`)).toHaveLength(0);
  });

  it("previews what a group makes of a record without saving anything", async () => {
    const before = await db.prisma.embedGroup.findMany();
    const preview = await previewEmbedGroup(db.prisma, db.sql, admin, {
      sectionSlug,
      group: { ...group, slug: "draft", maxTokens: 24 },
      recordId: recordIds[0],
    });
    expect(preview?.record.title).toBe("Harbour 0");
    expect(preview?.document).toContain("## Summary");
    expect(preview?.chunks.length).toBeGreaterThan(2);
    for (const chunk of preview?.chunks ?? []) expect(chunk.tokenCount).toBeLessThanOrEqual(24);
    expect(preview?.chunks.some((chunk) => chunk.headingPath.includes("Background"))).toBe(true);
    expect(preview?.chunks.some((chunk) => chunk.page === 3)).toBe(true);
    expect(await db.prisma.embedGroup.findMany()).toEqual(before);
    await expect(previewEmbedGroup(db.prisma, db.sql, admin, { sectionSlug, group, recordId: "not-a-record" })).rejects.toMatchObject({ code: "bad_request" });
  });

  it("refuses invalid groups with a message per control, and saves a valid one with a re-queue", async () => {
    const error = await saveEmbedGroupAsAdmin(db.prisma, db.sql, admin, {
      sectionSlug,
      group: { ...group, fields: ["title", "nowhere", "title.x"], minTokens: 50, maxTokens: 40 },
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect(Object.keys((error as AppError).fieldErrors ?? {}).sort()).toEqual(["minTokens"]);
    const pathError = await saveEmbedGroupAsAdmin(db.prisma, db.sql, admin, { sectionSlug, group: { ...group, fields: ["title", "nowhere"] } }).catch(
      (caught: unknown) => caught,
    );
    expect((pathError as AppError).fieldErrors?.fields?.[0]).toMatch(/has no field "nowhere"/);
    expect(await db.sql.query(`SELECT 1 FROM index_queue`)).toHaveLength(0);

    const saved = await saveEmbedGroupAsAdmin(db.prisma, db.sql, admin, { sectionSlug, group: { ...group, maxTokens: 60 } });
    expect(saved.group.maxTokens).toBe(60);
    expect(await db.sql.query(`SELECT 1 FROM index_queue`)).toHaveLength(recordIds.length);
    expect(await db.prisma.auditEvent.count({ where: { action: "embed-group.update" } })).toBe(1);
    await drain();
  });

  it("reindexes with progress from the queue; starting twice does not double the work; the counts agree at the end", async () => {
    const first = await startReindex(db.prisma, db.sql, admin, { sectionSlug });
    expect(first.alreadyRunning).toBe(false);
    expect(first.job).toMatchObject({ total: recordIds.length, remaining: recordIds.length, percent: 0, finishedAt: null });
    const queuedAt = await db.sql.query<{ id: string; updated_at: Date }>(`SELECT id, updated_at FROM index_queue ORDER BY id`);
    const second = await startReindex(db.prisma, db.sql, admin, {});
    // A reindex of everything waits for nothing new while the section's runs; it is that job.
    expect(second).toMatchObject({ alreadyRunning: false });
    const third = await startReindex(db.prisma, db.sql, admin, { sectionSlug });
    expect(third.alreadyRunning).toBe(true);
    expect(third.job.id).toBe(second.job.id);
    expect((await db.sql.query(`SELECT 1 FROM index_queue`)).length).toBe(recordIds.length);
    expect(queuedAt.length).toBe(recordIds.length);

    await drain();
    const done = await getReindexProgress(db.sql, admin, second.job.id);
    expect(done).toMatchObject({ remaining: 0, failed: 0, percent: 100, done: done.total });
    expect(done.finishedAt).not.toBeNull();
    const health = await getIndexHealth(db.sql, admin);
    const section = health.sections.find((candidate) => candidate.sectionSlug === sectionSlug);
    expect(section).toMatchObject({ records: recordIds.length, indexed: recordIds.length, pending: 0, failed: 0 });
    expect(health.coverage.indexed).toBe(health.coverage.records);
    expect(health.active?.id).toBe(space.id);
  });

  it("says when search is ready, per readable section, and what a queued reindex waits behind", async () => {
    // Three records of another project wait in the queue before the reindex is asked for.
    const otherProject = await createProject(db.prisma);
    const otherSection = await createSection(db.prisma);
    for (let i = 0; i < 3; i++) await createRecord(db.prisma, otherSection, otherProject.id, { title: `Queued first ${i}` }, systemPrincipal);
    const job = (await startReindex(db.prisma, db.sql, admin, { sectionSlug })).job;
    expect(job.waitingBehind).toBe(3);

    const anonymous = await indexReadiness(db.sql, null);
    expect(anonymous.ready).toBe(false);
    expect(anonymous.percent).toBeLessThan(100);
    expect(anonymous.sections).toBeUndefined();
    // The curator reads the first project only: its section, its counts; nothing of the other.
    const forCurator = await indexReadiness(db.sql, curator);
    expect(forCurator.sections).toEqual([expect.objectContaining({ slug: sectionSlug, records: recordIds.length, waiting: recordIds.length, failed: 0 })]);
    expect((await indexReadiness(db.sql, researcher)).sections).toEqual([]);
    const forAdmin = await indexReadiness(db.sql, admin);
    expect(forAdmin.sections?.find((section) => section.slug === otherSection.slug)).toMatchObject({ records: 3, waiting: 3, indexed: 0 });

    await drain();
    expect(await indexReadiness(db.sql, null)).toEqual({ ready: true, percent: 100 });
    expect(await getReindexProgress(db.sql, admin, job.id)).toMatchObject({ remaining: 0, waitingBehind: 0 });
    const report = await healthReport(db.sql, db.mode, undefined, {
      ffmpeg: async () => true,
      ocr: async () => ({ available: true, languages: [], missing: [] }),
    });
    expect(report).toMatchObject({ ready: true, indexing: { ready: true, percent: 100 } });
    expect(JSON.stringify(report)).not.toMatch(/sections|records/);
  });

  it("lists failures with their errors and retries them", async () => {
    const failing: Embedder = { ...embedder, embed: async () => Promise.reject(new EmbeddingError("model unreachable", { retryable: true })) };
    // Nothing reusable: every passage must be embedded again, while the model is down.
    await db.sql.query(`DELETE FROM chunks`);
    await db.sql.query(`DELETE FROM embedding_cache`);
    await startReindex(db.prisma, db.sql, admin, { sectionSlug });
    await drain(failing);
    const health = await getIndexHealth(db.sql, admin);
    const section = health.sections.find((candidate) => candidate.sectionSlug === sectionSlug);
    expect(section?.failed).toBe(recordIds.length);
    expect(section?.failures[0]?.error).toContain("model unreachable");
    expect(await retryFailed(db.prisma, db.sql, admin, { sectionSlug })).toBe(recordIds.length);
    await drain();
    const after = (await getIndexHealth(db.sql, admin)).sections.find((candidate) => candidate.sectionSlug === sectionSlug);
    expect(after).toMatchObject({ failed: 0, pending: 0, indexed: recordIds.length });
  });

  it("deletes a group and its passages, nothing else", async () => {
    const extra = await saveEmbedGroupAsAdmin(db.prisma, db.sql, admin, {
      sectionSlug,
      group: { ...group, slug: "titles", label: "Titles", fields: ["title"] },
    });
    await drain();
    const titles = await db.sql.query(`SELECT 1 FROM chunks WHERE embed_group_id = $1`, [extra.group.id]);
    expect(titles.length).toBe(recordIds.length);
    await deleteEmbedGroup(db.prisma, admin, { sectionSlug, groupId: extra.group.id });
    expect(await db.sql.query(`SELECT 1 FROM chunks WHERE embed_group_id = $1`, [extra.group.id])).toHaveLength(0);
    expect((await db.sql.query(`SELECT 1 FROM chunks`)).length).toBeGreaterThan(0);
    await expect(deleteEmbedGroup(db.prisma, admin, { sectionSlug, groupId: extra.group.id })).rejects.toMatchObject({ code: "not_found" });
  });
});
