import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRecord } from "../../lib/archive/get-record";
import { listRecords, listRecordsQuerySchema } from "../../lib/archive/list-records";
import { mediaResponse } from "../../lib/archive/serve-media";
import { saveRecord } from "../../lib/archive/save-record";
import type { Principal } from "../../lib/acl";
import type { Database } from "../../lib/db/database";
import { AppError } from "../../lib/errors";
import { addMember, createProject, createRecord, createSection, createUser, principalOf, storeTestImage, temporaryStorageDir } from "../support/factories";
import { openTestDatabase, testDatabaseMode } from "../support/test-database";

/**
 * A researcher of project A gets nothing of project B: no record, no media byte, no count and
 * no relation label, and what they get for B's record is exactly what they get for a record
 * that does not exist.
 */
let db: Database;
let storageDir: string;
let researcherA: Principal;
let nobody: Principal;
let admin: Principal;
let recordA: { id: string; title: string };
let recordB: { id: string; title: string; version: number };
let mediaB: string;
let sectionSlug: string;
const secretWord = "zanzibarquill";

beforeAll(async () => {
  db = await openTestDatabase();
  storageDir = temporaryStorageDir();
  const { prisma } = db;
  const [projectA, projectB] = [await createProject(prisma), await createProject(prisma, { restricted: true })];
  const section = await createSection(prisma);
  sectionSlug = section.slug;
  const image = await storeTestImage(prisma, projectB.id, storageDir);
  mediaB = image.id;
  const b = await createRecord(prisma, section, projectB.id, {
    title: `Restricted ${secretWord} letter`,
    summary: `The ${secretWord} affair.`,
    period: { from: 1900, to: 1910 },
    photo: image.id,
  });
  recordB = b;
  // A record of A that links to B's record: B's title must not show through the link.
  recordA = await createRecord(prisma, section, projectA.id, { title: "Open letter", related: [b.id], period: { from: 1900, to: 1910 } });
  const userA = await createUser(prisma);
  await addMember(prisma, userA.id, projectA.id);
  researcherA = await principalOf(prisma, userA.id);
  nobody = await principalOf(prisma, (await createUser(prisma)).id);
  admin = await principalOf(prisma, (await createUser(prisma, { role: "admin" })).id);
});

afterAll(async () => {
  await db.close();
});

async function errorOf(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("expected an error");
}

describe(`project ACL (${testDatabaseMode()})`, () => {
  it("lists only readable records and counts only them, for every filter", async () => {
    const queries = [
      {},
      { section: sectionSlug },
      { text: secretWord },
      { section: sectionSlug, field: "summary", text: secretWord },
      { from: 1900, to: 1910 },
      { sort: "-date" },
    ];
    for (const raw of queries) {
      const query = listRecordsQuerySchema.parse(raw);
      const page = await listRecords(db.sql, researcherA, query);
      expect(page.items.map((item) => item.id)).not.toContain(recordB.id);
      expect(JSON.stringify(page)).not.toContain(secretWord);
      const adminPage = await listRecords(db.sql, admin, query);
      // The researcher's total counts their records only, never B's.
      expect(page.total).toBe(adminPage.items.filter((item) => item.id !== recordB.id).length);
    }
    const nothing = await listRecords(db.sql, nobody, listRecordsQuerySchema.parse({}));
    expect(nothing).toMatchObject({ items: [], total: 0 });
  });

  it("answers an unreadable record exactly like a missing one", async () => {
    const forbidden = await errorOf(getRecord(db.prisma, researcherA, recordB.id));
    const missing = await errorOf(getRecord(db.prisma, researcherA, "00000000-0000-4000-8000-000000000000"));
    const malformed = await errorOf(getRecord(db.prisma, researcherA, "../../etc/passwd"));
    expect(forbidden).toEqual(missing);
    expect(malformed).toEqual(missing);
    expect(forbidden.code).toBe("not_found");
  });

  it("does not reveal the label of a linked record the reader may not see", async () => {
    const detail = await getRecord(db.prisma, researcherA, recordA.id);
    expect(detail.relations).toEqual({});
    expect(JSON.stringify(detail.relations)).not.toContain(secretWord);
    const adminView = await getRecord(db.prisma, admin, recordA.id);
    expect(adminView.relations[recordB.id]?.title).toContain(secretWord);
    // Backlinks on the restricted record are not visible either way round.
    const restricted = await getRecord(db.prisma, admin, recordB.id);
    expect(restricted.backlinks.map((link) => link.id)).toEqual([recordA.id]);
  });

  it("serves no media byte of another project, and denied looks like missing", async () => {
    const request = { range: null, method: "GET" as const, storageDir };
    const denied = await errorOf(mediaResponse(db.prisma, researcherA, { ...request, id: mediaB }));
    const missing = await errorOf(mediaResponse(db.prisma, researcherA, { ...request, id: "00000000-0000-4000-8000-000000000000" }));
    expect(denied).toEqual(missing);
    const allowed = await mediaResponse(db.prisma, admin, { ...request, id: mediaB });
    expect(allowed.status).toBe(200);
    expect((await allowed.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });

  it("refuses to link to, edit or delete what the principal cannot read", async () => {
    const linkAttempt = await errorOf(
      saveRecord(db.prisma, researcherA, {
        id: recordA.id,
        version: 1,
        sectionSlug,
        projectId: (await db.prisma.record.findUniqueOrThrow({ where: { id: recordA.id } })).projectId,
        values: { title: "Open letter", related: [recordB.id] },
      }),
    );
    // A reader (not an editor) may not save at all; the attempt must not disclose B either.
    expect(linkAttempt.code).toBe("forbidden");
    const editAttempt = await errorOf(
      saveRecord(db.prisma, researcherA, { id: recordB.id, version: recordB.version, sectionSlug, projectId: "x", values: { title: "mine now" } }),
    );
    expect(editAttempt).toEqual(await errorOf(getRecord(db.prisma, researcherA, recordB.id)));
    const unchanged = await db.prisma.record.findUniqueOrThrow({ where: { id: recordB.id } });
    expect(unchanged.title).toContain(secretWord);
  });
});
