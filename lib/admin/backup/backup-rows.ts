import { z } from "zod";
import { fieldDefinitionSchema } from "../../archive/field-definitions";
import { saveChannels } from "../../db/record-versions";

/**
 * One row of each table file of a project backup, as written by export-project.ts and checked
 * again by restore-project.ts (an archive is input like any other). Ids are the exporting
 * installation's; users are referred to by id within the archive and mapped by email on restore.
 */
const id = z.string().min(1).max(64);
const date = z.iso.datetime({ offset: true }).transform((value) => new Date(value));
const text = (max: number) => z.string().max(max);
const json = z.json();

export const projectRowSchema = z.object({
  id,
  slug: z.string().regex(/^[a-z0-9][a-z0-9-]{0,99}$/, "a project slug is lower-case letters, digits and dashes"),
  name: text(500).min(1),
  description: text(20_000),
  restricted: z.boolean(),
  createdAt: date,
});

export const userRowSchema = z.object({ id, email: z.email().max(320), name: text(500) });

export const membershipRowSchema = z.object({ userId: id, role: z.enum(["reader", "editor"]), createdAt: date });

export const sectionRowSchema = z.object({
  id,
  slug: text(200).min(1),
  name: text(500).min(1),
  description: text(20_000),
  fields: z.array(fieldDefinitionSchema).min(1),
  egressPolicy: z.enum(["local_only", "allow_external"]),
  objectContext: json.nullable(),
  answerPrompt: text(20_000).nullable(),
  position: z.number().int(),
  createdAt: date,
});

export const embedGroupRowSchema = z.object({
  id,
  sectionId: id,
  slug: text(200).min(1),
  label: text(500),
  fields: z.array(text(500)),
  chunking: z.enum(["short", "long_document", "transcription", "auto"]),
  maxTokens: z.number().int().positive(),
  minTokens: z.number().int().nonnegative(),
  overlap: z.number().int().nonnegative(),
  languages: z.array(text(16)),
  createdAt: date,
});

export const recordRowSchema = z.object({
  id,
  sectionId: id,
  title: text(100_000),
  values: z.record(z.string(), json),
  dateFrom: z.number().int().nullable(),
  dateTo: z.number().int().nullable(),
  version: z.number().int().positive(),
  createdById: id.nullable(),
  updatedById: id.nullable(),
  createdAt: date,
  updatedAt: date,
  externalId: text(1000).nullable(),
});

/** A relation value's row; `external`: the target is a record of another project (never exported itself). */
/**
 * A relation link. An external one (its target in another project) names that project, so a
 * restore into an installation without it can say which project to restore for the link to
 * resolve (backups written before this field have none).
 */
export const linkRowSchema = z.object({
  sourceId: id,
  fieldKey: text(64),
  targetId: id,
  external: z.boolean(),
  targetProject: z.object({ slug: text(64), name: text(200) }).optional(),
});

export const mediaRowSchema = z.object({
  id,
  recordId: id.nullable(),
  fieldKey: text(64).nullable(),
  kind: z.enum(["image", "audio", "video", "document"]),
  mime: text(200),
  size: z.number().int().nonnegative(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  durationSeconds: z.number().nullable(),
  view: text(200).nullable(),
  originalName: text(1000),
  storageKey: text(200),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  createdAt: date,
});

export const auditRowSchema = z.object({
  id,
  at: date,
  actorId: id.nullable(),
  action: text(200),
  targetType: text(200),
  targetId: text(200).nullable(),
  details: json,
});

/** One saved version of a record (its history); `projectId` is the project it was saved in, maybe another one. */
export const recordVersionRowSchema = z.object({
  recordId: id,
  version: z.number().int().positive().max(2_147_483_647),
  projectId: id,
  sectionId: id,
  title: text(100_000),
  values: z.record(z.string(), json),
  savedAt: date,
  savedById: id.nullable(),
  via: z.enum(saveChannels),
  details: z.record(z.string().max(64), z.union([z.string().max(1000), z.number(), z.boolean(), z.null()])),
});

/** An embedding by the hash of the text it embeds (the embedding cache's key). */
export const vectorRowSchema = z.object({
  textHash: z.string().regex(/^[0-9a-f]{64}$/),
  embedding: z
    .string()
    .regex(/^\[[-0-9.eE, ]*\]$/)
    .max(200_000),
});

export type ProjectRow = z.input<typeof projectRowSchema>;
export type UserRow = z.input<typeof userRowSchema>;
export type MembershipRow = z.input<typeof membershipRowSchema>;
export type SectionRow = z.input<typeof sectionRowSchema>;
export type EmbedGroupRow = z.input<typeof embedGroupRowSchema>;
export type RecordRow = z.input<typeof recordRowSchema>;
export type LinkRow = z.input<typeof linkRowSchema>;
export type MediaRow = z.input<typeof mediaRowSchema>;
export type AuditRow = z.input<typeof auditRowSchema>;
export type VectorRow = z.input<typeof vectorRowSchema>;
export type RecordVersionRow = z.input<typeof recordVersionRowSchema>;
