import "server-only";
import { type Principal, canEdit, canEditProject, canReadProject, projectScopeWhere } from "../acl";
import type { PrismaClient } from "../db/generated/client";
import { AppError, notFound } from "../errors";
import { isUuid } from "../ids";
import { type FieldDefinition, sectionFieldsSchema } from "./field-definitions";
import { valuesAsSeenBy } from "./get-record";
import { type UploadKind, type UploadedFile, discardMedia, removeStoredFiles, storeMedia } from "./media-storage";
import { type SaveRecordInput, assertRecordVersion, conflictMessage, saveRecord } from "./save-record";
import type { RecordValues } from "./validate-record-values";

/**
 * Changes to one existing record made a piece at a time (the agent API's update, link, unlink and
 * attach operations), each turned into exactly the save the record editor makes: the record's
 * values as the principal sees them, the change applied, then saveRecord with the version the
 * caller read — the same validation, relation and media checks, outbox rows and audit event, and
 * a stale version is the same 409 conflict. A record the principal may not read is not found; one
 * they may read but not edit is forbidden, as in the editor.
 */
export interface RecordEdit {
  recordId: string;
  /** The version the caller read (read_record's `version`). */
  version: number;
  /** Extra details for the save's audit event (e.g. the API token that made it). */
  auditDetails?: SaveRecordInput["auditDetails"];
}

export interface EditedRecord {
  id: string;
  version: number;
  /** False when the change was already true of the record: nothing was saved. */
  changed: boolean;
}

interface EditableRecord {
  id: string;
  projectId: string;
  version: number;
  sectionSlug: string;
  fields: FieldDefinition[];
  values: RecordValues;
}

const fieldErrorOf = (key: string, message: string) => new AppError("bad_request", message, { fieldErrors: { [key]: [message] } });

async function loadEditable(prisma: PrismaClient, principal: Principal, edit: RecordEdit): Promise<EditableRecord> {
  if (!isUuid(edit.recordId)) throw notFound();
  assertRecordVersion(edit.version);
  const record = await prisma.record.findFirst({ where: { id: edit.recordId, ...projectScopeWhere(principal) }, include: { section: true } });
  if (!record) throw notFound();
  if (!canEdit(principal, record)) throw new AppError("forbidden", "You may read this record but not edit it.");
  // Checked again by the save's conditional update; here so that nothing (an upload) happens for a stale edit.
  if (record.version !== edit.version) throw new AppError("conflict", conflictMessage);
  const fields = sectionFieldsSchema.parse(record.section.fields);
  const values = await valuesAsSeenBy(prisma, principal, fields, record.values as RecordValues);
  return { id: record.id, projectId: record.projectId, version: record.version, sectionSlug: record.section.slug, fields, values: { ...values } };
}

function fieldOf(record: EditableRecord, key: string, types: readonly FieldDefinition["type"][], what: string): FieldDefinition {
  const field = record.fields.find((candidate) => candidate.key === key);
  if (!field) throw fieldErrorOf("field", `"${key.slice(0, 64)}" is not a field of ${record.sectionSlug}.`);
  if (!types.includes(field.type)) throw fieldErrorOf("field", `${field.label} is not ${what}.`);
  return field;
}

async function save(
  prisma: PrismaClient,
  principal: Principal,
  record: EditableRecord,
  values: RecordValues,
  edit: RecordEdit,
  storageDir?: string,
): Promise<EditedRecord> {
  const saved = await saveRecord(prisma, principal, {
    id: record.id,
    version: edit.version,
    sectionSlug: record.sectionSlug,
    projectId: record.projectId,
    values,
    auditDetails: edit.auditDetails,
  });
  // Files the record no longer references went with the save; their bytes go now (as after the form's save).
  if (storageDir) {
    await removeStoredFiles(storageDir, saved.removedStorageKeys).catch((error: unknown) => {
      console.error("[mnemo] could not remove replaced files", error);
    });
  }
  return { id: saved.id, version: saved.version, changed: true };
}

/**
 * Creates a record as the editor's "new record" form does. A project the principal may not read
 * (or none) is not found; one they may read but not edit is forbidden.
 */
export async function createRecord(
  prisma: PrismaClient,
  principal: Principal,
  input: { sectionSlug: string; projectId: string; values: RecordValues; auditDetails?: SaveRecordInput["auditDetails"] },
): Promise<EditedRecord> {
  const project =
    isUuid(input.projectId) && canReadProject(principal, input.projectId)
      ? await prisma.project.findUnique({ where: { id: input.projectId }, select: { id: true } })
      : null;
  if (!project) throw notFound();
  if (!canEditProject(principal, project.id)) throw new AppError("forbidden", "You may read this project but not add records to it.");
  const saved = await saveRecord(prisma, principal, {
    sectionSlug: input.sectionSlug,
    projectId: project.id,
    values: input.values,
    auditDetails: input.auditDetails,
  });
  return { id: saved.id, version: saved.version, changed: true };
}

/**
 * Sets the named fields (a null clears one); the others keep their values. A key that is not a
 * field of the record's section is a bad request, never ignored.
 */
export async function updateRecordFields(
  prisma: PrismaClient,
  principal: Principal,
  edit: RecordEdit & { values: Record<string, unknown> },
  storageDir: string,
): Promise<EditedRecord> {
  const record = await loadEditable(prisma, principal, edit);
  const unknown = Object.keys(edit.values).filter((key) => !record.fields.some((field) => field.key === key));
  if (unknown.length > 0) {
    throw new AppError("bad_request", "Some fields are not fields of this record's section.", {
      fieldErrors: Object.fromEntries(unknown.map((key) => [`values.${key.slice(0, 64)}`, [`"${key.slice(0, 64)}" is not a field of ${record.sectionSlug}.`]])),
    });
  }
  const values = { ...record.values };
  for (const [key, value] of Object.entries(edit.values)) {
    if (value === null) delete values[key];
    else values[key] = value;
  }
  return save(prisma, principal, record, values, edit, storageDir);
}

/** Links the record to `targetId` through a relation field: added to a multiple one, replacing the value of a single one. */
export async function linkRecord(prisma: PrismaClient, principal: Principal, edit: RecordEdit & { field: string; targetId: string }): Promise<EditedRecord> {
  const record = await loadEditable(prisma, principal, edit);
  const field = fieldOf(record, edit.field, ["relation"], "a relation");
  if (!isUuid(edit.targetId)) throw fieldErrorOf("targetId", `${field.label} refers to a record that does not exist`);
  const current = record.values[field.key];
  const linked = field.type === "relation" && field.multiple ? ((current as string[] | undefined) ?? []) : current === undefined ? [] : [current as string];
  if (linked.includes(edit.targetId)) return { id: record.id, version: record.version, changed: false };
  const value = field.type === "relation" && field.multiple ? [...linked, edit.targetId] : edit.targetId;
  return save(prisma, principal, record, { ...record.values, [field.key]: value }, edit);
}

/** Removes the link to `targetId` from a relation field; a target the field does not link to (as the principal sees it) is a bad request. */
export async function unlinkRecord(prisma: PrismaClient, principal: Principal, edit: RecordEdit & { field: string; targetId: string }): Promise<EditedRecord> {
  const record = await loadEditable(prisma, principal, edit);
  const field = fieldOf(record, edit.field, ["relation"], "a relation");
  const current = record.values[field.key];
  const linked = Array.isArray(current) ? (current as string[]) : current === undefined ? [] : [current as string];
  if (!linked.includes(edit.targetId)) throw fieldErrorOf("targetId", `${field.label} does not link to that record.`);
  const values = { ...record.values };
  const rest = linked.filter((id) => id !== edit.targetId);
  if (field.type === "relation" && field.multiple && rest.length > 0) values[field.key] = rest;
  else delete values[field.key];
  return save(prisma, principal, record, values, edit);
}

/**
 * Stores a file as the record form stores an upload (size, type recognised from the bytes,
 * image header checked; the index worker verifies images and processes recordings) and puts it in
 * an image, media or scan field, replacing the file there. If the save fails the upload is
 * removed again; the replaced file is removed once the save has committed.
 */
export async function attachMedia(
  prisma: PrismaClient,
  principal: Principal,
  edit: RecordEdit & { field: string; file: UploadedFile },
  storage: { storageDir: string; maxBytes: number },
): Promise<EditedRecord & { mediaId: string }> {
  const record = await loadEditable(prisma, principal, edit);
  const field = fieldOf(record, edit.field, ["image", "media", "scan"], "an image, media or scan field");
  const expectedKind: UploadKind = field.type === "media" ? field.mediaKind : (field.type as "image" | "scan");
  let mediaId: string;
  try {
    mediaId = (await storeMedia(prisma, principal, { projectId: record.projectId, file: edit.file, expectedKind, ...storage })).id;
  } catch (error) {
    if (error instanceof AppError && error.code !== "forbidden")
      throw new AppError(error.code, `${field.label}: ${error.message}`, { fieldErrors: { content: [error.message] } });
    throw error;
  }
  try {
    const saved = await save(prisma, principal, record, { ...record.values, [field.key]: mediaId }, edit, storage.storageDir);
    return { ...saved, mediaId };
  } catch (error) {
    await discardMedia(prisma, storage.storageDir, [mediaId]).catch((cleanupError: unknown) => {
      console.error("[mnemo] could not discard the upload of a failed attach", cleanupError);
    });
    throw error;
  }
}
