import "server-only";
import { z } from "zod";
import type { Principal } from "../acl";
import type { FieldDefinition } from "../archive/field-definitions";
import { longTextHash, readLongTextSource } from "../archive/record-long-text";
import type { PrismaClient } from "../db/generated/client";
import { AppError, notFound } from "../errors";
import type { TextTranslator } from "../rag/embed/text-translation";

/**
 * GET /api/records/<id>/english/<fieldKey>: the English beside each paragraph of a record's long
 * text in Spanish or Catalan, for the record page's "Show English" — one entry per paragraph
 * (its detected language and its English, null where it is not translated), machine
 * translation by Apertium. Access as on the record page: whatever the principal may not read, a
 * field that is no long text, a malformed key and a text with no English all answer the one
 * not_found.
 */
export const englishTextParamsSchema = z.object({ id: z.string().max(64), field: z.string().regex(/^[a-z][a-zA-Z0-9]{0,63}$/) });

export async function englishTextResponse(
  prisma: PrismaClient,
  principal: Principal,
  request: { recordId: string; fieldKey: string },
  translator: TextTranslator,
): Promise<Response> {
  const source = await readLongTextSource(prisma, principal, request.recordId, request.fieldKey);
  const english = await translator.englishParagraphs(source).catch((error: unknown) => {
    throw new AppError("unavailable", "The English could not be made just now. Try again later.", { cause: error });
  });
  if (!english) throw notFound();
  return Response.json(
    { field: source.fieldKey, language: "en", machineTranslation: "Apertium", from: english.from, total: english.total, paragraphs: english.paragraphs },
    // Per reader (the record's access decides), revalidated: a changed text has a new ETag.
    { headers: { "cache-control": "private, no-cache", etag: `"${source.contentHash.slice(0, 32)}-en-paragraphs"`, "x-content-type-options": "nosniff" } },
  );
}

/**
 * For the record page: the long text fields (of the record the page has already read) whose
 * English can be made. A bridge that cannot answer just leaves the toggle out.
 */
export async function recordTextTranslations(
  record: { values: Record<string, unknown>; section: { fields: readonly FieldDefinition[]; egressPolicy: string } },
  translator: TextTranslator,
): Promise<Record<string, boolean>> {
  const offered: Record<string, boolean> = {};
  for (const field of record.section.fields) {
    const text = record.values[field.key];
    if (field.type !== "longtext" || typeof text !== "string" || !text.trim()) continue;
    offered[field.key] = await translator
      .offersEnglish({ text, contentHash: longTextHash(text), egressPolicy: record.section.egressPolicy })
      .catch(() => false);
  }
  return offered;
}
