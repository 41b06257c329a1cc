import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemPrincipal, type Principal } from "../../lib/acl";
import type { ApiDeps } from "../../lib/api/handle-api-request";
import { handleMcpRequest } from "../../lib/api/mcp-server";
import { deleteRecord } from "../../lib/archive/delete-record";
import { importRecords } from "../../lib/archive/import-records";
import { saveRecord } from "../../lib/archive/save-record";
import { recordFormSchema, saveRecordForm } from "../../lib/archive/save-record-form";
import { createApiToken } from "../../lib/auth/api-tokens";
import type { Database } from "../../lib/db/database";
import { callApi } from "../support/api-request";
import { addMember, createProject, createRecord, createSection, createUser, principalOf } from "../support/factories";
import { apiDepsWithoutModels, testMediaStorage } from "../support/service-runtime";
import { openTestDatabase, testDatabaseMode } from "../support/test-database";

/**
 * Record history (issue 47, item 2): every write path keeps the version it makes in
 * record_versions — the record form, the agent API and MCP, the trusted bulk loader; the import
 * job, a proposal decision and a project restore are checked in their own suites — with the person
 * and the channel (token id and name), in the save's transaction (a refused save keeps nothing),
 * and a deleted record's history goes with it.
 */
const origin = "http://mnemo.test";
let db: Database;
let media: { storageDir: string; maxBytes: number };
let section: { id: string; slug: string };
let projectId: string;
let curator: Principal;
let writeToken: string;
let writeTokenId: string;

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
});

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
    await expect(saveRecord(db.prisma, curator, { id: record.id, version: 1, sectionSlug: section.slug, projectId, values: { title: "Stale" } })).rejects.toMatchObject({ code: "conflict" });
    await expect(saveRecord(db.prisma, curator, { id: record.id, version: 2, sectionSlug: section.slug, projectId, values: { title: "Bad", kind: "sculpture" } })).rejects.toMatchObject({ code: "bad_request" });
    expect((await versionsOf(record.id)).map((version) => version.title)).toEqual([record.title, "Kept twice"]);
  });

  it("the JSON API's writes name the channel and the token, by id and by name", async () => {
    const record = await createRecord(db.prisma, section, projectId, { title: "Agent target" }, curator);
    const response = await callApi(deps(), "update_record", { recordId: record.id, version: 1, values: { summary: "Written by an agent." } }, { origin, token: writeToken });
    expect(response.status).toBe(200);
    const [, written] = await versionsOf(record.id);
    expect(written).toMatchObject({ version: 2, via: "api", savedById: curator.userId, details: { apiTokenId: writeTokenId, apiTokenName: "Cataloguing agent" } });
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
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "update_record", arguments: { recordId: record.id, version: 1, values: { summary: "Through MCP." } } } }),
    });
    const response = await handleMcpRequest(request, deps(true));
    const body = (await response.json()) as { result?: { isError?: boolean } };
    expect(body.result?.isError).not.toBe(true);
    expect((await versionsOf(record.id))[1]).toMatchObject({ version: 2, via: "mcp", details: { apiTokenId: writeTokenId, apiTokenName: "Cataloguing agent" } });
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
