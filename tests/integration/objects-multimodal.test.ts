import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { beforeAll, describe, expect, it } from "vitest";
import { type Principal, systemPrincipal } from "../../lib/acl";
import type { FieldDefinition } from "../../lib/archive/field-definitions";
import { storagePath, storeMedia } from "../../lib/archive/media-storage";
import { saveRecord } from "../../lib/archive/save-record";
import type { Database } from "../../lib/db/database";
import { createHashEmbedder } from "../../lib/rag/embed/hash-embedder";
import { enqueueReindex, retryParked, type QueueOptions } from "../../lib/rag/index/index-queue";
import { type IndexSpace } from "../../lib/rag/index/index-spaces";
import { runWorker } from "../../lib/rag/index/run-worker";
import { createClipHttpEmbedder } from "../../lib/rag/embed/clip-http-embedder";
import { createDescriptorEmbedder, imageSpaceName } from "../../lib/rag/embed/descriptor-embedder";
import type { ImageEmbedder } from "../../lib/rag/embed/image-embedder";
import type { ObjectContext } from "../../lib/rag/config/object-context";
import { objectsByDescriptionUnavailableMessage, searchObjectsByText } from "../../lib/rag/objects/search-objects";
import type { ObjectsRuntime } from "../../lib/rag/objects/similar-objects";
import type { SearchContext } from "../../lib/rag/search/search-archive";
import { renderCoinFace } from "../../prisma/seed/render-coin";
import { closeAfterAll } from "../support/close-after-all";
import { addMember, createProject, createUser, principalOf, temporaryStorageDir, testIndexSpace } from "../support/factories";
import { type FakeClipServer, startFakeClipServer } from "../support/fake-clip-server";
import { openTestDatabase } from "../support/test-database";

/**
 * Object images and an external CLIP-style endpoint: images of a `local_only` section never
 * reach it (checked byte for byte against what the fake server received), images of an
 * `allow_external` section do; changing the policy and re-indexing adds or removes the clip
 * vectors; text→image search goes through the endpoint's text tower, scoped to readable
 * projects; and a failing endpoint parks the record without storing partial vectors.
 */
const fields: FieldDefinition[] = [
  { key: "title", label: "Title", type: "text", required: true, listed: true },
  { key: "metal", label: "Metal", type: "category", options: ["silver", "bronze"] },
  { key: "typology", label: "Typology", type: "category", options: ["denarius", "as"] },
  { key: "period", label: "Period", type: "category", options: ["Roman Republic"] },
  { key: "obverse", label: "Obverse", type: "image", view: "obverse" },
  { key: "reverse", label: "Reverse", type: "image", view: "reverse" },
];

const contextFor = (slug: string): ObjectContext => ({
  images: [
    { field: "obverse", view: "obverse" },
    { field: "reverse", view: "reverse" },
  ],
  roles: { typology: "typology", material: "metal", period: "period" },
  compareWith: [slug],
  nearDuplicateFloor: 0.97,
});

const DIMENSION = 32;
const embedder = createHashEmbedder({ dimension: 64 });
const descriptor = createDescriptorEmbedder();
const noBridge = { detect: async () => ({ language: "en", confidence: 1 }) };
const retryNow: QueueOptions = { maxAttempts: 3, leaseSeconds: 30, backoffBaseSeconds: 0 };

let db: Database;
let server: FakeClipServer;
let clip: ImageEmbedder;
let clipSpace: string;
let space: IndexSpace;
let storageDir: string;
let projectId: string;
let reader: Principal;
let nobody: Principal;
const sectionIds: Record<"local" | "open", string> = { local: "", open: "" };
const recordIds: Record<"local" | "open", string[]> = { local: [], open: [] };

async function store(bytes: Uint8Array, name: string): Promise<string> {
  return (await storeMedia(db.prisma, systemPrincipal, { projectId, file: { name, bytes }, expectedKind: "image", storageDir, maxBytes: 5 * 1024 * 1024 })).id;
}

async function coin(slug: string, key: string, metal: string, typology: string): Promise<string> {
  const look = { key, metal, typology, period: "Roman Republic" };
  const saved = await saveRecord(db.prisma, systemPrincipal, {
    sectionSlug: slug,
    projectId,
    values: {
      title: key,
      metal,
      typology,
      period: look.period,
      obverse: await store(await renderCoinFace({ ...look, face: "obverse" }), `${key}-o.webp`),
      reverse: await store(await renderCoinFace({ ...look, face: "reverse" }), `${key}-r.webp`),
    },
  });
  return saved.id;
}

async function drain(queue: QueueOptions = retryNow) {
  return runWorker({
    prisma: db.prisma,
    sql: db.sql,
    embedder,
    space,
    drain: true,
    idleMs: 10,
    batchSize: 8,
    queue,
    objects: { storageDir, imageEmbedders: [descriptor, clip] },
  });
}

const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** sha256 of every stored image file of these records, read back from storage. */
async function storedImageHashes(ids: readonly string[]): Promise<string[]> {
  const media = await db.prisma.media.findMany({ where: { recordId: { in: [...ids] }, kind: "image" } });
  return Promise.all(media.map(async (item) => sha(await readFile(storagePath(storageDir, item.storageKey)))));
}

const receivedHashes = () => new Set(server.imagesReceived.map(sha));

/** Records with at least one image vector in the space, sorted. */
async function recordsInSpace(spaceName: string): Promise<string[]> {
  const rows = await db.sql.query<{ record_id: string }>(
    `SELECT DISTINCT record_id FROM object_vectors WHERE space = $1 AND kind = 'image' ORDER BY record_id`,
    [spaceName],
  );
  return rows.map((row) => row.record_id);
}

const sorted = (ids: readonly string[]) => [...ids].sort();

beforeAll(async () => {
  db = await openTestDatabase();
  server = await startFakeClipServer({ dimension: DIMENSION });
  clip = createClipHttpEmbedder({ baseUrl: server.url, model: "fake-clip", dimension: DIMENSION });
  clipSpace = imageSpaceName(clip);
  storageDir = temporaryStorageDir();
  space = await testIndexSpace(db.sql, embedder);
  for (const [which, slug, egressPolicy] of [
    ["local", "mm-local", "local_only"],
    ["open", "mm-open", "allow_external"],
  ] as const) {
    const section = await db.prisma.section.create({
      data: { slug, name: `Coins ${slug}`, fields: fields as never, objectContext: contextFor(slug) as never, egressPolicy },
    });
    sectionIds[which] = section.id;
  }
  projectId = (await createProject(db.prisma)).id;
  const readerUser = await createUser(db.prisma, { role: "researcher" });
  await addMember(db.prisma, readerUser.id, projectId);
  reader = await principalOf(db.prisma, readerUser.id);
  nobody = await principalOf(db.prisma, (await createUser(db.prisma, { role: "researcher" })).id);
  for (let i = 0; i < 3; i++) {
    recordIds.local.push(await coin("mm-local", `local-${i}`, i % 2 ? "bronze" : "silver", i % 2 ? "as" : "denarius"));
    recordIds.open.push(await coin("mm-open", `open-${i}`, i % 2 ? "silver" : "bronze", i % 2 ? "denarius" : "as"));
  }
  await drain();
}, 240_000);

closeAfterAll(
  () => server,
  () => db,
);

describe("object images and an external multimodal endpoint", () => {
  it("sends every image of an allow_external section, and none of a local_only one", async () => {
    const open = await storedImageHashes(recordIds.open);
    const local = await storedImageHashes(recordIds.local);
    expect(open).toHaveLength(6);
    expect(local).toHaveLength(6);
    const received = receivedHashes();
    for (const hash of open) expect(received.has(hash)).toBe(true);
    for (const hash of local) expect(received.has(hash)).toBe(false);
    expect(server.imagesReceived).toHaveLength(open.length);
    expect(server.requests.every((request) => request.kind === "image")).toBe(true);
    expect(await recordsInSpace(clipSpace)).toEqual(sorted(recordIds.open));
    expect(await recordsInSpace(imageSpaceName(descriptor))).toEqual(sorted([...recordIds.local, ...recordIds.open]));
    expect(await db.sql.query(`SELECT 1 FROM index_queue`)).toHaveLength(0);
  });

  it("follows a change of egress policy once the section is re-indexed", async () => {
    await db.prisma.section.update({ where: { id: sectionIds.local }, data: { egressPolicy: "allow_external" } });
    expect(await enqueueReindex(db.sql, { sectionId: sectionIds.local })).toBe(3);
    await drain();
    const received = receivedHashes();
    for (const hash of await storedImageHashes(recordIds.local)) expect(received.has(hash)).toBe(true);
    expect(await recordsInSpace(clipSpace)).toEqual(sorted([...recordIds.local, ...recordIds.open]));

    await db.prisma.section.update({ where: { id: sectionIds.open }, data: { egressPolicy: "local_only" } });
    const sentBefore = server.imagesReceived.length;
    expect(await enqueueReindex(db.sql, { sectionId: sectionIds.open })).toBe(3);
    await drain();
    // Nothing more was sent, the open section's clip vectors are gone, its descriptor vectors stay.
    expect(server.imagesReceived).toHaveLength(sentBefore);
    expect(await recordsInSpace(clipSpace)).toEqual(sorted(recordIds.local));
    expect(await recordsInSpace(imageSpaceName(descriptor))).toEqual(sorted([...recordIds.local, ...recordIds.open]));
  });

  it("searches images by text through the endpoint's text tower, within readable projects", async () => {
    const search: SearchContext = { sql: db.sql, embedder, space, prepare: noBridge };
    const runtime: ObjectsRuntime = { sql: db.sql, embedder, textSpace: space, descriptor, multimodal: clip };
    const textRequests = () => server.requests.filter((request) => request.kind === "text").length;
    const before = textRequests();
    const result = await searchObjectsByText(runtime, search, reader, { query: "a silver coin with a horse" });
    expect(result.via).toBe("multimodal");
    expect(result.model).toBe("fake-clip");
    expect(textRequests()).toBe(before + 1);
    // Only records with vectors in the clip space (mm-local since the policy change), each once.
    expect(sorted(result.hits.map((hit) => hit.recordId))).toEqual(sorted(recordIds.local));
    expect(result.hits.every((hit) => hit.sectionName === "Coins mm-local" && hit.images.length === 2)).toBe(true);
    const scoped = await searchObjectsByText(runtime, search, reader, { query: "a bronze coin", sectionSlug: "mm-open" });
    expect(scoped.hits).toEqual([]);

    const forNobody = await searchObjectsByText(runtime, search, nobody, { query: "a silver coin with a horse" });
    expect(forNobody.via).toBe("multimodal");
    expect(forNobody.hits).toEqual([]);

    const withoutClip = await searchObjectsByText({ ...runtime, multimodal: null }, search, reader, { query: "silver denarius" });
    expect(withoutClip.via).toBe("catalogue-text");
    expect(textRequests()).toBe(before + 3);
  });

  it("says in a sentence (503) that search by description is unavailable when the image model fails or cannot be reached", async () => {
    const search: SearchContext = { sql: db.sql, embedder, space, prepare: noBridge };
    const runtime: ObjectsRuntime = { sql: db.sql, embedder, textSpace: space, descriptor, multimodal: clip };
    const unavailable = { code: "unavailable", status: 503, message: objectsByDescriptionUnavailableMessage };
    server.failWith = 500;
    try {
      await expect(searchObjectsByText(runtime, search, reader, { query: "a silver coin with a horse" })).rejects.toMatchObject(unavailable);
    } finally {
      server.failWith = undefined;
    }
    const unreachable = createClipHttpEmbedder({ baseUrl: "http://127.0.0.1:9", model: "fake-clip", dimension: DIMENSION, timeoutMs: 2000 });
    await expect(searchObjectsByText({ ...runtime, multimodal: unreachable }, search, reader, { query: "a silver coin with a horse" })).rejects.toMatchObject(
      unavailable,
    );
  });

  it("parks a record whose images the endpoint cannot embed, storing no partial vectors", async () => {
    const id = await coin("mm-local", "failing", "silver", "denarius");
    server.failWith = 500;
    try {
      const progress = await drain({ maxAttempts: 1, leaseSeconds: 30, backoffBaseSeconds: 0 });
      expect(progress.parked).toBe(1);
    } finally {
      server.failWith = undefined;
    }
    const [row] = await db.sql.query<{ status: string; last_error: string | null }>(`SELECT status, last_error FROM index_queue WHERE record_id = $1`, [id]);
    expect(row?.status).toBe("parked");
    expect(row?.last_error).toMatch(/HTTP 500/);
    expect(await db.sql.query(`SELECT 1 FROM object_vectors WHERE record_id = $1`, [id])).toHaveLength(0);

    // Once the endpoint answers again, the retried record gets all its vectors.
    expect(await retryParked(db.sql, sectionIds.local)).toBe(1);
    await drain();
    expect(await db.sql.query(`SELECT 1 FROM index_queue`)).toHaveLength(0);
    expect(await recordsInSpace(clipSpace)).toContain(id);
  });
});
