import "server-only";
import { type Principal, canEdit, isAnonymous, projectScopeWhere } from "../acl";
import type { PrismaClient } from "../db/generated/client";
import { type SaveChannel, saveChannels } from "../db/record-versions";
import { AppError, notFound } from "../errors";
import { isUuid } from "../ids";
import { authorityText } from "./authority-text";
import { transcriptText } from "./export-field-text";
import { type FieldDefinition, sectionFieldsSchema } from "./field-definitions";
import { removeStoredFiles } from "./media-storage";
import { saveRecord } from "./save-record";
import { type DiffPart, diffText } from "./text-diff";
import { relationTargetsByField, withShownRelations } from "./validate-record-values";

/**
 * A record's history (record_versions, kept by the database on every save) as a reader may see
 * it, and a version brought back as a new save. Access is the record's: a record the reader
 * cannot read has no history (not found, as a missing record), and a version saved while the
 * record was in a project the reader cannot read is left out, so moving a record out of a
 * restricted project does not publish what it said there. Within a version, relation values
 * keep only the targets the reader may read now (as getRecord shows them), and only the section's
 * current fields are shown. Anonymous public readers get no history: it names the people and
 * agents who saved.
 */
export interface HistoryVersion {
  version: number;
  savedAt: Date;
  /** The person who saved; null for the system, an import without a person, or history before it was kept. */
  savedBy: { id: string; name: string } | null;
  via: SaveChannel;
  /** An api or mcp save's token (its name as it was when it saved). */
  apiToken: { id: string; name: string | null } | null;
  importJobId: string | null;
  /** A proposal decision's field (and the stored proposal, when there was one). */
  proposal: { role: string | null; id: string | null } | null;
  /** A version-restore's source version. */
  restoredFrom: number | null;
  /** A project restore's archived slug. */
  archivedSlug: string | null;
  title: string;
  project: { id: string; name: string };
  /** The values as the reader may see them (current fields only; unreadable relation targets left out). */
  values: Record<string, unknown>;
}

export interface FieldChange {
  key: string;
  label: string;
  type: FieldDefinition["type"];
  before: unknown;
  after: unknown;
  /** Text fields: the readable word/line diff. */
  text?: DiffPart[];
}

export interface RecordHistory {
  record: { id: string; title: string; version: number; sectionSlug: string; projectId: string; fields: FieldDefinition[] };
  /** Newest first. */
  versions: HistoryVersion[];
  /** The oldest version shown's number, when older visible versions remain (pass it as `before`). */
  nextBefore: number | null;
  /** Whether the reader may restore a version (they may edit the record). */
  canRestore: boolean;
  /** Media of the record still stored, by id, for naming files in old versions. */
  media: Record<string, { originalName: string; kind: string }>;
  /** The titles of the relation targets the versions show (all readable by the reader). */
  relations: Record<string, string>;
}

export const historyPageSize = 20;

export async function readRecordHistory(
  prisma: PrismaClient,
  principal: Principal,
  recordId: string,
  options: { limit?: number; before?: number } = {},
): Promise<RecordHistory> {
  if (!isUuid(recordId) || isAnonymous(principal)) throw notFound();
  const scope = projectScopeWhere(principal);
  const record = await prisma.record.findFirst({ where: { id: recordId, ...scope }, include: { section: true } });
  if (!record) throw notFound();
  const fields = sectionFieldsSchema.parse(record.section.fields);
  const limit = Math.max(1, Math.min(100, Math.trunc(options.limit ?? historyPageSize)));
  const rows = await prisma.recordVersion.findMany({
    where: { recordId, ...scope, ...(options.before !== undefined ? { version: { lt: options.before } } : {}) },
    orderBy: { version: "desc" },
    take: limit + 1,
  });
  const shown = rows.slice(0, limit);
  const { versions, relations } = await asSeenBy(prisma, principal, fields, shown);
  const media = await prisma.media.findMany({ where: { recordId }, select: { id: true, originalName: true, kind: true } });
  return {
    record: { id: record.id, title: record.title, version: record.version, sectionSlug: record.section.slug, projectId: record.projectId, fields },
    versions,
    nextBefore: rows.length > limit ? (shown.at(-1)?.version ?? null) : null,
    canRestore: canEdit(principal, record),
    media: Object.fromEntries(media.map((item) => [item.id, { originalName: item.originalName, kind: item.kind }])),
    relations,
  };
}

type VersionRow = Awaited<ReturnType<PrismaClient["recordVersion"]["findMany"]>>[number];

async function asSeenBy(
  prisma: PrismaClient,
  principal: Principal,
  fields: FieldDefinition[],
  rows: VersionRow[],
): Promise<{ versions: HistoryVersion[]; relations: Record<string, string> }> {
  const known = new Set(fields.map((field) => field.key));
  const currentValues = rows.map((row) => Object.fromEntries(Object.entries(row.values as Record<string, unknown>).filter(([key]) => known.has(key))));
  const targets = [...new Set(currentValues.flatMap((values) => [...relationTargetsByField(fields, values).values()].flat()))];
  const userIds = [...new Set(rows.map((row) => row.savedById).filter((id): id is string => Boolean(id)))];
  const projectIds = [...new Set(rows.map((row) => row.projectId))];
  const [readable, users, projects] = await Promise.all([
    targets.length ? prisma.record.findMany({ where: { id: { in: targets }, ...projectScopeWhere(principal) }, select: { id: true, title: true } }) : [],
    userIds.length ? prisma.user.findMany({ where: { id: { in: userIds } }, select: { id: true, name: true } }) : [],
    prisma.project.findMany({ where: { id: { in: projectIds } }, select: { id: true, name: true } }),
  ]);
  const shown = new Set(readable.map((row) => row.id));
  const nameOf = new Map(users.map((user) => [user.id, user.name]));
  const projectOf = new Map(projects.map((project) => [project.id, project]));
  const versions = rows.map((row, index): HistoryVersion => {
    const details = (row.details ?? {}) as Record<string, unknown>;
    const text = (key: string) => (typeof details[key] === "string" ? (details[key] as string) : null);
    const via = (saveChannels as readonly string[]).includes(row.via) ? (row.via as SaveChannel) : "unknown";
    const name = row.savedById ? nameOf.get(row.savedById) : undefined;
    return {
      version: row.version,
      savedAt: row.savedAt,
      savedBy: row.savedById && name !== undefined ? { id: row.savedById, name } : null,
      via,
      apiToken: text("apiTokenId") ? { id: text("apiTokenId")!, name: text("apiTokenName") } : null,
      importJobId: text("importJobId"),
      proposal: via === "proposal" ? { role: text("role"), id: text("proposalId") } : null,
      restoredFrom: typeof details.restoredFrom === "number" ? details.restoredFrom : null,
      archivedSlug: text("archivedSlug"),
      title: row.title,
      project: projectOf.get(row.projectId) ?? { id: row.projectId, name: row.projectId },
      values: withShownRelations(fields, currentValues[index]!, shown),
    };
  });
  return { versions, relations: Object.fromEntries(readable.map((row) => [row.id, row.title])) };
}

/** Through what a version was saved, as a phrase after "Saved … ": for the record page. */
export function describeThrough(version: Pick<HistoryVersion, "via" | "apiToken" | "proposal" | "restoredFrom" | "archivedSlug">): string {
  const token = version.apiToken ? ` with the token “${version.apiToken.name ?? version.apiToken.id}”` : "";
  switch (version.via) {
    case "form":
      return "in the record editor";
    case "api":
      return `through the JSON API${token}`;
    case "mcp":
      return `by an MCP agent${token}`;
    case "proposal":
      return `deciding a proposed value${version.proposal?.role ? ` for ${version.proposal.role}` : ""}`;
    case "version-restore":
      return version.restoredFrom ? `restoring version ${version.restoredFrom}` : "restoring an earlier version";
    case "import":
      return "by a bulk import";
    case "bulk-load":
      return "by a loader run by an administrator";
    case "project-restore":
      return `restoring a project backup${version.archivedSlug ? ` (${version.archivedSlug})` : ""}`;
    case "earlier":
      return "before Mnemo kept history";
    default:
      return "by a process that did not name itself";
  }
}

/** JSON with object keys sorted, to compare two values whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

const textTypes = new Set<FieldDefinition["type"]>(["text", "longtext", "date", "category"]);

/** What changed, field by field, from `older` (null: nothing before it that the reader may see) to `newer`. */
export function changesBetween(fields: FieldDefinition[], older: Record<string, unknown> | null, newer: Record<string, unknown>): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const field of fields) {
    const before = older?.[field.key];
    const after = newer[field.key];
    if (canonical(before ?? null) === canonical(after ?? null)) continue;
    const change: FieldChange = { key: field.key, label: field.label, type: field.type, before: before ?? null, after: after ?? null };
    if (textTypes.has(field.type) && (typeof before === "string" || before === undefined) && (typeof after === "string" || after === undefined)) {
      change.text = diffText((before as string | undefined) ?? "", (after as string | undefined) ?? "");
    } else if (field.type === "transcript") {
      change.text = diffText(transcriptText(before), transcriptText(after));
    } else if (field.type === "authority") {
      // "Label <URI>", one link a line, as the editor writes them.
      change.text = diffText(authorityText(before), authorityText(after));
    }
    changes.push(change);
  }
  return changes;
}

/**
 * Brings back a version as a new save (saveRecord: validated, audited, a conflict at a stale
 * `version`, and itself a version named "version-restore"). The record stays in its current
 * project. What the reader cannot see stays as it is now: relation targets they cannot read
 * (saveRecord keeps the saved ones), and a file of the old version no longer stored keeps the
 * field's current file (`keptFiles` names those fields). A version the reader may not see is
 * not found, like one that does not exist.
 */
export async function restoreRecordVersion(
  prisma: PrismaClient,
  principal: Principal,
  input: { recordId: string; version: number; restore: number },
  storageDir: string,
): Promise<{ id: string; version: number; keptFiles: string[] }> {
  if (!Number.isSafeInteger(input.restore) || input.restore < 1 || input.restore > 2_147_483_646)
    throw new AppError("bad_request", "Choose a version of this record to restore.");
  const history = await readRecordHistory(prisma, principal, input.recordId, { before: input.restore + 1, limit: 1 });
  const chosen = history.versions[0];
  if (!chosen || chosen.version !== input.restore) throw new AppError("not_found", `This record has no version ${input.restore} that you can see.`);
  if (!history.canRestore) throw new AppError("forbidden", "You may read this record but not edit it.");
  if (chosen.version === history.record.version)
    throw new AppError("bad_request", `Version ${chosen.version} is the record as it is now; there is nothing to restore.`);
  const current = await prisma.record.findUniqueOrThrow({ where: { id: input.recordId }, select: { values: true, projectId: true } });
  const values: Record<string, unknown> = { ...chosen.values };
  const keptFiles: string[] = [];
  for (const field of history.record.fields) {
    if (field.type !== "image" && field.type !== "media" && field.type !== "scan") continue;
    const old = values[field.key];
    if (old === undefined || typeof old !== "string" || history.media[old]) continue;
    const now = (current.values as Record<string, unknown>)[field.key];
    if (now === undefined) delete values[field.key];
    else values[field.key] = now;
    keptFiles.push(field.label);
  }
  const saved = await saveRecord(prisma, principal, {
    id: input.recordId,
    version: input.version,
    sectionSlug: history.record.sectionSlug,
    projectId: current.projectId,
    values,
    through: { via: "version-restore", restoredFrom: input.restore },
    auditDetails: { restoredFromVersion: input.restore },
  });
  await removeStoredFiles(storageDir, saved.removedStorageKeys).catch((error: unknown) => {
    console.error("[mnemo] could not remove replaced files", error);
  });
  return { id: saved.id, version: saved.version, keptFiles };
}
