import "server-only";
import { type Principal, actorIdOf, canEdit, canEditProject, projectScopeWhere } from "../acl";
import { rescopeMovedRecords } from "../acl/derived-scope";
import { audit } from "../db/audit";
import { keepVersionsAs, type SaveThrough } from "../db/record-versions";
import type { Prisma, PrismaClient } from "../db/generated/client";
import { transactionSql } from "../db/sql-executor";
import { AppError, type FieldErrors, notFound } from "../errors";
import { enqueueDependents, enqueueIndexing } from "./enqueue-indexing";
import type { FieldDefinition } from "./field-definitions";
import { getSectionBySlug } from "./sections";
import { storedKeysOf, uploadAccepts } from "./media-storage";
import { recordTitle, recordYears, relationLinkRows, relationTargetsByField, type RecordValues, validateRecordValues } from "./validate-record-values";
import { isUuid } from "../ids";

export interface SaveRecordInput {
  /** Absent to create. */
  id?: string;
  /** The version the editor loaded; required when updating. */
  version?: number;
  sectionSlug: string;
  projectId: string;
  values: RecordValues;
  /** Extra details for the audit event, e.g. the API token an agent saved with. */
  auditDetails?: Record<string, string | number | boolean | null>;
  /**
   * Through what the save is made, as the record's history keeps it. Absent: the API or MCP when
   * `auditDetails` names the channel and token (the agent API's writes), else the record form.
   */
  through?: SaveThrough;
  /** Runs inside the save's transaction after the record is written (e.g. a proposal decision). */
  onSaved?: (tx: Prisma.TransactionClient, saved: { id: string; version: number }) => Promise<void>;
}

export const conflictMessage = "Someone else saved this record after you opened it. Reload to see their changes, then apply yours again.";

type Tx = Prisma.TransactionClient;

/**
 * A version the editor can have seen: a whole number within the column's 32-bit range. Anything
 * else cannot match a saved version, and the database would refuse to compare with it.
 */
export function assertRecordVersion(version: number | undefined): void {
  if (version === undefined || (Number.isSafeInteger(version) && version >= 1 && version <= 2_147_483_647)) return;
  const message = "The record version is not valid; reload the page and try again.";
  throw new AppError("bad_request", message, { fieldErrors: { version: [message] } });
}

/**
 * Creates or updates a record: validates every field, checks relation targets and media against
 * what the principal may read, and in ONE transaction writes the record, its relation links,
 * its media ownership, the indexing outbox rows (its own, and those of every record whose group
 * documents hold its text), the new scope of every passage holding its text when it moves to
 * another project, and an audit event — and the database keeps the version it makes in the record's
 * history (record_versions), named with `through`. A stale version is a conflict and writes nothing.
 */
export async function saveRecord(
  prisma: PrismaClient,
  principal: Principal,
  input: SaveRecordInput,
): Promise<{ id: string; version: number; removedStorageKeys: string[] }> {
  const section = await getSectionBySlug(prisma, input.sectionSlug);
  if (input.id !== undefined && !isUuid(input.id)) throw notFound();
  assertRecordVersion(input.version);
  const existing = input.id ? await prisma.record.findFirst({ where: { id: input.id, ...projectScopeWhere(principal) } }) : null;
  if (input.id && !existing) throw notFound();
  if (existing) {
    if (existing.sectionId !== section.id) throw new AppError("bad_request", "A record cannot move to another section.");
    if (!canEdit(principal, existing)) throw new AppError("forbidden", "You may read this record but not edit it.");
    if (input.version === undefined) throw new AppError("bad_request", "The record version is missing; reload the page.");
    if (existing.projectId !== input.projectId && !canEditProject(principal, input.projectId)) {
      throw new AppError("bad_request", "Choose a project you may edit.", { fieldErrors: { projectId: ["Choose a project you may edit."] } });
    }
  } else if (!canEditProject(principal, input.projectId)) {
    throw new AppError("bad_request", "Choose a project you may edit.", { fieldErrors: { projectId: ["Choose a project you may edit."] } });
  }

  const validated = validateRecordValues(section.fields, input.values);
  if (!validated.ok) throw new AppError("bad_request", "Some fields need attention.", { fieldErrors: validated.fieldErrors });
  const values = validated.values;
  const fieldErrors = {
    ...(await checkRelations(prisma, principal, section.fields, values)),
    ...(await checkMedia(prisma, section.fields, values, input.projectId, existing?.id)),
  };
  // An editor cannot see, and so cannot remove, links to records outside their projects, nor
  // links waiting for a project not yet restored: those are carried over from the saved version
  // untouched (the waiting ones without a link row, until restoring the project makes it).
  const waiting = existing ? await keepHiddenRelations(prisma, principal, section.fields, existing.values as RecordValues, values) : new Set<string>();
  if (Object.keys(fieldErrors).length > 0) throw new AppError("bad_request", "Some fields need attention.", { fieldErrors });

  const title = recordTitle(section.fields, values);
  const years = recordYears(section.fields, values);
  const data = {
    title,
    values: values as Prisma.InputJsonValue,
    dateFrom: years.from,
    dateTo: years.to,
    projectId: input.projectId,
    updatedById: principal.userId,
  };

  return prisma.$transaction(async (tx) => {
    // The version this save makes is kept by the database (record_versions' trigger), with this.
    await keepVersionsAs(tx, input.through ?? throughOf(input.auditDetails));
    let id: string;
    let version: number;
    if (existing) {
      const updated = await tx.record.updateMany({
        where: { id: existing.id, version: input.version },
        data: { ...data, version: { increment: 1 } },
      });
      if (updated.count === 0) throw new AppError("conflict", conflictMessage);
      id = existing.id;
      version = (input.version ?? 0) + 1;
      await tx.recordLink.deleteMany({ where: { sourceId: id } });
    } else {
      const created = await tx.record.create({
        data: { ...data, sectionId: section.id, createdById: principal.userId },
      });
      id = created.id;
      version = created.version;
    }
    await writeLinksAndMedia(tx, id, section.fields, values, input.projectId, waiting);
    // Files the record no longer references (replaced or removed) go with this save; the
    // caller deletes them from storage once the transaction has committed.
    const referenced = mediaIds(section.fields, values);
    const orphaned = await tx.media.findMany({
      where: { recordId: id, id: { notIn: referenced } },
      select: { id: true, storageKey: true, thumbnailKey: true, streamKey: true, pages: { select: { imageKey: true } } },
    });
    await tx.media.deleteMany({ where: { id: { in: orphaned.map((item) => item.id) } } });
    if (existing) {
      const sql = transactionSql(tx);
      // Scope is never stale: from the moment this commits, no passage of the record, nor any
      // passage quoting it, is found under its old project (invariant 5).
      if (existing.projectId !== input.projectId) await rescopeMovedRecords(sql, [id]);
      await enqueueDependents(sql, [id], { changed: "record.updated", dependents: "linked-record.updated" });
    } else {
      await enqueueIndexing(tx, id, "record.created");
    }
    await audit(tx, {
      actorId: actorIdOf(principal),
      action: existing ? "record.update" : "record.create",
      targetType: "record",
      targetId: id,
      projectId: input.projectId,
      details: { ...input.auditDetails, version, section: section.slug },
    });
    await input.onSaved?.(tx, { id, version });
    return {
      id,
      version,
      removedStorageKeys: orphaned.flatMap(storedKeysOf),
    };
  });
}

/** The agent API's audit details name its channel and token; anything else saved through the form. */
function throughOf(details: SaveRecordInput["auditDetails"]): SaveThrough {
  const via = details?.via;
  if ((via === "api" || via === "mcp") && typeof details?.apiTokenId === "string") return { via, apiTokenId: details.apiTokenId };
  return { via: "form" };
}

function mediaIds(fields: FieldDefinition[], values: RecordValues): string[] {
  return fields
    .filter((field) => field.type === "image" || field.type === "media" || field.type === "scan")
    .map((field) => values[field.key])
    .filter(isUuid);
}

/**
 * Carries the saved version's relation targets the editor cannot see into `values`: records of
 * projects they may not read, and ids of records this installation does not hold (a link a
 * restored project made into a project not restored yet). Returns the latter: they stay in the
 * value, without a link row.
 */
async function keepHiddenRelations(
  prisma: PrismaClient,
  principal: Principal,
  fields: FieldDefinition[],
  saved: RecordValues,
  values: RecordValues,
): Promise<Set<string>> {
  const savedByField = relationTargetsByField(fields, saved);
  const all = [...new Set([...savedByField.values()].flat())];
  if (all.length === 0) return new Set();
  const [readableRows, existingRows] = await Promise.all([
    prisma.record.findMany({ where: { id: { in: all }, ...projectScopeWhere(principal) }, select: { id: true } }),
    prisma.record.findMany({ where: { id: { in: all } }, select: { id: true } }),
  ]);
  const readable = new Set(readableRows.map((row) => row.id));
  const existing = new Set(existingRows.map((row) => row.id));
  const waiting = new Set(all.filter((id) => !existing.has(id)));
  const hiddenIds = new Set(all.filter((id) => !readable.has(id)));
  for (const field of fields) {
    if (field.type !== "relation") continue;
    const hidden = (savedByField.get(field.key) ?? []).filter((id) => hiddenIds.has(id));
    if (hidden.length === 0) continue;
    if (field.multiple) {
      const current = (values[field.key] as string[] | undefined) ?? [];
      values[field.key] = [...new Set([...current, ...hidden])];
    } else if (values[field.key] === undefined) {
      values[field.key] = hidden[0];
    }
  }
  return waiting;
}

async function checkRelations(prisma: PrismaClient, principal: Principal, fields: FieldDefinition[], values: RecordValues): Promise<FieldErrors> {
  const byField = relationTargetsByField(fields, values);
  const all = [...new Set([...byField.values()].flat())];
  if (all.length === 0) return {};
  const found = await prisma.record.findMany({
    where: { id: { in: all }, ...projectScopeWhere(principal) },
    select: { id: true, section: { select: { slug: true } } },
  });
  const sectionOf = new Map(found.map((row) => [row.id, row.section.slug]));
  const errors: FieldErrors = {};
  for (const field of fields) {
    if (field.type !== "relation") continue;
    for (const target of byField.get(field.key) ?? []) {
      const targetSection = sectionOf.get(target);
      if (targetSection === undefined) errors[field.key] = [`${field.label} refers to a record that does not exist`];
      else if (targetSection !== field.targetSection) errors[field.key] = [`${field.label} must link to a record of ${field.targetSection}`];
    }
  }
  return errors;
}

async function checkMedia(
  prisma: PrismaClient,
  fields: FieldDefinition[],
  values: RecordValues,
  projectId: string,
  recordId: string | undefined,
): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  const mediaFields = fields.filter((field) => field.type === "image" || field.type === "media" || field.type === "scan");
  const ids = mediaFields.map((field) => values[field.key]).filter(isUuid);
  if (ids.length === 0) return errors;
  const rows = await prisma.media.findMany({ where: { id: { in: ids } } });
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const field of mediaFields) {
    const id = values[field.key];
    if (!isUuid(id)) continue;
    const media = byId.get(id);
    const expectedKind = field.type === "media" ? field.mediaKind : field.type;
    // Media of another record, or an unattached upload of another project, is treated as
    // absent: never re-pointed. The record's own files follow it to a new project.
    const ownedByThisRecord = Boolean(media?.recordId && media.recordId === recordId);
    if (!media || (!ownedByThisRecord && (media.recordId || media.projectId !== projectId))) {
      errors[field.key] = [`${field.label} refers to a file that does not exist`];
    } else if (!uploadAccepts(expectedKind, media)) {
      errors[field.key] = [
        `${field.label} must be ${{ image: "an image", audio: "an audio file", video: "a video file", scan: "a scan (TIFF, JPEG, PNG or PDF)" }[expectedKind]}`,
      ];
    }
  }
  return errors;
}

async function writeLinksAndMedia(tx: Tx, recordId: string, fields: FieldDefinition[], values: RecordValues, projectId: string, waiting: ReadonlySet<string>) {
  const links = relationLinkRows(fields, values, recordId).filter((link) => !waiting.has(link.targetId));
  if (links.length) await tx.recordLink.createMany({ data: links, skipDuplicates: true });
  for (const field of fields) {
    const id = values[field.key];
    if ((field.type === "image" || field.type === "media" || field.type === "scan") && isUuid(id)) {
      await tx.media.updateMany({
        where: { id, OR: [{ recordId }, { recordId: null, projectId }] },
        data: { recordId, projectId, fieldKey: field.key, view: field.type === "image" ? field.view : null },
      });
    }
  }
}
