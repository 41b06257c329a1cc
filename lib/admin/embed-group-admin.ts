import "server-only";
import { type Principal, actorIdOf, assertAdmin } from "../acl";
import { audit } from "../db/audit";
import { isUuid } from "../ids";
import type { PrismaClient } from "../db/generated/client";
import type { SqlExecutor } from "../db/sql-executor";
import { AppError, notFound } from "../errors";
import { buildGroupDocuments } from "../rag/config/build-group-document";
import { validateEmbedGroup } from "../rag/config/embed-group-schema";
import { type EmbedGroup, listEmbedGroups, sectionShapes } from "../rag/config/embed-groups";
import { saveEmbedGroup } from "../rag/index/save-embed-group";
import { chunkDocument, type DocumentChunk } from "../rag/chunk";
import { loadDocumentRecords } from "../rag/index/index-record";

/**
 * The embed-group editor's server side, for admins only: a live preview of what a group would
 * make of one record (the composed document and the passages it yields, before anything is
 * saved), saving (validated; re-queues the section; audited) and deleting a group.
 */
export interface GroupPreview {
  record: { id: string; title: string };
  document: string;
  /** Null when the group's languages leave this record out. */
  skipped: string | null;
  fieldPaths: string[];
  contributingSections: string[];
  chunks: DocumentChunk[];
}

/** Problems as field errors keyed by the form control they belong to. */
function invalid(errors: string[]): AppError {
  const fieldErrors: Record<string, string[]> = {};
  for (const error of errors) {
    const key = /^(slug|label|fields|chunking|maxTokens|minTokens|overlap|languages)\b/.exec(error)?.[1] ?? (error.startsWith('"') ? "fields" : "_form");
    (fieldErrors[key] ??= []).push(error);
  }
  return new AppError("bad_request", `The embed group is not valid: ${errors.join("; ")}`, { fieldErrors });
}

/** The section (not found for an unknown slug) and the group validated against every section. */
async function validatedGroup(prisma: PrismaClient, sectionSlug: string, input: unknown) {
  const sections = await sectionShapes(prisma);
  const section = sections.get(sectionSlug);
  if (!section) throw notFound();
  const validated = validateEmbedGroup(input, section.slug, sections);
  if (!validated.ok) throw invalid(validated.errors);
  return { sections, section, group: validated.group };
}

export async function previewEmbedGroup(
  prisma: PrismaClient,
  sql: SqlExecutor,
  principal: Principal,
  input: { sectionSlug: string; group: unknown; recordId?: string },
): Promise<GroupPreview | null> {
  assertAdmin(principal);
  const { sections, section, group } = await validatedGroup(prisma, input.sectionSlug, input.group);
  let recordId = input.recordId;
  if (recordId !== undefined && !isUuid(recordId)) throw new AppError("bad_request", "Choose a record of this section to preview.");
  if (recordId === undefined) {
    const first = await prisma.record.findFirst({ where: { sectionId: section.id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { id: true } });
    if (!first) return null;
    recordId = first.id;
  }
  const records = await loadDocumentRecords(sql, [recordId]);
  const record = records.get(recordId);
  if (!record || record.sectionId !== section.id) throw new AppError("bad_request", "Choose a record of this section to preview.");
  // As the indexer embeds it: one document per scope (buildGroupDocuments), shown one after another.
  const documents = await buildGroupDocuments(record, group, { sections, loadRecords: (ids) => loadDocumentRecords(sql, ids) });
  const names = new Map([...sections.values()].map((shape) => [shape.id, shape.name]));
  if (documents.length === 0) {
    return {
      record: { id: record.id, title: record.title },
      document: "",
      skipped: `This record's language is not one of the group's (${group.languages.join(", ")}).`,
      fieldPaths: [],
      contributingSections: [],
      chunks: [],
    };
  }
  const chunks: ReturnType<typeof chunkDocument> = [];
  let offset = 0;
  for (const document of documents) {
    for (const chunk of chunkDocument(document.text, {
      mode: group.chunking,
      maxTokens: group.maxTokens,
      minTokens: group.minTokens,
      overlap: group.overlap,
    })) {
      chunks.push({ ...chunk, ordinal: chunks.length, startOffset: chunk.startOffset + offset, endOffset: chunk.endOffset + offset });
    }
    offset += document.text.length + 2;
  }
  return {
    record: { id: record.id, title: record.title },
    document: documents.map((document) => document.text).join("\n\n"),
    skipped: null,
    fieldPaths: [...new Set(documents.flatMap((document) => document.fieldPaths))],
    contributingSections: [...new Set(documents.flatMap((document) => document.contributingSectionIds))].sort().map((id) => names.get(id) ?? id),
    chunks,
  };
}

export async function saveEmbedGroupAsAdmin(
  prisma: PrismaClient,
  sql: SqlExecutor,
  principal: Principal,
  input: { sectionSlug: string; group: unknown },
): Promise<{ group: EmbedGroup; queued: number }> {
  assertAdmin(principal);
  const validated = await validatedGroup(prisma, input.sectionSlug, input.group);
  const section = validated.section;
  const before = (await listEmbedGroups(prisma, section.id)).find((group) => group.slug === validated.group.slug) ?? null;
  const group = await saveEmbedGroup(prisma, sql, { sectionSlug: section.slug, group: validated.group, requeue: true });
  const [queued] = await sql.query<{ count: number }>(`SELECT count(*)::int AS count FROM records WHERE section_id = $1`, [section.id]);
  await audit(prisma, {
    actorId: actorIdOf(principal),
    action: before ? "embed-group.update" : "embed-group.create",
    targetType: "embed_group",
    targetId: group.id,
    details: JSON.parse(JSON.stringify({ section: section.slug, before, after: validated.group })),
  });
  return { group, queued: queued?.count ?? 0 };
}

export async function deleteEmbedGroup(prisma: PrismaClient, principal: Principal, input: { sectionSlug: string; groupId: string }): Promise<void> {
  assertAdmin(principal);
  if (!isUuid(input.groupId)) throw notFound();
  const group = await prisma.embedGroup.findFirst({ where: { id: input.groupId, section: { slug: input.sectionSlug } } });
  if (!group) throw notFound();
  await prisma.$transaction([
    // Its passages go with it (ON DELETE CASCADE); the other groups' passages are untouched.
    prisma.embedGroup.delete({ where: { id: group.id } }),
    audit(prisma, {
      actorId: actorIdOf(principal),
      action: "embed-group.delete",
      targetType: "embed_group",
      targetId: group.id,
      details: { section: input.sectionSlug, slug: group.slug, fields: group.fields },
    }),
  ]);
}

/** The records an admin may preview a group on: the section's first 200 by title. */
export async function listPreviewRecords(prisma: PrismaClient, sectionId: string): Promise<{ id: string; title: string }[]> {
  return prisma.record.findMany({ where: { sectionId }, orderBy: [{ title: "asc" }], take: 200, select: { id: true, title: true } });
}

/** Paths an admin can pick: the section's fields, and one step through each relation. */
export function fieldPathOptions(
  sections: ReadonlyMap<string, { slug: string; name: string; fields: { key: string; label: string; type: string; targetSection?: string }[] }>,
  sectionSlug: string,
): { path: string; label: string }[] {
  const section = sections.get(sectionSlug);
  if (!section) return [];
  const options: { path: string; label: string }[] = [];
  for (const field of section.fields) {
    options.push({ path: field.key, label: field.type === "relation" ? `${field.label} (title of the linked record)` : field.label });
    if (field.type !== "relation" || !field.targetSection) continue;
    const target = sections.get(field.targetSection);
    for (const inner of target?.fields ?? []) {
      if (inner.type === "relation") continue;
      options.push({ path: `${field.key}.${inner.key}`, label: `${field.label} › ${inner.label}` });
    }
  }
  return options;
}
