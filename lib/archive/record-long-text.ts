import "server-only";
import { createHash } from "node:crypto";
import { type Principal, projectScopeWhere } from "../acl";
import type { PrismaClient } from "../db/generated/client";
import { notFound } from "../errors";
import { isUuid } from "../ids";
import { sectionFieldsSchema } from "./field-definitions";

/**
 * A record's long text field as its English beside the paragraphs reads it
 * (/api/records/<id>/english/<field>): through the same project scope as the record page, so a
 * record the principal may not read, a missing record, a field that is no long text of the
 * section and an empty one are one and the same not_found.
 */
export interface LongTextSource {
  recordId: string;
  fieldKey: string;
  fieldLabel: string;
  text: string;
  /** The section's egress policy: whether the text may leave the host. */
  egressPolicy: string;
  /** Hash of the text: changes exactly when it does (caches and ETags key on it). */
  contentHash: string;
}

/** The hash a long text is cached and tagged by. */
export function longTextHash(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

export async function readLongTextSource(prisma: PrismaClient, principal: Principal, recordId: string, fieldKey: string): Promise<LongTextSource> {
  if (!isUuid(recordId)) throw notFound();
  const record = await prisma.record.findFirst({
    where: { id: recordId, ...projectScopeWhere(principal) },
    select: { id: true, values: true, section: { select: { fields: true, egressPolicy: true } } },
  });
  if (!record) throw notFound();
  const field = sectionFieldsSchema.parse(record.section.fields).find((candidate) => candidate.key === fieldKey);
  if (!field || field.type !== "longtext") throw notFound();
  const text = ((record.values ?? {}) as Record<string, unknown>)[field.key];
  if (typeof text !== "string" || !text.trim()) throw notFound();
  return {
    recordId: record.id,
    fieldKey: field.key,
    fieldLabel: field.label,
    text,
    egressPolicy: record.section.egressPolicy,
    contentHash: longTextHash(text),
  };
}
