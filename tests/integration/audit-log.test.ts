import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "../../lib/acl";
import { type AuditLogEntry, type AuditLogFilterInput, listAuditLog } from "../../lib/admin/audit-log";
import { saveRecord } from "../../lib/archive/save-record";
import type { Database } from "../../lib/db/database";
import { closeAfterAll } from "../support/close-after-all";
import { addMember, createProject, createRecord, createSection, createUser, principalOf } from "../support/factories";
import { openTestDatabase } from "../support/test-database";

/**
 * The audit log: admins only (anyone else: not found); audit events and sign-in attempts merged
 * newest first; a successful password sign-in appears once; each kind filter returns only its
 * actions; the actor filter matches emails case-insensitively and literally; date bounds cover
 * whole days; pages of 50; bad filters are a bad request with a message.
 */
let db: Database;
let admin: Principal;
let curator: Principal;
let researcher: Principal;
let project: { id: string; name: string };
let section: { id: string; slug: string; name: string };
const adminEmail = `ada.admin-${randomUUID().slice(0, 6)}@example.test`;
const curatorEmail = `cora.curator-${randomUUID().slice(0, 6)}@example.test`;
const bulkEmail = `bulk.person-${randomUUID().slice(0, 6)}@example.test`;
const intruderEmail = "intruder@example.test";
const proposalId = randomUUID();
const deletedRecordId = randomUUID();
let recordId: string;

async function audit(
  at: string,
  actorId: string | null,
  action: string,
  targetType: string,
  targetId: string | null,
  projectId: string | null,
  details: Record<string, unknown>,
) {
  await db.sql.query(
    `INSERT INTO audit_events (id, at, actor_id, action, target_type, target_id, project_id, details)
     VALUES ($1, ($2::timestamptz AT TIME ZONE 'UTC'), $3, $4, $5, $6, $7, $8::jsonb)`,
    [randomUUID(), at, actorId, action, targetType, targetId, projectId, JSON.stringify(details)],
  );
}

async function attempt(at: string, email: string, success: boolean, address = "198.51.100.7") {
  await db.sql.query(`INSERT INTO sign_in_attempts (id, email, address, success, at) VALUES ($1, $2, $3, $4, ($5::timestamptz AT TIME ZONE 'UTC'))`, [
    randomUUID(),
    email,
    address,
    success,
    at,
  ]);
}

/** Every entry the filters match, page after page. */
async function everything(filters: AuditLogFilterInput = {}): Promise<{ entries: AuditLogEntry[]; total: number }> {
  const first = await listAuditLog(db.sql, admin, { ...filters, page: 1 });
  const entries = [...first.entries];
  for (let page = 2; page <= first.pageCount; page++) entries.push(...(await listAuditLog(db.sql, admin, { ...filters, page })).entries);
  expect(entries).toHaveLength(first.total);
  return { entries, total: first.total };
}

const minutesAfter = (start: string, minutes: number) => new Date(Date.parse(start) + minutes * 60_000).toISOString();

beforeAll(async () => {
  db = await openTestDatabase();
  const createdProject = await createProject(db.prisma);
  project = createdProject;
  const createdSection = await createSection(db.prisma);
  section = createdSection;
  const adminUser = await createUser(db.prisma, { role: "admin", email: adminEmail });
  admin = await principalOf(db.prisma, adminUser.id);
  const curatorUser = await createUser(db.prisma, { role: "curator", email: curatorEmail });
  await addMember(db.prisma, curatorUser.id, project.id, "editor");
  curator = await principalOf(db.prisma, curatorUser.id);
  researcher = await principalOf(db.prisma, (await createUser(db.prisma)).id);
  const bulkUser = await createUser(db.prisma, { email: bulkEmail });

  // Through the services: record.create (admin), record.update (admin), record.create (curator).
  const record = await createRecord(db.prisma, section, project.id, { title: "Harbour ledger" }, admin);
  recordId = record.id;
  await saveRecord(db.prisma, admin, {
    id: record.id,
    version: record.version,
    sectionSlug: section.slug,
    projectId: project.id,
    values: { title: "Harbour ledger, revised" },
  });
  await createRecord(db.prisma, section, project.id, { title: "Net loft" }, curator);

  // Directly, at known times in March 2020.
  await audit("2020-03-01T10:00:00Z", curatorUser.id, "proposal.accept", "proposal", proposalId, project.id, { role: "material", proposed: "wood" });
  await audit("2020-03-02T10:00:00Z", adminUser.id, "section.object_context", "section", section.id, null, {
    section: section.slug,
    after: { roles: { material: "material" } },
  });
  await audit("2020-03-03T10:00:00Z", null, "index.reindex", "section", null, null, { section: "all", records: 3 });
  await audit("2020-03-04T10:00:00Z", adminUser.id, "record.delete", "record", deletedRecordId, project.id, { title: "Gone", version: 2 });
  await attempt("2020-03-05T08:00:00Z", intruderEmail, false, "203.0.113.9");
  // A password sign-in writes an attempt and a user.sign_in event: one sign-in.
  await attempt("2020-03-05T09:00:00Z", adminEmail, true);
  await audit("2020-03-05T09:00:00Z", adminUser.id, "user.sign_in", "user", adminUser.id, null, { method: "password" });
  // An OIDC sign-in is only an event.
  await audit("2020-03-05T12:00:00Z", curatorUser.id, "user.sign_in", "user", curatorUser.id, null, { method: "oidc" });

  // 60 events by one person, alternating between the two tables, in January 2019.
  for (let i = 0; i < 30; i++) {
    await audit(minutesAfter("2019-01-01T00:00:00Z", 2 * i), bulkUser.id, "index.retry", "section", section.id, null, { section: section.slug, records: i });
    await attempt(minutesAfter("2019-01-01T00:00:00Z", 2 * i + 1), bulkEmail, true);
  }
}, 120_000);

closeAfterAll(() => db);

describe("the audit log", () => {
  it("is not found for anyone but an admin, whatever the filters", async () => {
    for (const who of [curator, researcher]) {
      await expect(listAuditLog(db.sql, who, {})).rejects.toMatchObject({ code: "not_found" });
      await expect(listAuditLog(db.sql, who, { kind: "sign-ins" })).rejects.toMatchObject({ code: "not_found" });
      await expect(listAuditLog(db.sql, who, { from: "not a date" })).rejects.toMatchObject({ code: "not_found" });
    }
  });

  it("merges events and sign-ins newest first, with readable targets and projects", async () => {
    const { entries, total } = await everything();
    // 3 service saves + 4 direct events + 1 OIDC sign-in + 2 attempts + 60 bulk; the password user.sign_in is folded into its attempt.
    expect(total).toBe(70);
    for (let i = 1; i < entries.length; i++) expect(entries[i - 1]?.at.getTime()).toBeGreaterThanOrEqual(entries[i]?.at.getTime() ?? 0);
    expect(
      entries
        .slice(0, 3)
        .map((entry) => entry.action)
        .sort(),
    ).toEqual(["record.create", "record.create", "record.update"]);

    const update = entries.find((entry) => entry.action === "record.update");
    expect(update).toMatchObject({
      actor: adminEmail,
      target: "Harbour ledger, revised",
      project: project.name,
      details: { version: 2, section: section.slug },
    });
    expect(entries.find((entry) => entry.action === "record.delete")).toMatchObject({
      target: `record ${deletedRecordId.slice(0, 8)}`,
      project: project.name,
      details: { title: "Gone" },
    });
    expect(entries.find((entry) => entry.action === "section.object_context")).toMatchObject({ actor: adminEmail, target: section.name, project: null });
    expect(entries.find((entry) => entry.action === "section.object_context")?.at.toISOString()).toBe("2020-03-02T10:00:00.000Z");
    expect(entries.find((entry) => entry.action === "index.reindex")).toMatchObject({ actor: null, target: "section" });
    expect(entries.find((entry) => entry.action === "proposal.accept")).toMatchObject({
      actor: curatorEmail,
      target: `proposal ${proposalId.slice(0, 8)}`,
      project: project.name,
    });
    expect(entries.some((entry) => entry.action.startsWith("user."))).toBe(false);
    expect(entries.filter((entry) => entry.action === "sign-in" && entry.target === adminEmail)).toHaveLength(1);
    expect(entries.find((entry) => entry.action === "sign-in" && entry.target === adminEmail)).toMatchObject({
      actor: adminEmail,
      details: { address: "198.51.100.7" },
    });
    expect(entries.find((entry) => entry.action === "sign-in.failed")).toMatchObject({
      actor: null,
      target: intruderEmail,
      project: null,
      details: { address: "203.0.113.9" },
    });
    expect(entries.find((entry) => entry.action === "sign-in" && entry.target === curatorEmail)).toMatchObject({
      actor: curatorEmail,
      details: { method: "oidc" },
    });
    expect(recordId).toBeTruthy();
  });

  it("filters by kind, each returning only its actions, the kinds adding up to everything", async () => {
    const records = await everything({ kind: "records" });
    expect(records.entries.every((entry) => entry.action.startsWith("record."))).toBe(true);
    expect(records.entries.map((entry) => entry.action).sort()).toEqual(["record.create", "record.create", "record.delete", "record.update"]);

    const proposals = await everything({ kind: "proposals" });
    expect(proposals.entries.map((entry) => entry.action)).toEqual(["proposal.accept"]);

    const configuration = await everything({ kind: "configuration" });
    expect(configuration.entries.every((entry) => !/^(record\.|proposal\.|sign-in)/.test(entry.action))).toBe(true);
    expect(configuration.entries.filter((entry) => entry.action === "index.retry")).toHaveLength(30);
    expect(new Set(configuration.entries.map((entry) => entry.action))).toEqual(new Set(["section.object_context", "index.reindex", "index.retry"]));

    const signIns = await everything({ kind: "sign-ins" });
    expect(signIns.entries.every((entry) => entry.action === "sign-in" || entry.action === "sign-in.failed")).toBe(true);
    expect(signIns.total).toBe(33);

    const all = await listAuditLog(db.sql, admin, { kind: "all" });
    expect(records.total + proposals.total + configuration.total + signIns.total).toBe(all.total);
  });

  it("filters by actor: an email substring, case-insensitive, taken literally, matching sign-in emails too", async () => {
    const cora = await everything({ actor: "CORA.Curator" });
    expect(cora.entries.map((entry) => entry.action).sort()).toEqual(["proposal.accept", "record.create", "sign-in"]);
    expect(cora.entries.every((entry) => entry.actor === curatorEmail)).toBe(true);

    const intruder = await everything({ actor: "intruder@" });
    expect(intruder.entries).toHaveLength(1);
    expect(intruder.entries[0]).toMatchObject({ action: "sign-in.failed", actor: null, target: intruderEmail });

    expect((await listAuditLog(db.sql, admin, { actor: "%" })).total).toBe(0);
    expect((await listAuditLog(db.sql, admin, { actor: "_" })).total).toBe(0);
    expect((await listAuditLog(db.sql, admin, { actor: "  " })).total).toBe(70);
    expect((await listAuditLog(db.sql, admin, { actor: "cora.curator", kind: "proposals" })).entries.map((entry) => entry.action)).toEqual(["proposal.accept"]);
  });

  it("filters by date: whole days for dates, inclusive instants for times", async () => {
    const days = await listAuditLog(db.sql, admin, { from: "2020-03-02", to: "2020-03-04" });
    expect(days.entries.map((entry) => entry.action)).toEqual(["record.delete", "index.reindex", "section.object_context"]);
    expect(days.entries.map((entry) => entry.at.toISOString())).toEqual(["2020-03-04T10:00:00.000Z", "2020-03-03T10:00:00.000Z", "2020-03-02T10:00:00.000Z"]);

    const times = await listAuditLog(db.sql, admin, { from: "2020-03-05T08:30:00Z", to: "2020-03-05T12:00:00Z" });
    expect(times.entries.map((entry) => [entry.action, entry.target])).toEqual([
      ["sign-in", curatorEmail],
      ["sign-in", adminEmail],
    ]);
    // An offset is honoured: 10:30+02:00 is 08:30 UTC.
    expect((await listAuditLog(db.sql, admin, { from: "2020-03-05T10:30:00+02:00", to: "2020-03-05" })).total).toBe(2);

    const since = await listAuditLog(db.sql, admin, { from: "2020-03-05", kind: "sign-ins" });
    expect(since.total).toBe(3);
    const until = await listAuditLog(db.sql, admin, { to: "2019-12-31" });
    expect(until.total).toBe(60);
    expect((await listAuditLog(db.sql, admin, { from: "2020-03-02", to: "2020-03-02" })).entries.map((entry) => entry.action)).toEqual([
      "section.object_context",
    ]);
  });

  it("pages 50 at a time, newest first across pages, keeping the filters", async () => {
    const first = await listAuditLog(db.sql, admin, { actor: "bulk.person" });
    expect(first).toMatchObject({ total: 60, page: 1, pageCount: 2 });
    expect(first.entries).toHaveLength(50);
    expect(first.entries[0]).toMatchObject({ action: "sign-in", actor: bulkEmail, target: bulkEmail });
    expect(first.entries[0]?.at.toISOString()).toBe(minutesAfter("2019-01-01T00:00:00Z", 59));
    expect(first.entries[1]).toMatchObject({ action: "index.retry", actor: bulkEmail, target: section.name });

    const second = await listAuditLog(db.sql, admin, { actor: "bulk.person", page: "2" });
    expect(second).toMatchObject({ total: 60, page: 2, pageCount: 2 });
    expect(second.entries).toHaveLength(10);
    expect(second.entries.at(-1)?.at.toISOString()).toBe("2019-01-01T00:00:00.000Z");
    const all = [...first.entries, ...second.entries];
    for (let i = 1; i < all.length; i++) expect(all[i - 1]?.at.getTime()).toBeGreaterThan(all[i]?.at.getTime() ?? 0);
    expect(new Set(all.map((entry) => entry.id)).size).toBe(60);

    // Past the last page: the last page. Nothing matching: one empty page.
    expect((await listAuditLog(db.sql, admin, { actor: "bulk.person", page: 99 })).page).toBe(2);
    expect(await listAuditLog(db.sql, admin, { actor: "nobody-at-all" })).toEqual({ entries: [], total: 0, page: 1, pageCount: 1 });
  });

  it("answers bad filters with a bad request that says what is wrong", async () => {
    const bad: [AuditLogFilterInput, RegExp][] = [
      [{ from: "2020-02-30" }, /“From” is not a date/],
      [{ from: "yesterday" }, /“From” is not a date/],
      [{ to: "2020-03-05T25:00" }, /“To” is not a date/],
      [{ from: "2020-03-05", to: "2020-03-01" }, /“From” is after “To”/],
      [{ kind: "everything" }, /Choose a kind/],
      [{ actor: "x".repeat(201) }, /at most 200 characters/],
      [{ page: "0" }, /Pages start at 1/],
      [{ page: "two" }, /whole number/],
    ];
    for (const [filters, message] of bad) {
      const error = await listAuditLog(db.sql, admin, filters).catch((caught: unknown) => caught);
      expect(error, JSON.stringify(filters)).toMatchObject({ code: "bad_request" });
      expect((error as Error).message).toMatch(message);
    }
  });
});
