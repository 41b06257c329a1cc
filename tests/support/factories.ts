import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { type Principal, systemPrincipal } from "../../lib/acl";
import type { FieldDefinition } from "../../lib/archive/field-definitions";
import { storeMedia } from "../../lib/archive/media-storage";
import { saveRecord } from "../../lib/archive/save-record";
import { createApiToken } from "../../lib/auth/api-tokens";
import { hashPassword } from "../../lib/auth/passwords";
import { loadPrincipal } from "../../lib/auth/load-principal";
import type { PrismaClient } from "../../lib/db/generated/client";
import { listEmbedGroups, sectionShapes } from "../../lib/rag/config/embed-groups";
import type { ObjectContext } from "../../lib/rag/config/object-context";
import type { SqlExecutor } from "../../lib/db/sql-executor";
import { CHUNKER_VERSION } from "../../lib/rag/chunk";
import type { Embedder } from "../../lib/rag/embed/embedder";
import type { IndexingContext } from "../../lib/rag/index/index-record";
import { ensureIndexSpace, type IndexSpace } from "../../lib/rag/index/index-spaces";
import { saveEmbedGroup } from "../../lib/rag/index/save-embed-group";

/** Factories: each call makes uniquely named data, so tests never depend on one global fixture. */
const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

export async function createUser(prisma: PrismaClient, options: { role?: "admin" | "curator" | "researcher"; password?: string; email?: string } = {}) {
  return prisma.user.create({
    data: {
      email: options.email ?? `${unique("user")}@example.test`,
      name: unique("User"),
      role: options.role ?? "researcher",
      passwordHash: options.password ? await hashPassword(options.password) : null,
    },
  });
}

export async function createProject(prisma: PrismaClient, options: { restricted?: boolean } = {}) {
  const slug = unique("project");
  return prisma.project.create({ data: { slug, name: `Project ${slug}`, restricted: options.restricted ?? false } });
}

export async function addMember(prisma: PrismaClient, userId: string, projectId: string, role: "reader" | "editor" = "reader") {
  return prisma.membership.create({ data: { userId, projectId, role } });
}

/**
 * A token with the write scope whose user may edit nothing: the page and the service give write
 * only to someone who edits some project, so this is the token of a user whose editing rights were
 * withdrawn after it was made. Every write it attempts must still be refused.
 */
export async function writeTokenWithoutEditRights(prisma: PrismaClient, principal: Principal, name = "write token without edit rights"): Promise<string> {
  const created = await createApiToken(prisma, principal, { name, expiresInDays: 30 });
  await prisma.apiToken.update({ where: { id: created.summary.id }, data: { scopes: ["read", "write"] } });
  return created.token;
}

export async function principalOf(prisma: PrismaClient, userId: string): Promise<Principal> {
  const principal = await loadPrincipal(prisma, userId, 0);
  if (!principal) throw new Error("user has no principal");
  return principal;
}

/** A new user of the role, made a member of the project, as the principal the services see. */
export async function memberPrincipal(
  prisma: PrismaClient,
  projectId: string,
  options: { role?: "curator" | "researcher"; membership?: "reader" | "editor" } = {},
): Promise<Principal> {
  const user = await createUser(prisma, { role: options.role });
  await addMember(prisma, user.id, projectId, options.membership);
  return principalOf(prisma, user.id);
}

export const testFields: FieldDefinition[] = [
  { key: "title", label: "Title", type: "text", required: true, listed: true },
  { key: "summary", label: "Summary", type: "longtext" },
  { key: "kind", label: "Kind", type: "category", options: ["letter", "photograph", "interview"] },
  { key: "period", label: "Period", type: "daterange" },
  { key: "recordedOn", label: "Recorded on", type: "date" },
  { key: "related", label: "Related", type: "relation", targetSection: "SELF", multiple: true },
  { key: "photo", label: "Photo", type: "image", view: "front" },
  { key: "recording", label: "Recording", type: "media", mediaKind: "audio" },
  { key: "transcript", label: "Transcript", type: "transcript", mediaField: "recording" },
];

export async function createSection(prisma: PrismaClient, fields: FieldDefinition[] = testFields) {
  const slug = unique("section");
  const resolved = fields.map((field) => (field.type === "relation" && field.targetSection === "SELF" ? { ...field, targetSection: slug } : field));
  return prisma.section.create({ data: { slug, name: `Section ${slug}`, fields: resolved } });
}

export async function createRecord(
  prisma: PrismaClient,
  section: { slug: string },
  projectId: string,
  values: Record<string, unknown> = {},
  principal: Principal = systemPrincipal,
) {
  const saved = await saveRecord(prisma, principal, {
    sectionSlug: section.slug,
    projectId,
    values: { title: unique("Record"), ...values },
  });
  return prisma.record.findUniqueOrThrow({ where: { id: saved.id } });
}

export function temporaryStorageDir(): string {
  return mkdtempSync(join(tmpdir(), "mnemo-media-"));
}

export async function pngBytes(width = 32, height = 24): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp({ create: { width, height, channels: 3, background: { r: 120, g: 90, b: 60 } } })
      .png()
      .toBuffer(),
  );
}

export async function storeTestImage(prisma: PrismaClient, projectId: string, storageDir: string) {
  return storeMedia(prisma, systemPrincipal, {
    projectId,
    file: { name: "photo.png", bytes: await pngBytes() },
    expectedKind: "image",
    storageDir,
    maxBytes: 10 * 1024 * 1024,
  });
}

/** A plain text section's fields: a listed title and a summary. */
export const noteFields: FieldDefinition[] = [
  { key: "title", label: "Title", type: "text", required: true, listed: true },
  { key: "summary", label: "Summary", type: "longtext" },
];

/** A small coin section (two faces, typology, metal, period, date) and its object context. */
export const coinFields: FieldDefinition[] = [
  { key: "title", label: "Title", type: "text", required: true, listed: true },
  { key: "metal", label: "Metal", type: "category", options: ["silver", "bronze"] },
  { key: "typology", label: "Typology", type: "category", options: ["denarius", "as"] },
  { key: "period", label: "Period", type: "category", options: ["Roman Republic", "Roman Imperial"] },
  { key: "date", label: "Date", type: "daterange" },
  { key: "obverse", label: "Obverse", type: "image", view: "obverse" },
  { key: "reverse", label: "Reverse", type: "image", view: "reverse" },
];

export function coinContextFor(sectionSlug: string, nearDuplicateFloor = 0.97): ObjectContext {
  return {
    images: [
      { field: "obverse", view: "obverse" },
      { field: "reverse", view: "reverse" },
    ],
    roles: { typology: "typology", material: "metal", period: "period", date: "date" },
    compareWith: [sectionSlug],
    nearDuplicateFloor,
  };
}

/** A title and a summary, neither listed: the smallest section a search or index test needs. */
export const titleSummaryFields: FieldDefinition[] = [
  { key: "title", label: "Title", type: "text", required: true },
  { key: "summary", label: "Summary", type: "longtext" },
];

/** The index space of `embedder` with the current chunker, as the worker and search use it. */
export function testIndexSpace(sql: SqlExecutor, embedder: Pick<Embedder, "provider" | "model" | "dimension">): Promise<IndexSpace> {
  return ensureIndexSpace(sql, { provider: embedder.provider, model: embedder.model, dimension: embedder.dimension, chunkerVersion: CHUNKER_VERSION });
}

/**
 * A source section and a section whose records cite one source by relation, indexed as one
 * short-chunked group over title, summary and the source's summary: the shape every test of
 * derived access (a passage quoting another project's text) starts from.
 */
export async function createQuotingSections(prisma: PrismaClient, sql: SqlExecutor) {
  const sources = await createSection(prisma, titleSummaryFields);
  const section = await createSection(prisma, [...titleSummaryFields, { key: "source", label: "Source", type: "relation", targetSection: sources.slug }]);
  await saveEmbedGroup(prisma, sql, {
    sectionSlug: section.slug,
    group: { slug: "all", label: "All", fields: ["title", "summary", "source.summary"], chunking: "short", maxTokens: 128, minTokens: 1, overlap: 0 },
    requeue: false,
  });
  return { sources, section };
}

/** A reader of `projectId`, a signed-in user with no project and an admin. */
export async function readerNobodyAdmin(prisma: PrismaClient, projectId: string): Promise<{ reader: Principal; nobody: Principal; admin: Principal }> {
  const readerUser = await createUser(prisma);
  await addMember(prisma, readerUser.id, projectId);
  return {
    reader: await principalOf(prisma, readerUser.id),
    nobody: await principalOf(prisma, (await createUser(prisma)).id),
    admin: await principalOf(prisma, (await createUser(prisma, { role: "admin" })).id),
  };
}

/** Saves the "all" embed group of a section: the fields given, short chunks of at most `maxTokens`, not requeued. */
export function saveAllGroup(prisma: PrismaClient, sql: SqlExecutor, sectionSlug: string, fields: string[], maxTokens = 128) {
  return saveEmbedGroup(prisma, sql, {
    sectionSlug,
    group: { slug: "all", label: "All", fields, chunking: "short", maxTokens, minTokens: 1, overlap: 0 },
    requeue: false,
  });
}

/** What indexRecord needs: the index space, the embedder, and the current sections with their embed groups. */
export async function indexingContext(prisma: PrismaClient, sql: SqlExecutor, space: IndexSpace, embedder: Embedder): Promise<IndexingContext> {
  const groups = await listEmbedGroups(prisma);
  const groupsBySection = new Map<string, typeof groups>();
  for (const group of groups) groupsBySection.set(group.sectionId, [...(groupsBySection.get(group.sectionId) ?? []), group]);
  return { sql, space, embedder, sections: await sectionShapes(prisma), groupsBySection };
}

/**
 * The two sections the API and ACL probes share: `<prefix>-notes` (allowed to reach external
 * models, its `groupFields` embedded as one group) and `<prefix>-coins` (coins with `objectContext`).
 */
export async function createNotesAndCoins(
  prisma: PrismaClient,
  sql: SqlExecutor,
  options: { prefix: string; name: string; noteFields: FieldDefinition[]; groupFields: string[]; maxTokens?: number; objectContext: ObjectContext },
): Promise<void> {
  const { prefix, name } = options;
  await prisma.section.create({
    data: { slug: `${prefix}-notes`, name: `${name} notes`, fields: options.noteFields as never, egressPolicy: "allow_external" },
  });
  await prisma.section.create({
    data: { slug: `${prefix}-coins`, name: `${name} coins`, fields: coinFields as never, objectContext: options.objectContext as never },
  });
  await saveAllGroup(prisma, sql, `${prefix}-notes`, options.groupFields, options.maxTokens);
}
