import "server-only";
import type { Principal } from "../../acl";
import type { PrismaClient } from "../../db/generated/client";
import { AppError, notFound } from "../../errors";
import { getRecord } from "../get-record";
import { ocrLines } from "../ocr/ocr-lines";
import type { OcrWord } from "../ocr/tesseract-tsv";
import { type AnnotationPage, iiifUrls, languageMap, linesAnnotationPage, presentationContext } from "./presentation";

/**
 * The text OCR read from a scan's page as a IIIF AnnotationPage (`/iiif/<recordId>/annotations/
 * <field>/p<N>`), the page its Canvas in the record's Manifest names: one supplementing
 * annotation per line, on the line's box. Read as the Manifest is (getRecord: an unreadable
 * record is the missing record's not_found); a field that is no scan of the record, a page it
 * does not have or one with no Canvas is not_found too; a page not written p<N> is a bad_request.
 */
export async function scanPageAnnotations(
  prisma: PrismaClient,
  principal: Principal,
  input: { recordId: string; field: string; page: string; origin: string },
): Promise<AnnotationPage & { "@context": typeof presentationContext }> {
  const pageNumber = /^p([1-9]\d{0,5})$/.exec(input.page)?.[1];
  if (!pageNumber) throw new AppError("bad_request", `The page "${input.page}" is malformed: write it p1, p2… as the Canvas names it.`);
  const record = await getRecord(prisma, principal, input.recordId);
  const field = record.section.fields.find((candidate) => candidate.key === input.field && candidate.type === "scan");
  const mediaId = field ? record.values[field.key] : undefined;
  const media = typeof mediaId === "string" ? record.media[mediaId] : undefined;
  if (!field || !media) throw notFound();
  const row = await prisma.mediaPage.findFirst({
    where: { mediaId: media.id, page: Number(pageNumber), media: { recordId: record.id, projectId: record.project.id } },
    select: { page: true, width: true, height: true, imageKey: true, words: true, language: true, status: true },
  });
  if (!row || !hasPageCanvas(row, media.mime)) throw notFound();
  const urls = iiifUrls(input.origin);
  const words = Array.isArray(row.words) ? (row.words as unknown as OcrWord[]) : [];
  return linesAnnotationPage({
    id: urls.recordPart(record.id, "annotations", field.key, `p${row.page}`),
    label: languageMap(`Text read from ${field.label}, page ${row.page}`, "en"),
    // The Canvas is the page image OCR read, so the words' boxes are in its pixels.
    canvas: { id: urls.recordPart(record.id, "canvas", field.key, `p${row.page}`), width: row.width, height: row.height },
    language: row.language && /^[a-z]{2,3}$/.test(row.language) && row.language !== "und" ? row.language : null,
    lines: row.status === "read" ? ocrLines(words) : [],
  });
}

/**
 * Whether a scan's page has a Canvas in the Manifest: its size is known and its image is served
 * (a page image taken out of a PDF, or the scan itself when it is one PNG or JPEG).
 */
export function hasPageCanvas(page: { width: number; height: number; imageKey: string | null }, mime: string): boolean {
  return page.width > 0 && page.height > 0 && (Boolean(page.imageKey) || mime === "image/png" || mime === "image/jpeg");
}
