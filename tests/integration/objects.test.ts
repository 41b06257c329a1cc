import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { type Principal, systemPrincipal } from "../../lib/acl";
import type { FieldDefinition } from "../../lib/archive/field-definitions";
import { getRecord } from "../../lib/archive/get-record";
import { decodeProblem, openImage } from "../../lib/archive/image-limits";
import { storeMedia } from "../../lib/archive/media-storage";
import { saveRecord } from "../../lib/archive/save-record";
import { mediaResponse } from "../../lib/archive/serve-media";
import type { Database } from "../../lib/db/database";
import { AppError } from "../../lib/errors";
import type { Embedder } from "../../lib/rag/embed/embedder";
import { createHashEmbedder } from "../../lib/rag/embed/hash-embedder";
import { type IndexSpace } from "../../lib/rag/index/index-spaces";
import { runWorker } from "../../lib/rag/index/run-worker";
import { characteriseObject } from "../../lib/rag/objects/characterise";
import { loadObjectSubject, neighbourReads } from "../../lib/rag/objects/object-neighbours";
import { createDescriptorEmbedder } from "../../lib/rag/embed/descriptor-embedder";
import type { ObjectContext } from "../../lib/rag/config/object-context";
import { decideProposal, listPendingProposals, proposalAccuracy, proposalsForRecord, proposeForUncatalogued } from "../../lib/rag/objects/proposals";
import { saveObjectContext } from "../../lib/rag/objects/save-object-context";
import { type ObjectsRuntime, findSimilarObjects } from "../../lib/rag/objects/similar-objects";
import { renderCoinFace } from "../../prisma/seed/render-coin";
import { closeAfterAll } from "../support/close-after-all";
import { pngDeclaring, solidPng, truncatedJpeg } from "../support/damaged-images";
import { addMember, createProject, createUser, principalOf, temporaryStorageDir, testIndexSpace } from "../support/factories";
import { openTestDatabase } from "../support/test-database";

const fields: FieldDefinition[] = [
  { key: "title", label: "Title", type: "text", required: true, listed: true },
  { key: "metal", label: "Metal", type: "category", options: ["silver", "bronze", "billon", "gold"] },
  { key: "typology", label: "Typology", type: "category", options: ["denarius", "as", "antoninianus", "secret-type"] },
  { key: "period", label: "Period", type: "category", options: ["Roman Republic", "Roman Imperial"] },
  { key: "date", label: "Date", type: "daterange" },
  { key: "obverse", label: "Obverse", type: "image", view: "obverse" },
  { key: "reverse", label: "Reverse", type: "image", view: "reverse" },
];

const context: ObjectContext = {
  images: [
    { field: "obverse", view: "obverse" },
    { field: "reverse", view: "reverse" },
  ],
  roles: { typology: "typology", material: "metal", period: "period", date: "date" },
  compareWith: ["test-coins"],
  nearDuplicateFloor: 0.97,
};

interface CoinSpec {
  key: string;
  metal: string;
  typology: string;
  period: string;
  date?: { from: number; to: number };
}

const kinds: Record<"denarius" | "as" | "antoninianus", Omit<CoinSpec, "key">> = {
  denarius: { metal: "silver", typology: "denarius", period: "Roman Republic", date: { from: -211, to: -100 } },
  as: { metal: "bronze", typology: "as", period: "Roman Republic", date: { from: -211, to: -150 } },
  antoninianus: { metal: "billon", typology: "antoninianus", period: "Roman Imperial", date: { from: 238, to: 274 } },
};

let db: Database;
let space: IndexSpace;
let runtime: ObjectsRuntime;
let storageDir: string;
let projectA: string;
let projectR: string;
let curator: Principal;
let researcher: Principal;
let outsider: Principal;
let insider: Principal;
const ids: Record<string, string> = {};
const embedder = createHashEmbedder({ dimension: 64 });
const descriptor = createDescriptorEmbedder();

/** db.sql, recording each statement's text. */
function countingSql(statements: string[]): typeof db.sql {
  return Object.assign(Object.create(db.sql) as typeof db.sql, {
    query: ((text: string, params?: unknown[]) => {
      statements.push(text);
      return db.sql.query(text, params);
    }) as typeof db.sql.query,
  });
}

async function face(spec: Omit<CoinSpec, "date">, side: "obverse" | "reverse"): Promise<Buffer> {
  return renderCoinFace({ key: spec.key, face: side, metal: spec.metal, typology: spec.typology, period: spec.period });
}

async function store(projectId: string, bytes: Uint8Array, name: string): Promise<string> {
  const stored = await storeMedia(db.prisma, systemPrincipal, {
    projectId,
    file: { name, bytes },
    expectedKind: "image",
    storageDir,
    maxBytes: 5 * 1024 * 1024,
  });
  return stored.id;
}

async function coin(projectId: string, title: string, values: Record<string, unknown>, images: { obverse: Uint8Array; reverse: Uint8Array }): Promise<string> {
  const saved = await saveRecord(db.prisma, systemPrincipal, {
    sectionSlug: "test-coins",
    projectId,
    values: {
      title,
      ...values,
      obverse: await store(projectId, images.obverse, `${title}-o.webp`),
      reverse: await store(projectId, images.reverse, `${title}-r.webp`),
    },
  });
  return saved.id;
}

async function catalogued(projectId: string, key: string, kind: keyof typeof kinds): Promise<string> {
  const spec = { key, ...kinds[kind] } as CoinSpec;
  const { date, ...look } = spec;
  return coin(
    projectId,
    key,
    { metal: spec.metal, typology: spec.typology, period: spec.period, ...(date ? { date } : {}) },
    {
      obverse: await face(look, "obverse"),
      reverse: await face(look, "reverse"),
    },
  );
}

async function drain() {
  return runWorker({
    prisma: db.prisma,
    sql: db.sql,
    embedder,
    space,
    drain: true,
    idleMs: 10,
    batchSize: 8,
    objects: { storageDir, imageEmbedders: [descriptor] },
  });
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

beforeAll(async () => {
  db = await openTestDatabase();
  storageDir = temporaryStorageDir();
  space = await testIndexSpace(db.sql, embedder);
  runtime = { sql: db.sql, embedder, textSpace: space, descriptor, multimodal: null };
  await db.prisma.section.create({ data: { slug: "test-coins", name: "Test coins", fields: fields as never, objectContext: context as never } });
  projectA = (await createProject(db.prisma)).id;
  projectR = (await createProject(db.prisma, { restricted: true })).id;
  const curatorUser = await createUser(db.prisma, { role: "curator" });
  await addMember(db.prisma, curatorUser.id, projectA, "editor");
  const researcherUser = await createUser(db.prisma, { role: "researcher" });
  await addMember(db.prisma, researcherUser.id, projectA);
  const insiderUser = await createUser(db.prisma, { role: "curator" });
  await addMember(db.prisma, insiderUser.id, projectA, "editor");
  await addMember(db.prisma, insiderUser.id, projectR);
  const outsiderUser = await createUser(db.prisma, { role: "researcher" });
  curator = await principalOf(db.prisma, curatorUser.id);
  researcher = await principalOf(db.prisma, researcherUser.id);
  insider = await principalOf(db.prisma, insiderUser.id);
  outsider = await principalOf(db.prisma, outsiderUser.id);

  for (let i = 0; i < 4; i++) ids[`denarius${i}`] = await catalogued(projectA, `denarius-${i}`, "denarius");
  for (let i = 0; i < 4; i++) ids[`as${i}`] = await catalogued(projectA, `as-${i}`, "as");
  for (let i = 0; i < 3; i++) ids[`antoninianus${i}`] = await catalogued(projectA, `antoninianus-${i}`, "antoninianus");

  // The subject: a silver Republican coin nobody has typed yet.
  const subjectLook = { key: "subject", metal: "silver", typology: "denarius", period: "Roman Republic" };
  const subjectObverse = await face(subjectLook, "obverse");
  const subjectReverse = await face(subjectLook, "reverse");
  ids.subject = await coin(
    projectA,
    "Uncatalogued silver coin",
    { metal: "silver", period: "Roman Republic" },
    { obverse: subjectObverse, reverse: subjectReverse },
  );
  // Close on both faces: the same drawings, re-encoded as JPEG (a re-photographed duplicate).
  const jpeg = (bytes: Buffer) => openImage(bytes).jpeg({ quality: 80 }).toBuffer();
  ids.copy = await coin(projectA, "Re-encoded copy", { ...kinds.denarius }, { obverse: await jpeg(subjectObverse), reverse: await jpeg(subjectReverse) });
  // Identical on ONE face only: the subject's obverse with a bronze as's reverse.
  ids.oneFace = await coin(
    projectA,
    "Same obverse, other reverse",
    { ...kinds.as },
    {
      obverse: subjectObverse,
      reverse: await face({ key: "one-face", ...kinds.as }, "reverse"),
    },
  );
  // In the restricted project: an identical coin with a typology only insiders may learn.
  ids.secret = await coin(
    projectR,
    "Restricted twin",
    { metal: "silver", typology: "secret-type", period: "Roman Republic", date: { from: -300, to: -290 } },
    {
      obverse: subjectObverse,
      reverse: subjectReverse,
    },
  );
  await drain();
}, 240_000);

closeAfterAll(() => db);

describe("object indexing", () => {
  it("describes every image field, makes thumbnails and a context vector, through the queue", async () => {
    const rows = await db.sql.query<{ kind: string; view: string; count: number }>(
      `SELECT kind, view, count(*)::int AS count FROM object_vectors WHERE record_id = ANY($1::text[]) GROUP BY kind, view ORDER BY kind, view`,
      [Object.values(ids)],
    );
    const records = Object.keys(ids).length;
    expect(rows).toEqual([
      { kind: "context", view: "", count: records },
      { kind: "image", view: "obverse", count: records },
      { kind: "image", view: "reverse", count: records },
    ]);
    const media = await db.prisma.media.findMany({ where: { recordId: ids.subject } });
    expect(media).toHaveLength(2);
    for (const item of media) {
      expect(item.thumbnailKey).toBe(`thumbs/${item.id}.webp`);
      const thumbnail = await openImage(join(storageDir, item.thumbnailKey ?? "")).metadata();
      expect(Math.max(thumbnail.width ?? 0, thumbnail.height ?? 0)).toBeLessThanOrEqual(160);
    }
    expect(await db.sql.query(`SELECT 1 FROM index_queue`)).toHaveLength(0);
  });

  it("serves a thumbnail only to those who may read its record's project", async () => {
    const [image] = await db.prisma.media.findMany({ where: { recordId: ids.subject }, take: 1 });
    const request = { id: image?.id ?? "", range: null, method: "GET" as const, storageDir, variant: "thumb" as const };
    const response = await mediaResponse(db.prisma, researcher, request);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/webp");
    expect(Number(response.headers.get("content-length"))).toBeLessThan(image?.size ?? 0);
    await expect(mediaResponse(db.prisma, outsider, request)).rejects.toMatchObject({ code: "not_found" });
    const [secret] = await db.prisma.media.findMany({ where: { recordId: ids.secret }, take: 1 });
    await expect(mediaResponse(db.prisma, researcher, { ...request, id: secret?.id ?? "" })).rejects.toMatchObject({ code: "not_found" });
  });

  it("keeps unchanged vectors, and replaces the vector and thumbnail of a replaced image", async () => {
    const again = await saveRecord(db.prisma, systemPrincipal, {
      id: ids.antoninianus2,
      version: 1,
      sectionSlug: "test-coins",
      projectId: projectA,
      values: {
        ...((await db.prisma.record.findUniqueOrThrow({ where: { id: ids.antoninianus2 } })).values as Record<string, unknown>),
        reverse: await store(projectA, await face({ key: "new-reverse", ...kinds.antoninianus }, "reverse"), "new.webp"),
      },
    });
    expect(again.removedStorageKeys.some((key) => key.startsWith("thumbs/"))).toBe(true);
    const before = await db.sql.query<{ field_key: string; source_hash: string }>(
      `SELECT field_key, source_hash FROM object_vectors WHERE record_id = $1 ORDER BY field_key`,
      [ids.antoninianus2],
    );
    const progress = await drain();
    const after = await db.sql.query<{ field_key: string; source_hash: string }>(
      `SELECT field_key, source_hash FROM object_vectors WHERE record_id = $1 ORDER BY field_key`,
      [ids.antoninianus2],
    );
    // Only the reverse was described again; the obverse and the context kept their vectors.
    expect(progress.objectVectors).toBe(1);
    expect(after.find((row) => row.field_key === "obverse")).toEqual(before.find((row) => row.field_key === "obverse"));
    expect(after.find((row) => row.field_key === "reverse")?.source_hash).not.toBe(before.find((row) => row.field_key === "reverse")?.source_hash);
  });
});

describe("similar objects", () => {
  it("ranks an object close on both faces above one identical on a single face", async () => {
    const result = await findSimilarObjects(runtime, curator, { recordId: ids.subject ?? "", mode: "visual", limit: 10 });
    expect(result.status).toBe("ok");
    expect(result.views).toEqual(["obverse", "reverse"]);
    const order = result.neighbours.map((neighbour) => neighbour.recordId);
    expect(order.indexOf(ids.copy ?? "")).toBe(0);
    expect(order.indexOf(ids.oneFace ?? "")).toBeGreaterThan(0);
    // …although the single-face match is the closer one on that face.
    const oneFace = result.neighbours.find((neighbour) => neighbour.recordId === ids.oneFace);
    const copy = result.neighbours[0];
    expect(oneFace?.similarities["view:obverse"]).toBeGreaterThan(copy?.similarities["view:obverse"] ?? 1);
    expect(copy?.images.map((image) => image.view)).toEqual(["obverse", "reverse"]);
    expect(order).not.toContain(ids.subject);
  });

  it("hybrid mode adds the catalogue context; near-duplicates keep only copies above the floor", async () => {
    const hybrid = await findSimilarObjects(runtime, curator, { recordId: ids.subject ?? "", mode: "hybrid", limit: 10 });
    expect(hybrid.usedContext).toBe(true);
    expect(hybrid.neighbours[0]?.contextSimilarity).not.toBeNull();
    const near = await findSimilarObjects(runtime, curator, { recordId: ids.subject ?? "", mode: "near_duplicate" });
    expect(near.floor).toBe(0.97);
    expect(near.neighbours.map((neighbour) => neighbour.recordId)).toEqual([ids.copy]);
  });

  it("never shows neighbours from projects the principal cannot read, in results or proposals", async () => {
    for (const mode of ["hybrid", "visual", "near_duplicate"] as const) {
      const forResearcher = await findSimilarObjects(runtime, researcher, { recordId: ids.subject ?? "", mode, limit: 48 });
      expect(forResearcher.neighbours.map((neighbour) => neighbour.recordId)).not.toContain(ids.secret);
      const forInsider = await findSimilarObjects(runtime, insider, { recordId: ids.subject ?? "", mode, limit: 48 });
      expect(forInsider.neighbours.map((neighbour) => neighbour.recordId)).toContain(ids.secret);
    }
    const characterisation = await characteriseObject(runtime, researcher, { recordId: ids.subject ?? "" });
    const serialised = JSON.stringify(characterisation.roles);
    expect(serialised).not.toContain(ids.secret);
    expect(serialised).not.toContain("secret-type");
    expect(characterisation.evidenceProjectIds).toEqual([projectA]);
  });

  it("answers a principal who may not read the object exactly as for a missing one", async () => {
    const denied = await findSimilarObjects(runtime, outsider, { recordId: ids.subject ?? "" }).catch((error: unknown) => error);
    const missing = await findSimilarObjects(runtime, outsider, { recordId: "00000000-0000-4000-8000-000000000000" }).catch((error: unknown) => error);
    const malformed = await findSimilarObjects(runtime, outsider, { recordId: "../../etc" }).catch((error: unknown) => error);
    for (const error of [denied, missing, malformed]) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe("not_found");
      expect((error as AppError).message).toBe((denied as AppError).message);
    }
    await expect(characteriseObject(runtime, outsider, { recordId: ids.subject ?? "" })).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("characterisation and curator review", () => {
  it("proposes the typology, material, period and date from the nearest catalogued coins", async () => {
    const result = await characteriseObject(runtime, curator, { recordId: ids.subject ?? "" });
    const typology = result.roles.find((role) => role.role === "typology");
    expect(typology?.current).toBe("");
    expect(typology?.categorical?.value).toBe("denarius");
    expect(typology?.categorical?.confidence).toBeGreaterThan(0.5);
    expect(typology?.support.every((neighbour) => neighbour.roles.typology === "denarius")).toBe(true);
    const date = result.roles.find((role) => role.role === "date");
    expect(date?.date?.earliest).toBeLessThanOrEqual(-150);
    expect(date?.date?.latest).toBeGreaterThanOrEqual(-150);
    expect(result.roles.find((role) => role.role === "material")?.current).toBe("silver");
  });

  it("reads each image leg's candidates once for all role groups", async () => {
    const statements: string[] = [];
    const counting = countingSql(statements);
    const result = await characteriseObject({ ...runtime, sql: counting }, curator, { recordId: ids.subject ?? "" });
    expect(result.usedContext).toBe(true);
    // Two faces read once, and one catalogue-context leg per role group (typology; material; period and date).
    expect(statements.filter((text) => /FROM object_vectors v JOIN records r/.test(text))).toHaveLength(2 + 3);
    expect(result.roles.find((role) => role.role === "typology")?.categorical?.value).toBe("denarius");
  });

  it("lets a page's two object panels read the object and the faces' candidates once, with the same results", async () => {
    const statements: string[] = [];
    const counting = countingSql(statements);
    const counted = { ...runtime, sql: counting };
    const recordId = ids.subject ?? "";
    const alone = [
      await findSimilarObjects(counted, researcher, { recordId, mode: "hybrid", limit: 12 }),
      await characteriseObject(counted, researcher, { recordId }),
    ];
    const apart = statements.length;
    statements.length = 0;
    const subject = await loadObjectSubject(counting, researcher, recordId);
    const reads = neighbourReads();
    const together = [
      await findSimilarObjects(counted, researcher, { recordId, mode: "hybrid", limit: 12 }, { subject, reads }),
      await characteriseObject(counted, researcher, { recordId, subject, reads }),
    ];
    expect(together).toEqual(alone);
    // The object once instead of twice, each face's candidate list once, the shared candidates' vectors and details once.
    expect(statements.length).toBeLessThanOrEqual(apart - 4);
  });

  it("a researcher sees proposals but cannot decide them, and nothing is written", async () => {
    const versionBefore = (await db.prisma.record.findUniqueOrThrow({ where: { id: ids.subject } })).version;
    for (const action of ["accept", "reject"] as const) {
      await expect(decideProposal(runtime, db.prisma, researcher, { action, recordId: ids.subject ?? "", role: "typology" })).rejects.toMatchObject({
        code: "forbidden",
      });
    }
    await expect(
      decideProposal(runtime, db.prisma, researcher, { action: "override", recordId: ids.subject ?? "", role: "typology", value: "as" }),
    ).rejects.toMatchObject({ code: "forbidden" });
    await expect(decideProposal(runtime, db.prisma, outsider, { action: "accept", recordId: ids.subject ?? "", role: "typology" })).rejects.toMatchObject({
      code: "not_found",
    });
    expect(await db.prisma.proposal.count({ where: { recordId: ids.subject } })).toBe(0);
    expect((await db.prisma.record.findUniqueOrThrow({ where: { id: ids.subject } })).version).toBe(versionBefore);
  });

  it("stores pending proposals for uncatalogued roles, visible only with every evidence project readable", async () => {
    // The insider reads the restricted project: their proposal's evidence includes the twin.
    const byInsider = await proposeForUncatalogued(runtime, insider, {});
    expect(byInsider.proposed).toBeGreaterThanOrEqual(2);
    const insiderView = await listPendingProposals(runtime, insider);
    expect(insiderView.proposals.some((proposal) => proposal.recordId === ids.subject && proposal.role === "typology")).toBe(true);
    const researcherView = await listPendingProposals(runtime, researcher);
    expect(researcherView.total).toBe(0);
    expect(await proposalsForRecord(runtime, researcher, ids.subject ?? "")).toEqual([]);
    await expect(proposeForUncatalogued(runtime, researcher, {})).rejects.toMatchObject({ code: "forbidden" });

    // Withdrawn: the curator's own proposals are computed under the curator's access.
    await db.prisma.proposal.deleteMany({ where: { recordId: ids.subject } });
    const byCurator = await proposeForUncatalogued(runtime, curator, {});
    expect(byCurator.proposed).toBeGreaterThanOrEqual(2);
    const pending = await listPendingProposals(runtime, researcher);
    const typology = pending.proposals.find((proposal) => proposal.recordId === ids.subject && proposal.role === "typology");
    expect(typology?.value).toBe("denarius");
    expect(typology?.evidence.voters.length).toBeGreaterThan(0);
    expect(JSON.stringify(pending)).not.toContain(ids.secret);
    // Proposing again adds nothing: one pending proposal per record and role.
    expect((await proposeForUncatalogued(runtime, curator, {})).proposed).toBe(0);
  });

  it("a curator accepts through the normal save (validated, versioned, audited) and the accuracy report counts it", async () => {
    const before = await db.prisma.record.findUniqueOrThrow({ where: { id: ids.subject } });
    await expect(
      decideProposal(runtime, db.prisma, curator, { action: "accept", recordId: ids.subject ?? "", role: "typology", expected: "as" }),
    ).rejects.toMatchObject({ code: "conflict" });
    const decided = await decideProposal(runtime, db.prisma, curator, {
      action: "accept",
      recordId: ids.subject ?? "",
      role: "typology",
      expected: "denarius",
    });
    expect(decided).toEqual({ status: "accepted", recordVersion: before.version + 1 });
    const after = await db.prisma.record.findUniqueOrThrow({ where: { id: ids.subject } });
    expect((after.values as Record<string, unknown>).typology).toBe("denarius");
    // The decision's save is a version in the record's history, naming the proposal's field.
    expect(await db.prisma.recordVersion.findUnique({ where: { recordId_version: { recordId: after.id, version: after.version } } })).toMatchObject({
      via: "proposal",
      savedById: curator.userId,
      details: { role: "typology" },
    });
    const audit = await db.prisma.auditEvent.findMany({
      where: { projectId: projectA, action: { in: ["proposal.accept", "record.update"] } },
      orderBy: { at: "desc" },
      take: 2,
    });
    expect(audit.map((event) => event.action).sort()).toEqual(["proposal.accept", "record.update"]);
    // The record went back to the queue through the save.
    expect(await db.sql.query(`SELECT 1 FROM index_queue WHERE record_id = $1`, [ids.subject])).toHaveLength(1);

    // A pending proposal leaves the queue once its role is filled in by an ordinary edit.
    const pendingDates = async () => (await listPendingProposals(runtime, curator, { role: "date" })).proposals.map((proposal) => proposal.recordId);
    expect(await pendingDates()).toContain(ids.subject);
    const current = await db.prisma.record.findUniqueOrThrow({ where: { id: ids.subject } });
    const edited = await saveRecord(db.prisma, curator, {
      id: current.id,
      version: current.version,
      sectionSlug: "test-coins",
      projectId: projectA,
      values: { ...(current.values as Record<string, unknown>), date: { from: -150, to: -140 } },
    });
    expect(await pendingDates()).not.toContain(ids.subject);
    const restored = { ...(current.values as Record<string, unknown>) };
    delete restored.date;
    await saveRecord(db.prisma, curator, { id: current.id, version: edited.version, sectionSlug: "test-coins", projectId: projectA, values: restored });
    expect(await pendingDates()).toContain(ids.subject);

    // An override with a value the field does not allow writes nothing.
    await expect(
      decideProposal(runtime, db.prisma, curator, { action: "override", recordId: ids.subject ?? "", role: "date", value: "not a range" }),
    ).rejects.toMatchObject({ code: "bad_request" });
    await expect(
      decideProposal(runtime, db.prisma, curator, { action: "override", recordId: ids.subject ?? "", role: "date", value: { from: -250, to: -300 } }),
    ).rejects.toThrow();
    const overridden = await decideProposal(runtime, db.prisma, curator, {
      action: "override",
      recordId: ids.subject ?? "",
      role: "date",
      value: { from: -200, to: -170 },
    });
    expect(overridden.status).toBe("overridden");
    expect((await db.prisma.record.findUniqueOrThrow({ where: { id: ids.subject } })).values).toMatchObject({ date: { from: -200, to: -170 } });
    const rejected = await decideProposal(runtime, db.prisma, curator, { action: "reject", recordId: ids.subject ?? "", role: "material" });
    expect(rejected).toEqual({ status: "rejected", recordVersion: null });
    expect((await db.prisma.record.findUniqueOrThrow({ where: { id: ids.subject } })).values).toMatchObject({ metal: "silver" });

    const accuracy = await proposalAccuracy(runtime, curator);
    expect(accuracy.find((row) => row.role === "typology")).toMatchObject({ decided: 1, accepted: 1, accuracy: 1 });
    expect(accuracy.find((row) => row.role === "date")).toMatchObject({ decided: 1, overridden: 1, accuracy: 0 });
    expect(accuracy.find((row) => row.role === "material")).toMatchObject({ decided: 1, rejected: 1, accuracy: 0 });
    // An outsider's report counts nothing.
    expect((await proposalAccuracy(runtime, outsider)).every((row) => row.decided === 0)).toBe(true);
  });
});

describe("refused uploads", () => {
  it("leave no file and no row behind", async () => {
    const dir = temporaryStorageDir();
    const mediaBefore = await db.prisma.media.count();
    const tiny = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#808080" } })
      .png()
      .toBuffer();
    const strip = await sharp({ create: { width: 2000, height: 40, channels: 3, background: "#808080" } })
      .png()
      .toBuffer();
    const good = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#808080" } })
      .png()
      .toBuffer();
    // Cut inside its header; a body cut short reads and is refused by the worker (below).
    const truncated = good.subarray(0, 20);
    const cases: [string, Uint8Array, number, RegExp][] = [
      ["corrupt.png", truncated, 400, /could not be read/],
      ["words.png", new TextEncoder().encode("not an image at all, just words"), 415, /not supported/],
      ["tiny.png", tiny, 400, /at least 16 pixels/],
      ["strip.png", strip, 400, /longer than 30 times/],
      ["audio.ogg", new Uint8Array([0x4f, 0x67, 0x67, 0x53, 0, 2, ...new Array(40).fill(0)]), 415, /Expected an image/],
      // Decompression bombs, refused from the header before a pixel is decoded.
      ["bomb.png", await solidPng(9000, 9000), 413, /9,000 × 9,000 pixels \(81 megapixels\); images may have at most 64 megapixels/],
      ["liar.png", await pngDeclaring(12_000, 12_000), 413, /12,000 × 12,000 pixels \(144 megapixels\)/],
    ];
    for (const [name, bytes, status, message] of cases) {
      const started = performance.now();
      const error = await storeMedia(db.prisma, systemPrincipal, {
        projectId: projectA,
        file: { name, bytes },
        expectedKind: "image",
        storageDir: dir,
        maxBytes: 5 * 1024 * 1024,
      }).catch((caught: unknown) => caught);
      expect(error, name).toBeInstanceOf(AppError);
      expect((error as AppError).status, name).toBe(status);
      expect((error as AppError).message, name).toMatch(message);
      expect(performance.now() - started, name).toBeLessThan(1000);
    }
    expect(await db.prisma.media.count()).toBe(mediaBefore);
    expect(filesUnder(dir)).toEqual([]);
  });
});

describe("editing a section's object context", () => {
  it("only admins may; invalid contexts never save and name each problem; saving re-queues the section", async () => {
    const admin = await principalOf(db.prisma, (await createUser(db.prisma, { role: "admin" })).id);
    const section = await db.prisma.section.create({ data: { slug: `ctx-${Date.now()}`, name: "Context test", fields: fields as never } });
    await saveRecord(db.prisma, systemPrincipal, { sectionSlug: section.slug, projectId: projectA, values: { title: "A coin" } });
    await db.sql.query(`DELETE FROM index_queue`);
    const valid = { ...context, compareWith: [section.slug] };
    for (const who of [curator, researcher, outsider]) {
      await expect(saveObjectContext(db.prisma, db.sql, who, { sectionSlug: section.slug, context: valid })).rejects.toMatchObject({ code: "not_found" });
    }
    const invalid = await saveObjectContext(db.prisma, db.sql, admin, {
      sectionSlug: section.slug,
      context: { images: [{ field: "title", view: "x" }], roles: { date: "metal" }, compareWith: ["nowhere"] },
    }).catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(AppError);
    expect((invalid as AppError).fieldErrors).toEqual({
      "images.0.field": ['"Title" is not an image field'],
      "roles.date": ['the date must be a date-range field, "Metal" is category'],
      "compareWith.0": ['unknown section "nowhere"'],
    });
    expect((await db.prisma.section.findUniqueOrThrow({ where: { id: section.id } })).objectContext).toBeNull();
    await expect(
      saveObjectContext(db.prisma, db.sql, admin, { sectionSlug: section.slug, context: { ...valid, nearDuplicateFloor: 2 } }),
    ).rejects.toMatchObject({ code: "bad_request" });

    const saved = await saveObjectContext(db.prisma, db.sql, admin, { sectionSlug: section.slug, context: valid });
    expect(saved.queued).toBe(1);
    expect((await db.prisma.section.findUniqueOrThrow({ where: { id: section.id } })).objectContext).toEqual(valid);
    expect(await db.prisma.auditEvent.count({ where: { action: "section.object_context", targetId: section.id } })).toBe(1);
    await saveObjectContext(db.prisma, db.sql, admin, { sectionSlug: section.slug, context: null });
    expect((await db.prisma.section.findUniqueOrThrow({ where: { id: section.id } })).objectContext).toBeNull();
    await db.sql.query(`DELETE FROM index_queue`);
  });
});

describe("image decoding off the request", () => {
  it("stores a large image after reading its header only; the worker decodes it", async () => {
    const large = await solidPng(7000, 7000);
    let started = performance.now();
    const id = await store(projectA, large, "large.png");
    const storing = performance.now() - started;
    started = performance.now();
    expect(await decodeProblem(large)).toBeNull();
    const decoding = performance.now() - started;
    console.log(`49 MP PNG: stored in ${storing.toFixed(0)} ms; a full decode takes ${decoding.toFixed(0)} ms`);
    expect(storing).toBeLessThan(decoding / 4);
    expect((await db.prisma.media.findUniqueOrThrow({ where: { id } })).imageCheck).toBe("pending");
    const record = await saveRecord(db.prisma, systemPrincipal, {
      sectionSlug: "test-coins",
      projectId: projectA,
      values: { title: "Large photograph", obverse: id },
    });
    await drain();
    expect((await db.prisma.media.findUniqueOrThrow({ where: { id } })).imageCheck).toBe("decoded");
    expect(await db.prisma.objectVector.count({ where: { recordId: record.id, mediaId: id } })).toBe(1);
  });

  it("keeps an image whose body does not decode, marks it undecodable, and never serves or indexes it as a picture", async () => {
    const damaged = await truncatedJpeg();
    const look = { key: "damaged", ...kinds.denarius };
    // The old upload decoded every pixel on the request and refused this file; now the request
    // reads its header (320×240, fine) and stores it for the worker to decode.
    const obverse = await store(projectA, damaged, "damaged-obverse.jpg");
    const reverse = await store(projectA, await face(look, "reverse"), "reverse.webp");
    expect((await db.prisma.media.findUniqueOrThrow({ where: { id: obverse } })).imageCheck).toBe("pending");
    const record = await saveRecord(db.prisma, curator, {
      sectionSlug: "test-coins",
      projectId: projectA,
      values: { title: "Damaged obverse", obverse, reverse },
    });
    const progress = await drain();
    expect(progress.failed).toBe(0);

    const rows = await db.prisma.media.findMany({ where: { recordId: record.id }, orderBy: { fieldKey: "asc" } });
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(obverse)).toMatchObject({ imageCheck: "undecodable", thumbnailKey: null });
    expect(byId.get(reverse)?.imageCheck).toBe("decoded");
    // Its file is kept as uploaded: nothing a person sent is lost.
    expect(filesUnder(storageDir).some((path) => path.endsWith(byId.get(obverse)?.storageKey ?? "?"))).toBe(true);
    const vectors = await db.prisma.objectVector.findMany({ where: { recordId: record.id }, select: { kind: true, view: true } });
    expect(vectors.map((vector) => `${vector.kind}:${vector.view}`).sort()).toEqual(["image:reverse"]);
    const [event] = await db.sql.query<{ target_id: string; details: { reason: string; recordId: string } }>(
      `SELECT target_id, details FROM audit_events WHERE action = 'media.undecodable' AND target_id = $1`,
      [obverse],
    );
    expect(event?.details.recordId).toBe(record.id);
    expect(event?.details.reason).toMatch(/premature end|truncated|corrupt/i);

    // Served only as a download, never as an image; the record page shows the state.
    const response = await mediaResponse(db.prisma, researcher, { id: obverse, range: null, method: "GET", storageDir, variant: "original" });
    expect(response.headers.get("content-type")).toBe("application/octet-stream");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="damaged-obverse\.jpg"$/);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(damaged);
    const thumb = await mediaResponse(db.prisma, researcher, { id: obverse, range: null, method: "GET", storageDir, variant: "thumb" });
    expect(thumb.headers.get("content-type")).toBe("application/octet-stream");
    await thumb.arrayBuffer();
    const detail = await getRecord(db.prisma, researcher, record.id);
    expect(detail.media[obverse]?.imageCheck).toBe("undecodable");
    expect(detail.media[reverse]?.imageCheck).toBe("decoded");
  });
});

describe("catalogue context vectors of a batch", () => {
  it("are embedded in one call, each distinct text once; a text indexed before comes from the cache", async () => {
    const calls: string[][] = [];
    const counting: Embedder = {
      ...embedder,
      embed: (texts, kind, work) => {
        calls.push([...texts]);
        return embedder.embed(texts, kind, work);
      },
    };
    const created: string[] = [];
    const gold = { metal: "gold", typology: "denarius", period: "Roman Imperial" };
    for (const [key, values] of [
      ["gold-1", gold],
      ["gold-2", gold],
      ["as-again", { metal: "bronze", typology: "as", period: "Roman Republic" }],
    ] as const) {
      const look = { key, ...values };
      created.push(await coin(projectA, key, values, { obverse: await face(look, "obverse"), reverse: await face(look, "reverse") }));
    }
    const progress = await runWorker({
      prisma: db.prisma,
      sql: db.sql,
      embedder: counting,
      space,
      drain: true,
      idleMs: 10,
      batchSize: 8,
      objects: { storageDir, imageEmbedders: [descriptor] },
    });
    expect(progress.failed).toBe(0);
    // The two gold coins share one catalogue text; the bronze as's text was embedded by the first drain.
    const contextCalls = calls.filter((texts) => texts.every((text) => /^(Typology|Metal|Period): /.test(text)));
    expect(contextCalls).toEqual([["Typology: denarius. Metal: gold. Period: Roman Imperial."]]);
    const vectors = await db.sql.query<{ record_id: string }>(`SELECT record_id FROM object_vectors WHERE kind = 'context' AND record_id = ANY($1::text[])`, [
      created,
    ]);
    expect(vectors).toHaveLength(3);

    // Two lanes, a record per batch: the lanes' counts add up (a count read before an await once lost the other lane's).
    for (const key of ["gold-3", "gold-4", "gold-5"]) {
      const look = { key, ...gold };
      await coin(projectA, key, gold, { obverse: await face(look, "obverse"), reverse: await face(look, "reverse") });
    }
    const lanes = await runWorker({
      prisma: db.prisma,
      sql: db.sql,
      embedder,
      space,
      drain: true,
      idleMs: 10,
      batchSize: 1,
      concurrency: 2,
      objects: { storageDir, imageEmbedders: [descriptor] },
    });
    expect(lanes).toMatchObject({ indexed: 3, failed: 0, objectVectors: 3 * 3 });
  });
});
