import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deleteRecord } from "../../lib/archive/delete-record";
import { discardMedia, storeMedia } from "../../lib/archive/media-storage";
import { mediaResponse } from "../../lib/archive/serve-media";
import { conflictMessage, saveRecord } from "../../lib/archive/save-record";
import type { Principal } from "../../lib/acl";
import type { Database } from "../../lib/db/database";
import { addMember, createProject, createRecord, createSection, createUser, pngBytes, principalOf, temporaryStorageDir } from "../support/factories";
import { appErrorOf } from "../support/app-error-of";
import { openTestDatabase, testDatabaseMode } from "../support/test-database";

let db: Database;
let storageDir: string;
let curator: Principal;
let researcher: Principal;
let projectId: string;
let otherProjectId: string;
let section: { slug: string };

beforeAll(async () => {
  db = await openTestDatabase();
  storageDir = temporaryStorageDir();
  const { prisma } = db;
  projectId = (await createProject(prisma)).id;
  otherProjectId = (await createProject(prisma)).id;
  section = await createSection(prisma);
  const curatorUser = await createUser(prisma, { role: "curator" });
  await addMember(prisma, curatorUser.id, projectId, "editor");
  curator = await principalOf(prisma, curatorUser.id);
  const researcherUser = await createUser(prisma);
  await addMember(prisma, researcherUser.id, projectId, "reader");
  researcher = await principalOf(prisma, researcherUser.id);
});

afterAll(async () => {
  await db.close();
});

describe(`record editing (${testDatabaseMode()})`, () => {
  it("creates a record, its outbox row and an audit event in one go", async () => {
    const saved = await saveRecord(db.prisma, curator, {
      sectionSlug: section.slug,
      projectId,
      values: { title: "  Letter from the mill  ", kind: "letter", period: { from: 1962, to: 1965 } },
    });
    const record = await db.prisma.record.findUniqueOrThrow({ where: { id: saved.id } });
    expect(record).toMatchObject({ title: "Letter from the mill", version: 1, dateFrom: 1962, dateTo: 1965 });
    expect(await db.prisma.indexQueueItem.findUnique({ where: { recordId: saved.id } })).toMatchObject({ status: "pending", reason: "record.created" });
    expect(await db.prisma.auditEvent.count({ where: { targetId: saved.id, action: "record.create" } })).toBe(1);
  });

  it("rejects invalid values per field and writes nothing", async () => {
    const before = await db.prisma.record.count();
    const error = await appErrorOf(
      saveRecord(db.prisma, curator, {
        sectionSlug: section.slug,
        projectId,
        values: {
          title: "",
          kind: "sculpture",
          period: { from: 1990, to: 1950 },
          recordedOn: "yesterday",
          related: ["not-an-id"],
          transcript: [{ speaker: "A", start: 5, end: 2, text: "hi" }],
          bogus: "x",
        },
      }),
    );
    expect(error.code).toBe("bad_request");
    expect(Object.keys(error.fieldErrors ?? {}).sort()).toEqual(["bogus", "kind", "period", "recordedOn", "related", "title", "transcript"].sort());
    expect(error.fieldErrors?.kind?.[0]).toContain("must be one of");
    expect(await db.prisma.record.count()).toBe(before);
  });

  it("refuses an unknown section with a clear message", async () => {
    const error = await appErrorOf(saveRecord(db.prisma, curator, { sectionSlug: "no-such-section", projectId, values: { title: "x" } }));
    expect(error).toMatchObject({ code: "bad_request", message: 'There is no section called "no-such-section".' });
  });

  it("detects a stale version as a conflict and keeps the newer save", async () => {
    const record = await createRecord(db.prisma, section, projectId, { title: "Original" });
    await saveRecord(db.prisma, curator, { id: record.id, version: 1, sectionSlug: section.slug, projectId, values: { title: "First editor" } });
    const error = await appErrorOf(
      saveRecord(db.prisma, curator, { id: record.id, version: 1, sectionSlug: section.slug, projectId, values: { title: "Second editor" } }),
    );
    expect(error).toMatchObject({ code: "conflict", message: conflictMessage });
    expect(await db.prisma.record.findUniqueOrThrow({ where: { id: record.id } })).toMatchObject({ title: "First editor", version: 2 });
    const deleteError = await appErrorOf(deleteRecord(db.prisma, curator, { id: record.id, version: 1 }));
    expect(deleteError.code).toBe("conflict");
  });

  it("lets a reader read but not edit or delete", async () => {
    const record = await createRecord(db.prisma, section, projectId);
    expect(
      (await appErrorOf(saveRecord(db.prisma, researcher, { id: record.id, version: 1, sectionSlug: section.slug, projectId, values: { title: "x" } }))).code,
    ).toBe("forbidden");
    expect((await appErrorOf(deleteRecord(db.prisma, researcher, { id: record.id, version: 1 }))).code).toBe("forbidden");
    expect((await appErrorOf(saveRecord(db.prisma, researcher, { sectionSlug: section.slug, projectId, values: { title: "new" } }))).code).toBe("bad_request");
  });

  it("keeps relation links in step with the values and deletes with the record", async () => {
    const target = await createRecord(db.prisma, section, projectId, { title: "Target" });
    const source = await createRecord(db.prisma, section, projectId, { title: "Source", related: [target.id] });
    expect(await db.prisma.recordLink.findMany({ where: { sourceId: source.id } })).toHaveLength(1);
    await saveRecord(db.prisma, curator, { id: source.id, version: 1, sectionSlug: section.slug, projectId, values: { title: "Source" } });
    expect(await db.prisma.recordLink.findMany({ where: { sourceId: source.id } })).toHaveLength(0);
    await deleteRecord(db.prisma, curator, { id: target.id, version: 1 });
    expect(await db.prisma.record.findUnique({ where: { id: target.id } })).toBeNull();
  });

  it("stores images, refuses corrupt, mistyped and oversize uploads, and attaches media on save", async () => {
    const upload = (bytes: Uint8Array, name = "x.png", maxBytes = 1024 * 1024) =>
      storeMedia(db.prisma, curator, { projectId, file: { name, bytes }, expectedKind: "image", storageDir, maxBytes });
    const good = await upload(await pngBytes());
    const png = await pngBytes();
    expect((await appErrorOf(upload(png.subarray(0, 40)))).message).toContain("could not be read");
    expect((await appErrorOf(upload(new TextEncoder().encode("<script>alert(1)</script>"), "evil.png"))).code).toBe("unsupported_media_type");
    expect((await appErrorOf(upload(png, "big.png", 50))).code).toBe("payload_too_large");
    const audio = readFileSync(new URL("../../prisma/seed/data/oral-histories/audio/valley-01.ogg", import.meta.url));
    expect((await appErrorOf(upload(new Uint8Array(audio)))).message).toContain("Expected an image");
    expect((await appErrorOf(storeMedia(db.prisma, researcher, { projectId, file: { name: "x.png", bytes: png }, storageDir, maxBytes: 1e6 }))).code).toBe(
      "forbidden",
    );

    const saved = await saveRecord(db.prisma, curator, { sectionSlug: section.slug, projectId, values: { title: "With photo", photo: good.id } });
    expect(await db.prisma.media.findUniqueOrThrow({ where: { id: good.id } })).toMatchObject({
      recordId: saved.id,
      fieldKey: "photo",
      view: "front",
      width: 32,
      height: 24,
    });
    // Media of another project cannot be borrowed.
    const foreign = await storeMedia(db.prisma, curator, { projectId, file: { name: "y.png", bytes: png }, storageDir, maxBytes: 1e6 });
    const error = await appErrorOf(
      saveRecord(db.prisma, curator, { sectionSlug: section.slug, projectId: otherProjectId, values: { title: "x", photo: foreign.id } }),
    );
    expect(error.code).toBe("bad_request");
    await discardMedia(db.prisma, storageDir, [foreign.id]);
    expect(await db.prisma.media.findUnique({ where: { id: foreign.id } })).toBeNull();
  });

  it("serves byte ranges so players can seek", async () => {
    const bytes = new Uint8Array(readFileSync(new URL("../../prisma/seed/data/oral-histories/audio/valley-01.ogg", import.meta.url)));
    const stored = await storeMedia(db.prisma, curator, { projectId, file: { name: "valley.ogg", bytes }, expectedKind: "audio", storageDir, maxBytes: 1e7 });
    const media = await db.prisma.media.findUniqueOrThrow({ where: { id: stored.id } });
    expect(media.mime).toBe("audio/ogg");
    expect(media.durationSeconds).toBeGreaterThan(60);
    const request = { id: stored.id, method: "GET" as const, storageDir };
    const partial = await mediaResponse(db.prisma, researcher, { ...request, range: "bytes=100-199" });
    expect(partial.status).toBe(206);
    expect(partial.headers.get("content-range")).toBe(`bytes 100-199/${bytes.length}`);
    expect(new Uint8Array(await partial.arrayBuffer())).toEqual(bytes.subarray(100, 200));
    const suffix = await mediaResponse(db.prisma, researcher, { ...request, range: "bytes=-10" });
    expect(new Uint8Array(await suffix.arrayBuffer())).toEqual(bytes.subarray(bytes.length - 10));
    const outside = await appErrorOf(mediaResponse(db.prisma, researcher, { ...request, range: `bytes=${bytes.length + 5}-` }));
    expect(outside.code).toBe("range_not_satisfiable");
    expect(outside.headers?.["content-range"]).toBe(`bytes */${bytes.length}`);
  });
});

describe(`record editing keeps what the editor cannot see (${testDatabaseMode()})`, () => {
  it("carries links to unreadable records over a save instead of dropping them", async () => {
    const hiddenProject = await createProject(db.prisma, { restricted: true });
    const hidden = await createRecord(db.prisma, section, hiddenProject.id, { title: "Hidden target" });
    const visible = await createRecord(db.prisma, section, projectId, { title: "Visible target" });
    const source = await createRecord(db.prisma, section, projectId, { title: "Source", related: [hidden.id, visible.id] });
    // The curator's form only knows the visible target; they remove it.
    await saveRecord(db.prisma, curator, { id: source.id, version: 1, sectionSlug: section.slug, projectId, values: { title: "Source" } });
    const saved = await db.prisma.record.findUniqueOrThrow({ where: { id: source.id } });
    expect((saved.values as { related?: string[] }).related).toEqual([hidden.id]);
    expect((await db.prisma.recordLink.findMany({ where: { sourceId: source.id } })).map((link) => link.targetId)).toEqual([hidden.id]);
  });

  it("removes a replaced file's row and reports its key for deletion, and moves files with the record", async () => {
    const first = await storeMedia(db.prisma, curator, {
      projectId,
      file: { name: "a.png", bytes: await pngBytes() },
      expectedKind: "image",
      storageDir,
      maxBytes: 1e6,
    });
    const created = await saveRecord(db.prisma, curator, { sectionSlug: section.slug, projectId, values: { title: "Photo", photo: first.id } });
    const firstKey = (await db.prisma.media.findUniqueOrThrow({ where: { id: first.id } })).storageKey;
    const second = await storeMedia(db.prisma, curator, {
      projectId,
      file: { name: "b.png", bytes: await pngBytes(40, 40) },
      expectedKind: "image",
      storageDir,
      maxBytes: 1e6,
    });
    const replaced = await saveRecord(db.prisma, curator, {
      id: created.id,
      version: 1,
      sectionSlug: section.slug,
      projectId,
      values: { title: "Photo", photo: second.id },
    });
    expect(replaced.removedStorageKeys).toEqual([firstKey]);
    expect(await db.prisma.media.findUnique({ where: { id: first.id } })).toBeNull();

    const admin = await principalOf(db.prisma, (await createUser(db.prisma, { role: "admin" })).id);
    await saveRecord(db.prisma, admin, {
      id: created.id,
      version: 2,
      sectionSlug: section.slug,
      projectId: otherProjectId,
      values: { title: "Photo", photo: second.id },
    });
    expect(await db.prisma.media.findUniqueOrThrow({ where: { id: second.id } })).toMatchObject({ projectId: otherProjectId, recordId: created.id });
  });
});
