import "server-only";
import { createHash } from "node:crypto";
import { type Principal, projectScopeWhere } from "../acl";
import type { PrismaClient } from "../db/generated/client";
import { notFound } from "../errors";
import { isUuid } from "../ids";
import { sectionFieldsSchema, type TranscriptTurn } from "./field-definitions";

/**
 * A record's timecoded transcript as caption files serve it (/api/records/<id>/captions/…): read
 * through the same project scope as the record page, so a record the principal may not read, a
 * missing record, a field that is not a transcript and a transcript without turns are one and
 * the same not_found.
 */
export interface CaptionSource {
  recordId: string;
  title: string;
  fieldKey: string;
  fieldLabel: string;
  /** The record's declared language (its `language` field) when it is one of the archive's. */
  declaredLanguage: "en" | "es" | "ca" | null;
  /** The section's egress policy: whether the transcript's text may leave the host. */
  egressPolicy: string;
  turns: TranscriptTurn[];
  /** Hash of the turns: changes exactly when the transcript does (caches and ETags key on it). */
  contentHash: string;
}

const archiveLanguages = new Set(["en", "es", "ca"]);

/** Stored turns, kept only where they have the shape the editor saves (anything else is left out). */
export function storedTurns(value: unknown): TranscriptTurn[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item): TranscriptTurn[] => {
    if (!item || typeof item !== "object") return [];
    const { speaker, start, end, text } = item as Record<string, unknown>;
    if (typeof start !== "number" || typeof end !== "number" || typeof text !== "string") return [];
    return [{ speaker: typeof speaker === "string" ? speaker : "", start, end, text }];
  });
}

export function transcriptHash(turns: readonly TranscriptTurn[]): string {
  return createHash("sha256")
    .update(JSON.stringify(turns.map((turn) => [turn.speaker, turn.start, turn.end, turn.text])))
    .digest("hex");
}

export async function readCaptionSource(prisma: PrismaClient, principal: Principal, recordId: string, fieldKey: string): Promise<CaptionSource> {
  if (!isUuid(recordId)) throw notFound();
  const record = await prisma.record.findFirst({
    where: { id: recordId, ...projectScopeWhere(principal) },
    select: { id: true, title: true, values: true, section: { select: { fields: true, egressPolicy: true } } },
  });
  if (!record) throw notFound();
  const field = sectionFieldsSchema.parse(record.section.fields).find((candidate) => candidate.key === fieldKey);
  if (!field || field.type !== "transcript") throw notFound();
  const values = (record.values ?? {}) as Record<string, unknown>;
  const turns = storedTurns(values[field.key]);
  if (turns.length === 0) throw notFound();
  const language = values.language;
  return {
    recordId: record.id,
    title: record.title,
    fieldKey: field.key,
    fieldLabel: field.label,
    declaredLanguage: typeof language === "string" && archiveLanguages.has(language) ? (language as CaptionSource["declaredLanguage"]) : null,
    egressPolicy: record.section.egressPolicy,
    turns,
    contentHash: transcriptHash(turns),
  };
}

/** A file name for a download: the record's title in safe characters, the field and the suffix. */
export function captionFileName(source: Pick<CaptionSource, "title" | "fieldKey">, suffix: string): string {
  const base =
    source.title
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/[^A-Za-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60)
      .toLowerCase() || "record";
  return `${base}-${source.fieldKey}${suffix}`;
}
