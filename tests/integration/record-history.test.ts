import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { RecordHistorySection } from "../../app/records/[id]/record-history";
import { publicReader, systemPrincipal, type Principal } from "../../lib/acl";
import type { ApiDeps } from "../../lib/api/handle-api-request";
import { handleMcpRequest } from "../../lib/api/mcp-server";
import { deleteRecord } from "../../lib/archive/delete-record";
import { importRecords } from "../../lib/archive/import-records";
import { changesBetween, describeThrough, readRecordHistory, restoreRecordVersion } from "../../lib/archive/record-history";
import { saveRecord } from "../../lib/archive/save-record";
import { recordFormSchema, saveRecordForm } from "../../lib/archive/save-record-form";
import { createApiToken } from "../../lib/auth/api-tokens";
import type { Database } from "../../lib/db/database";
import { callApi } from "../support/api-request";
import { addMember, createProject, createRecord, createSection, createUser, principalOf, storeTestImage } from "../support/factories";
import { apiDepsWithoutModels, testMediaStorage } from "../support/service-runtime";
import { openTestDatabase, testDatabaseMode } from "../support/test-database";

/**
 * Record history (issue 47, item 2): every write path keeps the version it makes in
 * record_versions — the record form, the agent API and MCP, the trusted bulk loader; the import
 * job, a proposal decision and a project restore are checked in their own suites — with the person
 * and the channel (token id and name), in the save's transaction (a refused save keeps nothing),
 * and a deleted record's history goes with it.
 */
// The page's restore button is a client component: rendered here outside Next's router and actions.
vi.mock("next/navigation", () => ({ useRouter: () => ({ refresh: () => undefined }) }));
vi.mock("../../app/records/actions", () => ({ restoreVersionAction: async () => ({ status: "ok", data: { version: 0, keptFiles: [] } }) }));

const origin = "http://mnemo.test";
let db: Database;
let media: { storageDir: string; maxBytes: number };
let section: { id: string; slug: string };
let projectId: string;
let curator: Principal;
let writeToken: string;
let writeTokenId: string;
/** Reads the open project only; edits nothing. */
let reader: Principal;
let readerToken: string;
/** Reads and edits both projects. */
let insider: Principal;
/** A member of no project. */
let outsider: Principal;
let outsiderToken: string;
let closedId: string;

const deps = (mcpAllowWrite = false): ApiDeps => apiDepsWithoutModels(db, origin, { media, mcpAllowWrite });

async function versionsOf(recordId: string) {
  return db.prisma.recordVersion.findMany({ where: { recordId }, orderBy: { version: "asc" } });
}

beforeAll(async () => {
  db = await openTestDatabase();
  media = testMediaStorage();
  section = await createSection(db.prisma);
  projectId = (await createProject(db.prisma)).id;
  const user = await createUser(db.prisma, { role: "curator" });
  await addMember(db.prisma, user.id, projectId, "editor");
  curator = await principalOf(db.prisma, user.id);
  const token = await createApiToken(db.prisma, curator, { name: "Cataloguing agent", expiresInDays: 30, scopes: ["read", "write"] });
  writeToken = token.token;
  writeTokenId = token.summary.id;
  closedId = (await createProject(db.prisma, { restricted: true })).id;
  const readerUser = await createUser(db.prisma);
  await addMember(db.prisma, readerUser.id, projectId, "reader");
  reader = await principalOf(db.prisma, readerUser.id);
  readerToken = (await createApiToken(db.prisma, reader, { name: "reader", expiresInDays: 30 })).token;
  const insiderUser = await createUser(db.prisma, { role: "curator" });
  await addMember(db.prisma, insiderUser.id, projectId, "editor");
  await addMember(db.prisma, insiderUser.id, closedId, "editor");
  insider = await principalOf(db.prisma, insiderUser.id);
  const outsiderUser = await createUser(db.prisma, { role: "curator" });
  outsider = await principalOf(db.prisma, outsiderUser.id);
  outsiderToken = (await createApiToken(db.prisma, outsider, { name: "outsider", expiresInDays: 30 })).token;
});

async function edit(principal: Principal, recordId: string, values: Record<string, unknown>, project = projectId) {
  const record = await db.prisma.record.findUniqueOrThrow({ where: { id: recordId } });
  return saveRecord(db.prisma, principal, { id: recordId, version: record.version, sectionSlug: section.slug, projectId: project, values });
}

async function history(token: string, input: Record<string, unknown>) {
  const response = await callApi(deps(), "read_record_history", input, { origin, token });
  const text = await response.text();
  return {
    status: response.status,
    text,
    json: JSON.parse(text) as {
      versions: {
        version: number;
        via: string;
        values: Record<string, unknown>;
        changedFields: string[] | null;
        savedBy: { name: string } | null;
        apiToken: { name: string } | null;
      }[];
      nextBefore: number | null;
      version: number;
      error?: { code: string };
    },
  };
}

afterAll(async () => {
  await db.close();
});

describe(`record versions kept by every save (${testDatabaseMode()})`, () => {
  it("the record form: each save is a version with its values, title, project, section, person and channel", async () => {
    const formData = (values: Record<string, string>) => {
      const data = new FormData();
      for (const [key, value] of Object.entries(values)) data.set(key.startsWith("values.") || ["id", "version"].includes(key) ? key : `values.${key}`, value);
      data.set("section", section.slug);
      data.set("projectId", projectId);
      return recordFormSchema.parse(data);
    };
    const created = await saveRecordForm(db.prisma, curator, formData({ title: "Mill letter", summary: "First reading." }), media);
    await saveRecordForm(db.prisma, curator, formData({ id: created.id, version: "1", title: "Mill letter", summary: "Second reading." }), media);
    const versions = await versionsOf(created.id);
    expect(versions.map((version) => [version.version, version.via, version.savedById, (version.values as { summary?: string }).summary])).toEqual([
      [1, "form", curator.userId, "First reading."],
      [2, "form", curator.userId, "Second reading."],
    ]);
    expect(versions[1]).toMatchObject({ projectId, sectionId: section.id, title: "Mill letter", details: {} });
    const record = await db.prisma.record.findUniqueOrThrow({ where: { id: created.id } });
    expect(versions[1]?.savedAt.getTime()).toBe(record.updatedAt.getTime());
  });

  it("a refused save (stale version, invalid value) keeps no version", async () => {
    const record = await createRecord(db.prisma, section, projectId, { title: "Kept once" }, curator);
    await saveRecord(db.prisma, curator, { id: record.id, version: 1, sectionSlug: section.slug, projectId, values: { title: "Kept twice" } });
    await expect(
      saveRecord(db.prisma, curator, { id: record.id, version: 1, sectionSlug: section.slug, projectId, values: { title: "Stale" } }),
    ).rejects.toMatchObject({ code: "conflict" });
    await expect(
      saveRecord(db.prisma, curator, { id: record.id, version: 2, sectionSlug: section.slug, projectId, values: { title: "Bad", kind: "sculpture" } }),
    ).rejects.toMatchObject({ code: "bad_request" });
    expect((await versionsOf(record.id)).map((version) => version.title)).toEqual([record.title, "Kept twice"]);
  });

  it("the JSON API's writes name the channel and the token, by id and by name", async () => {
    const record = await createRecord(db.prisma, section, projectId, { title: "Agent target" }, curator);
    const response = await callApi(
      deps(),
      "update_record",
      { recordId: record.id, version: 1, values: { summary: "Written by an agent." } },
      { origin, token: writeToken },
    );
    expect(response.status).toBe(200);
    const [, written] = await versionsOf(record.id);
    expect(written).toMatchObject({
      version: 2,
      via: "api",
      savedById: curator.userId,
      details: { apiTokenId: writeTokenId, apiTokenName: "Cataloguing agent" },
    });
    // Deleting the token later leaves the history naming it.
    const other = await createApiToken(db.prisma, curator, { name: "Short-lived agent", expiresInDays: 1, scopes: ["read", "write"] });
    await callApi(deps(), "update_record", { recordId: record.id, version: 2, values: { summary: "Once more." } }, { origin, token: other.token });
    await db.prisma.apiToken.delete({ where: { id: other.summary.id } });
    expect((await versionsOf(record.id))[2]?.details).toEqual({ apiTokenId: other.summary.id, apiTokenName: "Short-lived agent" });
  });

  it("an MCP write tool names the mcp channel and the token", async () => {
    const record = await createRecord(db.prisma, section, projectId, { title: "MCP target" }, curator);
    const request = new Request(`${origin}/api/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${writeToken}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "update_record", arguments: { recordId: record.id, version: 1, values: { summary: "Through MCP." } } },
      }),
    });
    const response = await handleMcpRequest(request, deps(true));
    const body = (await response.json()) as { result?: { isError?: boolean } };
    expect(body.result?.isError).not.toBe(true);
    expect((await versionsOf(record.id))[1]).toMatchObject({
      version: 2,
      via: "mcp",
      details: { apiTokenId: writeTokenId, apiTokenName: "Cataloguing agent" },
    });
  });

  it("the trusted bulk loader keeps each record's first version", async () => {
    const [id] = await importRecords(db.prisma, { sectionSlug: section.slug, projectId, items: [{ values: { title: "Loaded" } }], actorId: null });
    expect(await versionsOf(id!)).toMatchObject([{ version: 1, via: "bulk-load", title: "Loaded", savedById: null }]);
  });

  it("a system save without a channel is still kept", async () => {
    const record = await createRecord(db.prisma, section, projectId, { title: "By the system" }, systemPrincipal);
    expect(await versionsOf(record.id)).toMatchObject([{ version: 1, via: "form", savedById: "system" }]);
  });

  it("a write outside every service (raw SQL) is kept too, as unknown, and no update that leaves the version keeps one", async () => {
    const record = await createRecord(db.prisma, section, projectId, { title: "Raw" }, curator);
    await db.sql.query(`UPDATE records SET title = 'Raw, renamed', version = version + 1 WHERE id = $1`, [record.id]);
    await db.sql.query(`UPDATE records SET external_id = 'x-1' WHERE id = $1`, [record.id]);
    expect((await versionsOf(record.id)).map((version) => [version.version, version.via, version.title])).toEqual([
      [1, "form", "Raw"],
      [2, "unknown", "Raw, renamed"],
    ]);
  });

  it("deleting a record deletes its history with it", async () => {
    const record = await createRecord(db.prisma, section, projectId, { title: "To delete" }, curator);
    await saveRecord(db.prisma, curator, { id: record.id, version: 1, sectionSlug: section.slug, projectId, values: { title: "To delete, edited" } });
    expect(await versionsOf(record.id)).toHaveLength(2);
    await deleteRecord(db.prisma, curator, { id: record.id, version: 2 });
    expect(await versionsOf(record.id)).toHaveLength(0);
  });
});

describe(`reading a record's history (${testDatabaseMode()})`, () => {
  it("lists versions newest first with person, channel and the fields each changed; pages with before", async () => {
    const record = await createRecord(db.prisma, section, projectId, { title: "Harbour log", summary: "Boats in: three." }, curator);
    await callApi(
      deps(),
      "update_record",
      { recordId: record.id, version: 1, values: { summary: "Boats in: four.", kind: "letter" } },
      { origin, token: writeToken },
    );
    await edit(curator, record.id, { title: "Harbour log, 1921", summary: "Boats in: four.", kind: "letter" });
    const whole = await history(readerToken, { recordId: record.id });
    expect(whole.status, whole.text).toBe(200);
    expect(whole.json.version).toBe(3);
    expect(whole.json.versions.map((version) => [version.version, version.via, version.changedFields])).toEqual([
      [3, "form", ["title"]],
      [2, "api", ["summary", "kind"]],
      [1, "form", null],
    ]);
    expect(whole.json.versions[1]).toMatchObject({
      apiToken: { name: "Cataloguing agent" },
      savedBy: { name: expect.any(String) },
      values: { summary: "Boats in: four." },
    });
    const first = await history(readerToken, { recordId: record.id, limit: 2 });
    expect(first.json.versions.map((version) => version.version)).toEqual([3, 2]);
    // The oldest of a page still says what it changed (from the version below it).
    expect(first.json.versions[1]?.changedFields).toEqual(["summary", "kind"]);
    expect(first.json.nextBefore).toBe(2);
    const rest = await history(readerToken, { recordId: record.id, limit: 2, before: 2 });
    expect(rest.json.versions.map((version) => version.version)).toEqual([1]);
    expect(rest.json.nextBefore).toBeNull();
    expect((await history(readerToken, { recordId: record.id, limit: 0 })).status).toBe(400);
    expect((await history(readerToken, { recordId: record.id, before: "x" })).status).toBe(400);
  });

  it("a text field's change is a word diff", async () => {
    const record = await createRecord(db.prisma, section, projectId, { title: "Diffed", summary: "The keeper saw three storms in March." }, curator);
    await edit(curator, record.id, { title: "Diffed", summary: "The keeper saw four storms in March." });
    const read = await readRecordHistory(db.prisma, reader, record.id);
    const [newer, older] = read.versions;
    const [change] = changesBetween(read.record.fields, older!.values, newer!.values);
    expect(change).toMatchObject({ key: "summary", label: "Summary" });
    expect(change?.text).toEqual([
      { op: "same", text: "The keeper saw " },
      { op: "removed", text: "three " },
      { op: "added", text: "four " },
      { op: "same", text: "storms in March." },
    ]);
  });

  it("someone who may not read the record gets exactly what a missing record gets; an anonymous reader gets no history", async () => {
    const secret = await createRecord(db.prisma, section, closedId, { title: "Sealed ledger" }, insider);
    const denied = await history(readerToken, { recordId: secret.id });
    const missing = await history(readerToken, { recordId: "6f1c2b8e-0000-4000-8000-000000000000" });
    expect(denied.status).toBe(404);
    expect(denied.text).toBe(missing.text);
    expect((await history(outsiderToken, { recordId: secret.id })).text).toBe(missing.text);
    expect((await history(readerToken, { recordId: "../../etc/passwd" })).text).toBe(missing.text);
    const open = await createRecord(db.prisma, section, projectId, { title: "Open ledger" }, curator);
    await expect(readRecordHistory(db.prisma, publicReader([projectId]), open.id)).rejects.toMatchObject({ code: "not_found" });
  });

  it("a relation to a record the reader cannot read stays hidden in old versions too", async () => {
    const hidden = await createRecord(db.prisma, section, closedId, { title: "Hidden smuggler" }, insider);
    const shown = await createRecord(db.prisma, section, projectId, { title: "Shown keeper" }, curator);
    const record = await createRecord(db.prisma, section, projectId, { title: "Linked note", related: [hidden.id, shown.id] }, insider);
    await edit(insider, record.id, { title: "Linked note", related: [shown.id] });
    const asReader = await history(readerToken, { recordId: record.id });
    expect(asReader.status).toBe(200);
    expect(asReader.text).not.toContain(hidden.id);
    expect(asReader.json.versions.map((version) => version.values.related)).toEqual([[shown.id], [shown.id]]);
    // Seen by the reader, the link's removal changed nothing.
    expect(asReader.json.versions[0]?.changedFields).toEqual([]);
    const asInsider = await readRecordHistory(db.prisma, insider, record.id);
    expect(asInsider.versions[1]?.values.related).toEqual([hidden.id, shown.id]);
  });

  it("a record moved out of a restricted project: the versions saved there stay with those who may read that project", async () => {
    const record = await createRecord(db.prisma, section, closedId, { title: "Moved file", summary: "Names of informants." }, insider);
    await edit(insider, record.id, { title: "Moved file", summary: "Redacted." }, closedId);
    await edit(insider, record.id, { title: "Moved file", summary: "Redacted." }, projectId);
    const asReader = await history(readerToken, { recordId: record.id });
    expect(asReader.json.versions.map((version) => version.version)).toEqual([3]);
    expect(asReader.json.versions[0]?.changedFields).toBeNull();
    expect(asReader.text).not.toContain("informants");
    const asInsider = await readRecordHistory(db.prisma, insider, record.id);
    expect(asInsider.versions.map((version) => [version.version, version.project.id])).toEqual([
      [3, projectId],
      [2, closedId],
      [1, closedId],
    ]);
    expect((await readRecordHistory(db.prisma, systemPrincipal, record.id)).versions).toHaveLength(3);
  });

  it("is an MCP tool for a read token", async () => {
    const record = await createRecord(db.prisma, section, projectId, { title: "Tool read" }, curator);
    const request = new Request(`${origin}/api/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${readerToken}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "read_record_history", arguments: { recordId: record.id } } }),
    });
    const body = (await (await handleMcpRequest(request, deps())).json()) as {
      result?: { structuredContent?: { versions: { version: number; title: string }[] } };
    };
    expect(body.result?.structuredContent?.versions).toMatchObject([{ version: 1, title: "Tool read" }]);
  });
});

describe(`restoring a version (${testDatabaseMode()})`, () => {
  const restore = (principal: Principal, recordId: string, version: number, from: number) =>
    restoreRecordVersion(db.prisma, principal, { recordId, version, restore: from }, media.storageDir);

  it("brings an agent's change back as a new save: validated, audited, itself a version", async () => {
    const record = await createRecord(db.prisma, section, projectId, { title: "Inventory", summary: "Twelve oars, two sails.", kind: "letter" }, curator);
    await callApi(deps(), "update_record", { recordId: record.id, version: 1, values: { summary: "Oars: none.", kind: null } }, { origin, token: writeToken });
    const restored = await restore(curator, record.id, 2, 1);
    expect(restored).toMatchObject({ id: record.id, version: 3, keptFiles: [] });
    const now = await db.prisma.record.findUniqueOrThrow({ where: { id: record.id } });
    expect(now.values).toEqual({ title: "Inventory", summary: "Twelve oars, two sails.", kind: "letter" });
    expect(await db.prisma.recordVersion.findUnique({ where: { recordId_version: { recordId: record.id, version: 3 } } })).toMatchObject({
      via: "version-restore",
      savedById: curator.userId,
      details: { restoredFrom: 1 },
    });
    expect(
      await db.prisma.auditEvent.findFirst({ where: { targetId: record.id, action: "record.update", details: { path: ["restoredFromVersion"], equals: 1 } } }),
    ).not.toBeNull();
    // The restore is in the history like any save, and can itself be undone.
    expect((await readRecordHistory(db.prisma, curator, record.id)).versions.map((version) => [version.version, version.via, version.restoredFrom])).toEqual([
      [3, "version-restore", 1],
      [2, "api", null],
      [1, "form", null],
    ]);
  });

  it("refuses a stale version (someone saved since) and writes nothing", async () => {
    const record = await createRecord(db.prisma, section, projectId, { title: "Contested" }, curator);
    await edit(curator, record.id, { title: "Contested, edited" });
    await edit(insider, record.id, { title: "Contested, edited again" });
    await expect(restore(curator, record.id, 2, 1)).rejects.toMatchObject({ code: "conflict" });
    expect((await db.prisma.record.findUniqueOrThrow({ where: { id: record.id } })).version).toBe(3);
    expect(await db.prisma.recordVersion.count({ where: { recordId: record.id } })).toBe(3);
  });

  it("a reader may not restore; someone who cannot read the record, or a version they cannot see, gets not found", async () => {
    const record = await createRecord(db.prisma, section, closedId, { title: "Was sealed", summary: "Sealed words." }, insider);
    await edit(insider, record.id, { title: "Was sealed", summary: "Open words." }, projectId);
    await expect(restore(reader, record.id, 2, 1)).rejects.toMatchObject({ code: "not_found" });
    await expect(restore(outsider, record.id, 2, 1)).rejects.toMatchObject({ code: "not_found" });
    // The curator edits the open project but cannot read the closed one, where version 1 was saved: as missing as version 9.
    const hiddenVersion = await restore(curator, record.id, 2, 1).catch((error: unknown) => error);
    const missingVersion = await restore(curator, record.id, 2, 9).catch((error: unknown) => error);
    expect(hiddenVersion).toMatchObject({ code: "not_found", message: "This record has no version 1 that you can see." });
    expect(missingVersion).toMatchObject({ code: "not_found", message: "This record has no version 9 that you can see." });
    const open = await createRecord(db.prisma, section, projectId, { title: "Readable" }, curator);
    await edit(curator, open.id, { title: "Readable, edited" });
    await expect(restore(reader, open.id, 2, 1)).rejects.toMatchObject({ code: "forbidden" });
    await expect(restore(curator, open.id, 2, 2)).rejects.toMatchObject({ code: "bad_request", message: expect.stringContaining("as it is now") });
    expect(await db.prisma.recordVersion.count({ where: { recordId: open.id } })).toBe(2);
  });

  it("keeps links to records the restorer cannot read, and a file no longer stored", async () => {
    const hidden = await createRecord(db.prisma, section, closedId, { title: "Hidden target" }, insider);
    const shown = await createRecord(db.prisma, section, projectId, { title: "Shown target" }, curator);
    const first = await storeTestImage(db.prisma, projectId, media.storageDir);
    const record = await createRecord(
      db.prisma,
      section,
      projectId,
      { title: "Linked and pictured", related: [hidden.id, shown.id], photo: first.id },
      insider,
    );
    const second = await storeTestImage(db.prisma, projectId, media.storageDir);
    await edit(insider, record.id, { title: "Linked and pictured, changed", related: [hidden.id], photo: second.id });
    // The first photo was replaced, so its file went with that save.
    expect(await db.prisma.media.findUnique({ where: { id: first.id } })).toBeNull();
    const restored = await restore(curator, record.id, 2, 1);
    expect(restored.keptFiles).toEqual(["Photo"]);
    const now = await db.prisma.record.findUniqueOrThrow({ where: { id: record.id } });
    expect(now.values).toMatchObject({ title: "Linked and pictured", photo: second.id });
    expect([...(now.values as { related: string[] }).related].sort()).toEqual([hidden.id, shown.id].sort());
  });
});

describe(`the record page's history (${testDatabaseMode()})`, () => {
  const render = async (principal: Principal, recordId: string, before?: number) =>
    renderToStaticMarkup(await RecordHistorySection({ principal, runtime: { database: { prisma: db.prisma } } as never, recordId, before }));

  it("names who saved, when and through what, diffs text by words, and offers restore to editors only", async () => {
    const record = await createRecord(db.prisma, section, projectId, { title: "Page log", summary: "Lamp oil: two barrels." }, curator);
    await callApi(deps(), "update_record", { recordId: record.id, version: 1, values: { summary: "Lamp oil: three barrels." } }, { origin, token: writeToken });
    const asCurator = await render(curator, record.id);
    expect(asCurator).toContain('id="history-heading"');
    expect(asCurator).toContain("Version 2<span");
    expect(asCurator).toContain("(current)");
    expect(asCurator).toContain("through the JSON API with the token “Cataloguing agent”");
    expect(asCurator).toContain("in the record editor");
    expect(asCurator).toMatch(
      /<del[^>]*><span class="sr-only">\[removed: <\/span>two <span class="sr-only">\]<\/span><\/del><ins[^>]*><span class="sr-only">\[added: <\/span>three /,
    );
    expect(asCurator).toContain("<summary");
    expect(asCurator).toContain("Restore version 1");
    expect(asCurator).not.toContain("Restore version 2");
    const asReader = await render(reader, record.id);
    expect(asReader).toContain("Lamp oil");
    expect(asReader).not.toContain("Restore version");
  });

  it("says so when there is nothing to show, and pages to older versions", async () => {
    const record = await createRecord(db.prisma, section, closedId, { title: "Only sealed" }, insider);
    await edit(insider, record.id, { title: "Only sealed" }, projectId);
    // The reader sees version 2 only (version 1 was saved in the closed project).
    const asReader = await render(reader, record.id);
    expect(asReader).toContain("The earliest version you can see");
    expect(await render(reader, record.id, 2)).toContain("No older versions that you can see.");
    // Moved without a save (no version of its own in the open project): nothing to show the reader.
    const unsaved = await createRecord(db.prisma, section, closedId, { title: "Moved by hand" }, insider);
    await db.sql.query(`UPDATE records SET project_id = $1 WHERE id = $2`, [projectId, unsaved.id]);
    const empty = await render(reader, unsaved.id);
    expect(empty).toContain("No saved versions of this record that you can see.");
    expect(empty).not.toContain('aria-label="History pages"');
    const many = await createRecord(db.prisma, section, projectId, { title: "Often saved" }, curator);
    for (let index = 0; index < 21; index++) await edit(curator, many.id, { title: `Often saved ${index}` });
    const first = await render(curator, many.id);
    expect(first).toContain(`href="/records/${many.id}?history=3#history"`);
    expect(first).not.toContain("Version 2<");
    expect(await render(curator, many.id, 3)).toContain("Version 2<");
  });

  it("describes every channel in words", () => {
    const base = { apiToken: null, proposal: null, restoredFrom: null, archivedSlug: null };
    expect(describeThrough({ ...base, via: "mcp", apiToken: { id: "t1", name: "Claude" } })).toBe("by an MCP agent with the token “Claude”");
    expect(describeThrough({ ...base, via: "import" })).toBe("by a bulk import");
    expect(describeThrough({ ...base, via: "version-restore", restoredFrom: 4 })).toBe("restoring version 4");
    expect(describeThrough({ ...base, via: "proposal", proposal: { role: "typology", id: null } })).toBe("deciding a proposed value for typology");
    expect(describeThrough({ ...base, via: "project-restore", archivedSlug: "harbour" })).toBe("restoring a project backup (harbour)");
    expect(describeThrough({ ...base, via: "earlier" })).toBe("before Mnemo kept history");
  });
});
