import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Principal, systemPrincipal } from "../../lib/acl";
import type { FieldDefinition } from "../../lib/archive/field-definitions";
import { deleteRecord } from "../../lib/archive/delete-record";
import { getRecord, valuesAsSeenBy } from "../../lib/archive/get-record";
import { listRecords, listRecordsQuerySchema } from "../../lib/archive/list-records";
import { saveRecord } from "../../lib/archive/save-record";
import { handleMcpRequest } from "../../lib/api/mcp-server";
import { createApiToken } from "../../lib/auth/api-tokens";
import type { Database } from "../../lib/db/database";
import { createHashEmbedder } from "../../lib/rag/embed/hash-embedder";
import { createDescriptorEmbedder } from "../../lib/rag/embed/descriptor-embedder";
import { callApi } from "../support/api-request";
import { addMember, createProject, createRecord, createSection, createUser, principalOf, testIndexSpace } from "../support/factories";
import { serviceRuntime } from "../support/service-runtime";
import { openTestDatabase, testDatabaseMode } from "../support/test-database";

/**
 * Relation values are filtered by access wherever they leave the server (issue 16): a public
 * record that links to a restricted one must not name the restricted record's id in its values
 * — on the record page's data, the edit form's values, `read_record` over the JSON API and MCP,
 * or the record list (its columns and its text filter) — and must look exactly like the same
 * record linking to a record that does not exist any more. The link itself stays stored.
 */
const fields: FieldDefinition[] = [
  { key: "title", label: "Title", type: "text", required: true, listed: true },
  { key: "summary", label: "Summary", type: "longtext" },
  { key: "narrator", label: "Narrator", type: "relation", targetSection: "SELF" },
  { key: "related", label: "Related", type: "relation", targetSection: "SELF", multiple: true },
];

let db: Database;
let sectionSlug: string;
let researcher: Principal;
let researcherToken: string;
let editor: Principal;
let admin: Principal;
let restricted: { id: string };
let openTarget: { id: string };
/** Links to the open target and to the restricted record, in both relation fields. */
let linking: { id: string; projectId: string };
/** The same links, to a record since deleted: what "missing" looks like. */
let dangling: { id: string };
let apiDeps: ReturnType<typeof serviceRuntime>["apiDeps"];

beforeAll(async () => {
  db = await openTestDatabase();
  const { prisma } = db;
  const section = await createSection(prisma, fields);
  sectionSlug = section.slug;
  const open = await createProject(prisma);
  const closed = await createProject(prisma, { restricted: true });
  restricted = await createRecord(prisma, section, closed.id, { title: "Sealed testimony" });
  openTarget = await createRecord(prisma, section, open.id, { title: "Open testimony" });
  linking = await createRecord(prisma, section, open.id, { title: "Linking letter", narrator: restricted.id, related: [openTarget.id, restricted.id] });
  const gone = await createRecord(prisma, section, open.id, { title: "Deleted testimony" });
  dangling = await createRecord(prisma, section, open.id, { title: "Dangling letter", narrator: gone.id, related: [openTarget.id, gone.id] });
  await deleteRecord(prisma, systemPrincipal, { id: gone.id, version: gone.version });

  const researcherUser = await createUser(prisma);
  await addMember(prisma, researcherUser.id, open.id);
  researcher = await principalOf(prisma, researcherUser.id);
  researcherToken = (await createApiToken(prisma, researcher, { name: "relations", expiresInDays: 1 })).token;
  const editorUser = await createUser(prisma, { role: "curator" });
  await addMember(prisma, editorUser.id, open.id, "editor");
  editor = await principalOf(prisma, editorUser.id);
  admin = await principalOf(prisma, (await createUser(prisma, { role: "admin" })).id);

  const embedder = createHashEmbedder({ dimension: 32 });
  const space = await testIndexSpace(db.sql, embedder);
  ({ apiDeps } = serviceRuntime(db, { embedder, space, descriptor: createDescriptorEmbedder(), origin: "http://relations.test" }));
});

afterAll(async () => {
  await db?.close();
});

/** What a reader sees of a record's values besides its title: the part two records can share. */
function valuesBesidesTitle(values: Record<string, unknown>): Record<string, unknown> {
  const { title: _title, ...rest } = values;
  return rest;
}

describe(`relation values by access (${testDatabaseMode()})`, () => {
  it("leaves a restricted target out of the record's values, exactly as a missing one", async () => {
    const seen = await getRecord(db.prisma, researcher, linking.id);
    expect(JSON.stringify(seen)).not.toContain(restricted.id);
    expect(seen.values).toEqual({ title: "Linking letter", related: [openTarget.id] });
    expect(Object.keys(seen.relations)).toEqual([openTarget.id]);
    const missing = await getRecord(db.prisma, researcher, dangling.id);
    expect(valuesBesidesTitle(seen.values)).toEqual(valuesBesidesTitle(missing.values));

    // Whoever may read the target sees the link.
    const adminView = await getRecord(db.prisma, admin, linking.id);
    expect(adminView.values).toMatchObject({ narrator: restricted.id, related: [openTarget.id, restricted.id] });
  });

  it("read_record over the JSON API and MCP names no restricted target, like a missing one", async () => {
    const response = await callApi(apiDeps, "read_record", { recordId: linking.id }, { token: researcherToken });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { values: Record<string, unknown>; linked: { id: string }[] };
    expect(JSON.stringify(body)).not.toContain(restricted.id);
    expect(body.values.related).toEqual([openTarget.id]);
    expect(body.values.narrator).toBeUndefined();
    expect(body.linked.map((item) => item.id)).toEqual([openTarget.id]);
    const missing = (await (await callApi(apiDeps, "read_record", { recordId: dangling.id }, { token: researcherToken })).json()) as typeof body;
    expect(valuesBesidesTitle(body.values)).toEqual(valuesBesidesTitle(missing.values));

    const mcp = await handleMcpRequest(
      new Request("http://relations.test/api/mcp", {
        method: "POST",
        headers: { authorization: `Bearer ${researcherToken}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "read_record", arguments: { recordId: linking.id } } }),
      }),
      apiDeps,
    );
    const text = await mcp.text();
    expect(mcp.status).toBe(200);
    expect(text).toContain(openTarget.id);
    expect(text).not.toContain(restricted.id);
  });

  it("the record list neither shows relation values nor matches a target's id in its text filter", async () => {
    const all = await listRecords(db.sql, researcher, listRecordsQuerySchema.parse({ section: sectionSlug }));
    expect(all.items.map((item) => item.id)).toContain(linking.id);
    expect(JSON.stringify(all)).not.toContain(restricted.id);
    // A piece of the restricted id, typed into the filter, would otherwise find the record that
    // links to it and spell the id out a few characters at a time.
    for (const query of [{ text: restricted.id.slice(0, 13) }, { section: sectionSlug, field: "narrator", text: restricted.id.slice(0, 8) }]) {
      expect((await listRecords(db.sql, researcher, listRecordsQuerySchema.parse(query))).total).toBe(0);
      expect((await listRecords(db.sql, admin, listRecordsQuerySchema.parse(query))).total).toBe(0);
    }
    expect((await listRecords(db.sql, researcher, listRecordsQuerySchema.parse({ text: "Linking letter" }))).total).toBe(1);
  });

  it("keeps the hidden link when an editor saves back the values they were shown", async () => {
    const shown = await getRecord(db.prisma, editor, linking.id);
    expect(shown.values.narrator).toBeUndefined();
    await saveRecord(db.prisma, editor, {
      id: linking.id,
      version: shown.version,
      sectionSlug,
      projectId: linking.projectId,
      values: { ...shown.values, summary: "Edited" },
    });
    const stored = await db.prisma.record.findUniqueOrThrow({ where: { id: linking.id } });
    expect(stored.values).toMatchObject({ narrator: restricted.id, related: [openTarget.id, restricted.id], summary: "Edited" });
    expect(await db.prisma.recordLink.count({ where: { sourceId: linking.id, targetId: restricted.id } })).toBe(2);
  });

  it("a write that starts from the stored values (a proposal decision) saves them as the editor sees them, keeping the hidden link", async () => {
    const stored = await db.prisma.record.findUniqueOrThrow({ where: { id: linking.id } });
    const raw = stored.values as Record<string, unknown>;
    // Saving the raw values would name a record the editor cannot read: refused as a bad link.
    await expect(
      saveRecord(db.prisma, editor, {
        id: linking.id,
        version: stored.version,
        sectionSlug,
        projectId: linking.projectId,
        values: { ...raw, summary: "Decided" },
      }),
    ).rejects.toMatchObject({ code: "bad_request" });
    const seen = await valuesAsSeenBy(db.prisma, editor, fields, raw);
    expect(JSON.stringify(seen)).not.toContain(restricted.id);
    expect(await valuesAsSeenBy(db.prisma, admin, fields, raw)).toEqual(raw);
    await saveRecord(db.prisma, editor, {
      id: linking.id,
      version: stored.version,
      sectionSlug,
      projectId: linking.projectId,
      values: { ...seen, summary: "Decided" },
    });
    const after = await db.prisma.record.findUniqueOrThrow({ where: { id: linking.id } });
    expect(after.values).toMatchObject({ narrator: restricted.id, related: [openTarget.id, restricted.id], summary: "Decided" });
  });
});
