import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "../../lib/acl";
import type { ApiDeps } from "../../lib/api/handle-api-request";
import { handleApiPath } from "../../lib/api/handle-api-request";
import { handleMcpRequest } from "../../lib/api/mcp-server";
import { openApiDocument } from "../../lib/api/openapi";
import { type ApiOperation, operations } from "../../lib/api/operations";
import { createApiToken } from "../../lib/auth/api-tokens";
import type { Database } from "../../lib/db/database";
import { proposalsForRecord } from "../../lib/rag/objects/proposals";
import { apiRequest, callApi } from "../support/api-request";
import {
  addMember,
  coinContextFor,
  coinFields,
  createProject,
  createRecord,
  createSection,
  createUser,
  pngBytes,
  principalOf,
  writeTokenWithoutEditRights,
} from "../support/factories";
import { type ServedHandler, serveWebHandler } from "../support/serve-web-handler";
import { apiDepsWithoutModels, testMediaStorage } from "../support/service-runtime";
import { openTestDatabase, testDatabaseMode } from "../support/test-database";

/**
 * The agent write operations (issue 22, part 2): create a record, update its fields with its
 * version, link and unlink, attach a file, propose a value — over the JSON API and as MCP tools,
 * each through the record editor's save (validation, outbox, audit), refused exactly where the
 * token's user could not write in the browser. Stale version 409, unknown field 400, a record or
 * project the user cannot see 404 (alike for denied and missing), a read token 403
 * insufficient_scope, a write token of a user who edits nothing 403 (or 404 where they cannot
 * read). MCP lists the write tools only for write tokens and only with MNEMO_MCP_ALLOW_WRITE.
 */
const origin = "http://mnemo.test";
const writeNames = ["create_record", "update_record", "link_record", "unlink_record", "attach_media", "propose_value"];
let db: Database;
let media: { storageDir: string; maxBytes: number };
let section: { id: string; slug: string };
let coins: { id: string; slug: string };
const ids = { open: "", closed: "", other: "" };
const people: Record<"curator" | "researcher" | "outsider", Principal> = {} as never;
const tokens = { curatorWrite: "", curatorRead: "", researcherWrite: "", outsiderWrite: "" };

const deps = (mcpAllowWrite = false): ApiDeps => ({ ...apiDepsWithoutModels(db, origin, { media, mcpAllowWrite }) });

async function call(name: string, token: string, input: Record<string, unknown>) {
  const response = await callApi(deps(), name, input, { origin, token });
  const text = await response.text();
  return {
    status: response.status,
    text,
    json: JSON.parse(text) as Record<string, unknown> & { error?: { code: string; message: string; fieldErrors?: Record<string, string[]> } },
  };
}

async function versionOf(recordId: string): Promise<number> {
  return (await db.prisma.record.findUniqueOrThrow({ where: { id: recordId } })).version;
}

const note = (projectId: string, values: Record<string, unknown> = {}) => createRecord(db.prisma, section, projectId, values);

async function uncataloguedCoin(projectId: string) {
  return createRecord(db.prisma, coins, projectId, { metal: "silver" });
}

beforeAll(async () => {
  db = await openTestDatabase();
  media = testMediaStorage();
  section = await createSection(db.prisma);
  const coinSlug = `coins-${randomUUID().slice(0, 8)}`;
  coins = await db.prisma.section.create({
    data: { slug: coinSlug, name: "Coins", fields: coinFields as never, objectContext: coinContextFor(coinSlug) as never },
  });
  ids.open = (await createProject(db.prisma)).id;
  ids.closed = (await createProject(db.prisma, { restricted: true })).id;
  ids.other = (await createProject(db.prisma)).id;
  const curator = await createUser(db.prisma, { role: "curator" });
  await addMember(db.prisma, curator.id, ids.open, "editor");
  // Reads the other project without editing it.
  await addMember(db.prisma, curator.id, ids.other, "reader");
  const researcher = await createUser(db.prisma, { role: "researcher" });
  await addMember(db.prisma, researcher.id, ids.open, "reader");
  const outsider = await createUser(db.prisma, { role: "curator" });
  people.curator = await principalOf(db.prisma, curator.id);
  people.researcher = await principalOf(db.prisma, researcher.id);
  people.outsider = await principalOf(db.prisma, outsider.id);
  tokens.curatorWrite = (await createApiToken(db.prisma, people.curator, { name: "agent", expiresInDays: 30, scopes: ["read", "write"] })).token;
  tokens.curatorRead = (await createApiToken(db.prisma, people.curator, { name: "reader", expiresInDays: 30 })).token;
  tokens.researcherWrite = await writeTokenWithoutEditRights(db.prisma, people.researcher);
  tokens.outsiderWrite = await writeTokenWithoutEditRights(db.prisma, people.outsider);
}, 60_000);

afterAll(async () => {
  await db?.close();
});

describe(`agent writes over the JSON API (${testDatabaseMode()})`, () => {
  it("creates a record through the editor's save: validated, queued for indexing, audited with the token", async () => {
    const created = await call("create_record", tokens.curatorWrite, {
      sectionSlug: section.slug,
      projectId: ids.open,
      values: { title: "Letter from the harbour", kind: "letter", period: { from: 1901, to: 1905 } },
    });
    expect(created.status, created.text).toBe(200);
    const id = created.json.id as string;
    expect(created.json).toEqual({ id, version: 1, changed: true, url: `${origin}/records/${id}` });
    const row = await db.prisma.record.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ title: "Letter from the harbour", projectId: ids.open, dateFrom: 1901, dateTo: 1905, createdById: people.curator.userId });
    expect(await db.prisma.indexQueueItem.findUnique({ where: { recordId: id } })).toMatchObject({ reason: "record.created", status: "pending" });
    const token = await db.prisma.apiToken.findFirstOrThrow({ where: { userId: people.curator.userId, name: "agent" } });
    const audit = await db.prisma.auditEvent.findFirstOrThrow({ where: { action: "record.create", targetId: id } });
    expect(audit).toMatchObject({ actorId: people.curator.userId, projectId: ids.open });
    expect(audit.details).toMatchObject({ version: 1, section: section.slug, via: "api", apiTokenId: token.id });
    expect(JSON.stringify(audit.details)).not.toContain(tokens.curatorWrite);
  });

  it("refuses a create with an unknown field, a bad value or a missing required field (400, nothing written)", async () => {
    const before = await db.prisma.record.count();
    const unknown = await call("create_record", tokens.curatorWrite, { sectionSlug: section.slug, projectId: ids.open, values: { title: "x", colour: "red" } });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error?.fieldErrors).toEqual({ colour: ["is not a field of this section"] });
    const bad = await call("create_record", tokens.curatorWrite, {
      sectionSlug: section.slug,
      projectId: ids.open,
      values: { title: "x", kind: "novel", recordedOn: "1962-02-30" },
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.json.error?.fieldErrors ?? {}).sort()).toEqual(["kind", "recordedOn"]);
    const untitled = await call("create_record", tokens.curatorWrite, { sectionSlug: section.slug, projectId: ids.open, values: {} });
    expect(untitled.json.error?.fieldErrors).toEqual({ title: ["Title is required"] });
    const noSection = await call("create_record", tokens.curatorWrite, { sectionSlug: "no-such-section", projectId: ids.open, values: { title: "x" } });
    expect(noSection.status).toBe(400);
    expect(await db.prisma.record.count()).toBe(before);
  });

  it("answers a project the user cannot read exactly like a missing one (404), and one they read but do not edit with 403", async () => {
    const input = (projectId: string) => ({ sectionSlug: section.slug, projectId, values: { title: "Planted" } });
    const closed = await call("create_record", tokens.curatorWrite, input(ids.closed));
    const missing = await call("create_record", tokens.curatorWrite, input(randomUUID()));
    const malformed = await call("create_record", tokens.curatorWrite, input("not-a-project"));
    for (const response of [closed, missing, malformed]) expect(response.status).toBe(404);
    expect(closed.text).toBe(missing.text);
    expect(malformed.text).toBe(missing.text);
    const readOnly = await call("create_record", tokens.curatorWrite, input(ids.other));
    expect(readOnly.status).toBe(403);
    expect(readOnly.json.error?.code).toBe("forbidden");
    expect(await db.prisma.record.count({ where: { title: "Planted" } })).toBe(0);
  });

  it("takes a project's slug where it takes its id, and a slug of a project the user cannot read is not found, as a missing one", async () => {
    const slugOf = async (id: string) => (await db.prisma.project.findUniqueOrThrow({ where: { id } })).slug;
    const input = (projectId: string) => ({ sectionSlug: section.slug, projectId, values: { title: "Named by slug" } });
    const bySlug = await call("create_record", tokens.curatorWrite, input(await slugOf(ids.open)));
    expect(bySlug.status, bySlug.text).toBe(200);
    expect(await db.prisma.record.findUniqueOrThrow({ where: { id: bySlug.json.id as string } })).toMatchObject({ projectId: ids.open });
    const closed = await call("create_record", tokens.curatorWrite, input(await slugOf(ids.closed)));
    const missing = await call("create_record", tokens.curatorWrite, input("no-such-project-slug"));
    expect(closed.status).toBe(404);
    expect(closed.text).toBe(missing.text);
    expect(await db.prisma.record.count({ where: { title: "Named by slug" } })).toBe(1);
  });

  it("updates only the named fields with the version read; a stale version is a 409 and writes nothing", async () => {
    const record = await note(ids.open, { summary: "First summary.", kind: "letter" });
    const updated = await call("update_record", tokens.curatorWrite, { recordId: record.id, version: 1, values: { summary: "Second summary.", kind: null } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.json).toMatchObject({ id: record.id, version: 2, changed: true });
    const row = await db.prisma.record.findUniqueOrThrow({ where: { id: record.id } });
    expect(row.values).toEqual({ title: record.title, summary: "Second summary." });
    expect(await db.prisma.indexQueueItem.findUnique({ where: { recordId: record.id } })).toMatchObject({ reason: "record.updated", status: "pending" });
    expect((await db.prisma.auditEvent.findFirstOrThrow({ where: { action: "record.update", targetId: record.id } })).details).toMatchObject({
      version: 2,
      via: "api",
    });

    const stale = await call("update_record", tokens.curatorWrite, { recordId: record.id, version: 1, values: { summary: "Lost update." } });
    expect(stale.status).toBe(409);
    expect(stale.json.error?.code).toBe("conflict");
    expect(await versionOf(record.id)).toBe(2);
    expect((await db.prisma.record.findUniqueOrThrow({ where: { id: record.id } })).values).toMatchObject({ summary: "Second summary." });
    expect(await db.prisma.auditEvent.count({ where: { action: "record.update", targetId: record.id } })).toBe(1);
  });

  it("refuses unknown fields and bad values on update with 400, naming them", async () => {
    const record = await note(ids.open);
    const unknown = await call("update_record", tokens.curatorWrite, { recordId: record.id, version: 1, values: { colour: "red", summary: "ok" } });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error?.fieldErrors).toEqual({ "values.colour": [`"colour" is not a field of ${section.slug}.`] });
    const bad = await call("update_record", tokens.curatorWrite, { recordId: record.id, version: 1, values: { period: { from: 1950, to: 1900 } } });
    expect(bad.status).toBe(400);
    expect(bad.json.error?.fieldErrors).toEqual({ period: ["Period from must not be after to"] });
    const noVersion = await call("update_record", tokens.curatorWrite, { recordId: record.id, values: { summary: "x" } });
    expect(noVersion.status).toBe(400);
    expect(noVersion.json.error?.fieldErrors).toHaveProperty("version");
    const nothing = await call("update_record", tokens.curatorWrite, { recordId: record.id, version: 1, values: {} });
    expect(nothing.status).toBe(400);
    expect(await versionOf(record.id)).toBe(1);
  });

  it("links and unlinks through a relation field; a target the user cannot read is refused like a missing one", async () => {
    const [source, target, second] = [await note(ids.open), await note(ids.open), await note(ids.open)];
    const hidden = await note(ids.closed);
    const linked = await call("link_record", tokens.curatorWrite, { recordId: source.id, version: 1, field: "related", targetId: target.id });
    expect(linked.status, linked.text).toBe(200);
    expect(linked.json).toMatchObject({ version: 2, changed: true });
    const again = await call("link_record", tokens.curatorWrite, { recordId: source.id, version: 2, field: "related", targetId: target.id });
    expect(again.json).toMatchObject({ version: 2, changed: false });
    expect((await call("link_record", tokens.curatorWrite, { recordId: source.id, version: 2, field: "related", targetId: second.id })).json).toMatchObject({
      version: 3,
    });
    expect(await db.prisma.recordLink.findMany({ where: { sourceId: source.id }, select: { targetId: true }, orderBy: { targetId: "asc" } })).toEqual(
      [target.id, second.id].sort().map((targetId) => ({ targetId })),
    );
    // The target was queued too: its backlinks changed.
    expect(await db.prisma.indexQueueItem.findUnique({ where: { recordId: target.id } })).not.toBeNull();

    const toHidden = await call("link_record", tokens.curatorWrite, { recordId: source.id, version: 3, field: "related", targetId: hidden.id });
    const toMissing = await call("link_record", tokens.curatorWrite, { recordId: source.id, version: 3, field: "related", targetId: randomUUID() });
    expect(toHidden.status).toBe(400);
    expect(toHidden.json).toEqual(toMissing.json);
    const notRelation = await call("link_record", tokens.curatorWrite, { recordId: source.id, version: 3, field: "title", targetId: target.id });
    expect(notRelation.json.error?.fieldErrors).toEqual({ field: ["Title is not a relation."] });
    const unknownField = await call("link_record", tokens.curatorWrite, { recordId: source.id, version: 3, field: "friends", targetId: target.id });
    expect(unknownField.status).toBe(400);
    const stale = await call("link_record", tokens.curatorWrite, { recordId: source.id, version: 2, field: "related", targetId: randomUUID() });
    expect(stale.status).toBe(409);

    const unlinked = await call("unlink_record", tokens.curatorWrite, { recordId: source.id, version: 3, field: "related", targetId: target.id });
    expect(unlinked.status, unlinked.text).toBe(200);
    expect(unlinked.json).toMatchObject({ version: 4, changed: true });
    expect((await db.prisma.recordLink.findMany({ where: { sourceId: source.id } })).map((link) => link.targetId)).toEqual([second.id]);
    const notLinked = await call("unlink_record", tokens.curatorWrite, { recordId: source.id, version: 4, field: "related", targetId: target.id });
    expect(notLinked.status).toBe(400);
    expect(notLinked.json.error?.fieldErrors).toEqual({ targetId: ["Related does not link to that record."] });
    expect(await db.prisma.auditEvent.count({ where: { action: "record.update", targetId: source.id } })).toBe(3);
  });

  it("keeps a link the editor cannot see when they link or unlink others", async () => {
    const source = await note(ids.open);
    const hidden = await note(ids.closed);
    const visible = await note(ids.open);
    // An admin-made link to a restricted record, which the curator cannot see.
    await db.prisma.record.update({ where: { id: source.id }, data: { values: { title: source.title, related: [hidden.id, visible.id] } } });
    const unlinked = await call("unlink_record", tokens.curatorWrite, { recordId: source.id, version: 1, field: "related", targetId: visible.id });
    expect(unlinked.status, unlinked.text).toBe(200);
    expect((await db.prisma.record.findUniqueOrThrow({ where: { id: source.id } })).values).toMatchObject({ related: [hidden.id] });
    // Unlinking the hidden one is refused as if it were not linked: nothing tells it exists.
    const hiddenUnlink = await call("unlink_record", tokens.curatorWrite, { recordId: source.id, version: 2, field: "related", targetId: hidden.id });
    const missingUnlink = await call("unlink_record", tokens.curatorWrite, { recordId: source.id, version: 2, field: "related", targetId: randomUUID() });
    expect(hiddenUnlink.status).toBe(400);
    expect(hiddenUnlink.json).toEqual(missingUnlink.json);
  });

  it("attaches a file to an image field as the form's upload does, replacing the old one; a wrong type is refused and nothing stays behind", async () => {
    const record = await note(ids.open);
    const content = Buffer.from(await pngBytes(40, 30)).toString("base64");
    const attached = await call("attach_media", tokens.curatorWrite, { recordId: record.id, version: 1, field: "photo", fileName: "front.png", content });
    expect(attached.status, attached.text).toBe(200);
    const mediaId = attached.json.mediaId as string;
    expect(attached.json).toMatchObject({ version: 2, changed: true, mediaUrl: `${origin}/api/media/${mediaId}` });
    const stored = await db.prisma.media.findUniqueOrThrow({ where: { id: mediaId } });
    expect(stored).toMatchObject({
      recordId: record.id,
      projectId: ids.open,
      fieldKey: "photo",
      kind: "image",
      mime: "image/png",
      width: 40,
      height: 30,
      imageCheck: "pending",
      originalName: "front.png",
    });
    expect(existsSync(join(media.storageDir, stored.storageKey))).toBe(true);
    expect((await db.prisma.record.findUniqueOrThrow({ where: { id: record.id } })).values).toMatchObject({ photo: mediaId });

    const replaced = await call("attach_media", tokens.curatorWrite, {
      recordId: record.id,
      version: 2,
      field: "photo",
      fileName: "front-2.png",
      content: Buffer.from(await pngBytes(20, 20)).toString("base64"),
    });
    expect(replaced.status, replaced.text).toBe(200);
    expect(await db.prisma.media.findUnique({ where: { id: mediaId } })).toBeNull();
    expect(existsSync(join(media.storageDir, stored.storageKey))).toBe(false);

    const mediaCount = await db.prisma.media.count();
    const wrongKind = await call("attach_media", tokens.curatorWrite, { recordId: record.id, version: 3, field: "recording", fileName: "x.png", content });
    expect(wrongKind.status).toBe(415);
    expect(wrongKind.json.error?.fieldErrors).toHaveProperty("content");
    const notMedia = await call("attach_media", tokens.curatorWrite, { recordId: record.id, version: 3, field: "summary", fileName: "x.png", content });
    expect(notMedia.status).toBe(400);
    const notBase64 = await call("attach_media", tokens.curatorWrite, {
      recordId: record.id,
      version: 3,
      field: "photo",
      fileName: "x.png",
      content: "not base64!",
    });
    expect(notBase64.status).toBe(400);
    expect(notBase64.json.error?.fieldErrors).toHaveProperty("content");
    const stale = await call("attach_media", tokens.curatorWrite, { recordId: record.id, version: 2, field: "photo", fileName: "x.png", content });
    expect(stale.status).toBe(409);
    expect(await db.prisma.media.count()).toBe(mediaCount);
    expect(await versionOf(record.id)).toBe(3);
  });

  it("refuses a file over MAX_UPLOAD_BYTES with 413", async () => {
    const record = await note(ids.open);
    const small = { ...deps(), runtime: { ...deps().runtime, media: { ...media, maxBytes: 1024 } } };
    const content = Buffer.from(await pngBytes(400, 400)).toString("base64");
    const response = await callApi(
      small,
      "attach_media",
      { recordId: record.id, version: 1, field: "photo", fileName: "big.png", content },
      { origin, token: tokens.curatorWrite },
    );
    expect(response.status).toBe(413);
  });

  it("proposes a value for an uncatalogued object role, pending a curator's decision; the record is not changed", async () => {
    const coin = await uncataloguedCoin(ids.open);
    const proposed = await call("propose_value", tokens.curatorWrite, {
      recordId: coin.id,
      role: "typology",
      value: "denarius",
      note: "The legend reads ROMA under a biga.",
    });
    expect(proposed.status, proposed.text).toBe(200);
    expect(proposed.json).toMatchObject({ recordId: coin.id, role: "typology", status: "pending", url: `${origin}/records/${coin.id}` });
    expect(await versionOf(coin.id)).toBe(1);
    const [stored] = (await proposalsForRecord({ sql: db.sql }, people.curator, coin.id)).filter((proposal) => proposal.role === "typology");
    expect(stored).toMatchObject({ id: proposed.json.proposalId, value: "denarius", status: "pending", proposed: true });
    expect(stored?.evidence).toMatchObject({ mode: "agent", note: "The legend reads ROMA under a biga.", voters: [] });
    expect((await db.prisma.auditEvent.findFirstOrThrow({ where: { action: "proposal.propose", targetId: stored!.id } })).details).toMatchObject({
      recordId: coin.id,
      role: "typology",
      proposed: "denarius",
      via: "api",
    });

    const twice = await call("propose_value", tokens.curatorWrite, { recordId: coin.id, role: "typology", value: "as" });
    expect(twice.status).toBe(409);
    const catalogued = await call("propose_value", tokens.curatorWrite, { recordId: coin.id, role: "material", value: "bronze" });
    expect(catalogued.status).toBe(409);
    const notAnOption = await call("propose_value", tokens.curatorWrite, { recordId: coin.id, role: "period", value: "Bronze Age" });
    expect(notAnOption.status).toBe(400);
    expect(notAnOption.json.error?.fieldErrors).toHaveProperty("value");
    const rangeForCategory = await call("propose_value", tokens.curatorWrite, { recordId: coin.id, role: "period", value: { from: 1, to: 2 } });
    expect(rangeForCategory.status).toBe(400);
    const date = await call("propose_value", tokens.curatorWrite, { recordId: coin.id, role: "date", value: { from: -211, to: -150 } });
    expect(date.status, date.text).toBe(200);
    const unknownRole = await call("propose_value", tokens.curatorWrite, { recordId: coin.id, role: "mint", value: "Rome" });
    expect(unknownRole.status).toBe(400);
    const notObject = await call("propose_value", tokens.curatorWrite, { recordId: (await note(ids.open)).id, role: "typology", value: "denarius" });
    expect(notObject.status).toBe(400);
  });
});

describe(`who may write (${testDatabaseMode()})`, () => {
  /** One call of every write operation aimed at `recordId` (a note, or for proposals a coin) in `projectId`. */
  async function everyWrite(target: { note: string; coin: string; projectId: string }) {
    const content = Buffer.from(await pngBytes()).toString("base64");
    return [
      ["create_record", { sectionSlug: section.slug, projectId: target.projectId, values: { title: "Planted" } }],
      ["update_record", { recordId: target.note, version: 1, values: { summary: "Planted" } }],
      ["link_record", { recordId: target.note, version: 1, field: "related", targetId: target.note }],
      ["unlink_record", { recordId: target.note, version: 1, field: "related", targetId: target.note }],
      ["attach_media", { recordId: target.note, version: 1, field: "photo", fileName: "x.png", content }],
      ["propose_value", { recordId: target.coin, role: "typology", value: "as" }],
    ] as [string, Record<string, unknown>][];
  }

  async function nothingWritten(run: () => Promise<void>) {
    const before = {
      records: await db.prisma.record.count(),
      media: await db.prisma.media.count(),
      proposals: await db.prisma.proposal.count(),
      audit: await db.prisma.auditEvent.count({ where: { action: { in: ["record.create", "record.update", "proposal.propose"] } } }),
    };
    await run();
    const after = {
      records: await db.prisma.record.count(),
      media: await db.prisma.media.count(),
      proposals: await db.prisma.proposal.count(),
      audit: await db.prisma.auditEvent.count({ where: { action: { in: ["record.create", "record.update", "proposal.propose"] } } }),
    };
    expect(after).toEqual(before);
  }

  it("covers every write operation of the registry", () => {
    expect(
      (operations as readonly unknown[] as readonly ApiOperation[])
        .filter((operation) => operation.scope === "write" && !operation.name.endsWith("_import"))
        .map((operation) => operation.name)
        .sort(),
    ).toEqual([...writeNames].sort());
  });

  it("refuses every write operation to a read token with 403 insufficient_scope, the same for any target", async () => {
    const target = { note: (await note(ids.open)).id, coin: (await uncataloguedCoin(ids.open)).id, projectId: ids.open };
    const elsewhere = { note: randomUUID(), coin: randomUUID(), projectId: randomUUID() };
    await nothingWritten(async () => {
      const [calls, missing] = [await everyWrite(target), await everyWrite(elsewhere)];
      for (const [index, [name, input]] of calls.entries()) {
        const response = await call(name, tokens.curatorRead, input);
        expect(response.status, name).toBe(403);
        expect(response.json.error?.code).toBe("insufficient_scope");
        expect(response.json.error?.message).toBe(
          `${name} needs a token with the write scope, and this token does not have it. Create a token with read and write access at /account/tokens.`,
        );
        expect((await call(name, tokens.curatorRead, missing[index]![1])).text).toBe(response.text);
      }
    });
  });

  it("refuses a write token of a researcher who reads the project but edits nothing: 403 where they read, as in the browser", async () => {
    const target = { note: (await note(ids.open)).id, coin: (await uncataloguedCoin(ids.open)).id, projectId: ids.open };
    await nothingWritten(async () => {
      for (const [name, input] of await everyWrite(target)) {
        const response = await call(name, tokens.researcherWrite, input);
        expect(response.status, `${name}: ${response.text}`).toBe(403);
        expect(response.json.error?.code, name).toBe("forbidden");
      }
    });
  });

  it("answers a record or project the token's user cannot read exactly like a missing one (404), for every write operation", async () => {
    const hidden = { note: (await note(ids.closed)).id, coin: (await uncataloguedCoin(ids.closed)).id, projectId: ids.closed };
    const missing = { note: randomUUID(), coin: randomUUID(), projectId: randomUUID() };
    await nothingWritten(async () => {
      const [denied, absent] = [await everyWrite(hidden), await everyWrite(missing)];
      for (const token of [tokens.curatorWrite, tokens.researcherWrite, tokens.outsiderWrite]) {
        for (const [index, [name, input]] of denied.entries()) {
          const a = await call(name, token, input);
          const b = await call(name, token, absent[index]![1]);
          expect(a.status, `${name}: ${a.text}`).toBe(404);
          expect(a.text, name).toBe(b.text);
        }
      }
      // The outsider reads nothing: the open project's records are as absent to them.
      const open = {
        note: (await db.prisma.record.findFirstOrThrow({ where: { projectId: ids.open, sectionId: section.id } })).id,
        coin: (await db.prisma.record.findFirstOrThrow({ where: { projectId: ids.open, sectionId: coins.id } })).id,
        projectId: ids.open,
      };
      for (const [name, input] of await everyWrite(open)) expect((await call(name, tokens.outsiderWrite, input)).status, name).toBe(404);
    });
  });

  it("serves update and read on one path by method, with a 405 naming both otherwise", async () => {
    const record = await note(ids.open);
    const pathOperations = ["read_record", "update_record"].map((name) => apiRequest(name, { recordId: record.id }).operation);
    const patch = apiRequest("update_record", { recordId: record.id, version: 1, values: { summary: "By PATCH." } }, { token: tokens.curatorWrite });
    expect((await handleApiPath(pathOperations, patch.request, patch.params, deps())).status).toBe(200);
    const get = apiRequest("read_record", { recordId: record.id }, { token: tokens.curatorRead });
    const read = await handleApiPath(pathOperations, get.request, get.params, deps());
    expect((await read.json()) as { values: Record<string, unknown>; version: number }).toMatchObject({ version: 2, values: { summary: "By PATCH." } });
    const put = apiRequest("update_record", { recordId: record.id }, { token: tokens.curatorWrite, method: "PUT" });
    const refused = await handleApiPath(pathOperations, put.request, put.params, deps());
    expect(refused.status).toBe(405);
    expect(refused.headers.get("allow")).toBe("GET, PATCH, OPTIONS");
  });

  it("describes every write operation in the OpenAPI document with its 403, 404 and 409", () => {
    const document = openApiDocument() as {
      paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown>; requestBody?: unknown; "x-mcp-requires"?: string }>>;
    };
    const entries = new Map(
      Object.entries(document.paths).flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, entry]) => [entry.operationId, { path, method, entry }]),
      ),
    );
    expect(entries.get("update_record")).toMatchObject({ path: "/records/{recordId}", method: "patch" });
    expect(entries.get("create_record")).toMatchObject({ path: "/records", method: "post" });
    for (const name of writeNames) {
      const { entry } = entries.get(name)!;
      for (const status of ["400", "403", "404", "409", "413"]) expect(entry.responses, `${name} ${status}`).toHaveProperty(status);
      expect(entry.requestBody, name).toBeDefined();
      expect(entry["x-mcp-requires"], name).toBe("MNEMO_MCP_ALLOW_WRITE");
    }
  });
});

describe(`write tools over MCP (${testDatabaseMode()})`, () => {
  const served: Partial<Record<"allowed" | "closed", ServedHandler>> = {};
  beforeAll(async () => {
    const [allowed, closed] = [deps(true), deps(false)];
    served.allowed = await serveWebHandler((request) => handleMcpRequest(request, allowed));
    served.closed = await serveWebHandler((request) => handleMcpRequest(request, closed));
  });
  afterAll(async () => {
    await Promise.all(Object.values(served).map((server) => server?.close()));
  });

  async function withClient<T>(server: "allowed" | "closed", token: string, run: (client: Client) => Promise<T>): Promise<T> {
    const client = new Client({ name: "write-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL("/api/mcp", served[server]!.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    );
    try {
      return await run(client);
    } finally {
      await client.close();
    }
  }

  const readToolNames = (operations as readonly unknown[] as readonly ApiOperation[])
    .filter((operation) => operation.scope === "read")
    .map((operation) => operation.name);

  it("lists the write tools only for a write token on a server that allows MCP writes", async () => {
    const listed = async (server: "allowed" | "closed", token: string) => withClient(server, token, async (client) => (await client.listTools()).tools);
    const writeTools = await listed("allowed", tokens.curatorWrite);
    expect(writeTools.map((tool) => tool.name).sort()).toEqual([...readToolNames, ...writeNames].sort());
    const update = writeTools.find((tool) => tool.name === "update_record")!;
    expect(update.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(writeTools.find((tool) => tool.name === "link_record")!.annotations).toMatchObject({
      readOnlyHint: false,
      idempotentHint: true,
      destructiveHint: false,
    });
    expect(Object.keys(update.inputSchema.properties ?? {}).sort()).toEqual(["recordId", "values", "version"]);
    for (const [server, token] of [
      ["allowed", tokens.curatorRead],
      ["closed", tokens.curatorWrite],
      ["closed", tokens.curatorRead],
    ] as const) {
      expect((await listed(server, token)).map((tool) => tool.name).sort(), `${server} ${token === tokens.curatorRead ? "read" : "write"}`).toEqual(
        [...readToolNames].sort(),
      );
    }
  });

  it("gives the stdio server (`npm run --silent mcp`) the same tools for the same token: writes with a write token", async () => {
    const record = await note(ids.open);
    const listedFor = async (token: string, run?: (client: Client) => Promise<void>) => {
      const client = new Client({ name: "stdio-write-test", version: "1.0.0" });
      await client.connect(
        new StdioClientTransport({
          command: "npm",
          args: ["run", "--silent", "mcp"],
          env: { ...(process.env as Record<string, string>), MNEMO_URL: served.allowed!.url, MNEMO_API_TOKEN: token },
          stderr: "pipe",
        }),
      );
      try {
        const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
        await run?.(client);
        return names;
      } finally {
        await client.close();
      }
    };
    expect(await listedFor(tokens.curatorRead)).toEqual([...readToolNames].sort());
    const names = await listedFor(tokens.curatorWrite, async (client) => {
      const result = await client.callTool({ name: "update_record", arguments: { recordId: record.id, version: 1, values: { summary: "Over stdio." } } });
      expect(result.structuredContent).toMatchObject({ version: 2, changed: true });
    });
    expect(names).toEqual([...readToolNames, ...writeNames].sort());
    expect((await db.prisma.record.findUniqueOrThrow({ where: { id: record.id } })).values).toMatchObject({ summary: "Over stdio." });
  }, 60_000);

  it("refuses to call a write tool that is not listed, and writes nothing", async () => {
    const record = await note(ids.open);
    for (const [server, token] of [
      ["allowed", tokens.curatorRead],
      ["closed", tokens.curatorWrite],
    ] as const) {
      const result = await withClient(server, token, (client) =>
        client.callTool({ name: "update_record", arguments: { recordId: record.id, version: 1, values: { summary: "Planted" } } }),
      );
      expect(result.isError).toBe(true);
    }
    expect(await versionOf(record.id)).toBe(1);
  });

  it("runs the write tools through the same services: a change, a stale version, an unknown field, a hidden record, a reader's refusal", async () => {
    const record = await note(ids.open);
    const hidden = await note(ids.closed);
    await withClient("allowed", tokens.curatorWrite, async (client) => {
      const text = (result: Awaited<ReturnType<Client["callTool"]>>) => (result.content as { text: string }[]).map((part) => part.text).join("\n");
      const created = await client.callTool({
        name: "create_record",
        arguments: { sectionSlug: section.slug, projectId: ids.open, values: { title: "Made over MCP" } },
      });
      expect(created.isError ?? false, text(created)).toBe(false);
      const createdId = (created.structuredContent as { id: string }).id;
      const token = await db.prisma.apiToken.findFirstOrThrow({ where: { userId: people.curator.userId, name: "agent" } });
      expect((await db.prisma.auditEvent.findFirstOrThrow({ where: { action: "record.create", targetId: createdId } })).details).toMatchObject({
        via: "mcp",
        apiTokenId: token.id,
      });

      const updated = await client.callTool({ name: "update_record", arguments: { recordId: record.id, version: 1, values: { summary: "Over MCP." } } });
      expect(updated.structuredContent).toMatchObject({ version: 2, changed: true });
      const stale = await client.callTool({ name: "update_record", arguments: { recordId: record.id, version: 1, values: { summary: "Lost." } } });
      expect(stale.isError).toBe(true);
      expect(text(stale)).toMatch(/^conflict: /);
      const unknown = await client.callTool({ name: "update_record", arguments: { recordId: record.id, version: 2, values: { colour: "red" } } });
      expect(text(unknown)).toMatch(/^bad_request: /);
      const denied = await client.callTool({ name: "update_record", arguments: { recordId: hidden.id, version: 1, values: { summary: "x" } } });
      const missing = await client.callTool({ name: "update_record", arguments: { recordId: randomUUID(), version: 1, values: { summary: "x" } } });
      expect(text(denied)).toBe("not_found: Not found.");
      expect(text(missing)).toBe(text(denied));
      const media = await client.callTool({
        name: "attach_media",
        arguments: { recordId: record.id, version: 2, field: "photo", fileName: "f.png", content: Buffer.from(await pngBytes()).toString("base64") },
      });
      expect(media.structuredContent).toMatchObject({ version: 3 });
    });
    expect((await db.prisma.record.findUniqueOrThrow({ where: { id: record.id } })).values).toMatchObject({ summary: "Over MCP." });
    const researcherResult = await withClient("allowed", tokens.researcherWrite, (client) =>
      client.callTool({ name: "update_record", arguments: { recordId: record.id, version: 3, values: { summary: "x" } } }),
    );
    expect((researcherResult.content as { text: string }[])[0]!.text).toMatch(/^forbidden: /);
    expect(await versionOf(record.id)).toBe(3);
  });
});
