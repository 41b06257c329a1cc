import "server-only";
import { type Principal, projectScopeWhere } from "../acl";
import type { PrismaClient } from "../db/generated/client";
import { isUuid } from "../ids";
import type { OcrWord } from "./ocr/tesseract-tsv";

/** A scan's page as the record page shows it: the image's size, what OCR read, and where. */
export interface ScanPage {
  page: number;
  width: number;
  height: number;
  text: string;
  words: OcrWord[];
  meanConfidence: number | null;
  language: string | null;
  status: "read" | "failed";
  error: string | null;
}

/**
 * The read pages of a record's scans, by media id, for a principal who may read the record (in
 * the query: a record they may not read has no pages here). A scan not yet read has none.
 */
export async function getScanPages(prisma: PrismaClient, principal: Principal, recordId: string): Promise<Record<string, ScanPage[]>> {
  if (!isUuid(recordId)) return {};
  const rows = await prisma.mediaPage.findMany({
    where: { media: { recordId, ...projectScopeWhere(principal) } },
    orderBy: [{ mediaId: "asc" }, { page: "asc" }],
  });
  const pages: Record<string, ScanPage[]> = {};
  for (const row of rows) {
    (pages[row.mediaId] ??= []).push({
      page: row.page,
      width: row.width,
      height: row.height,
      text: row.text,
      words: Array.isArray(row.words) ? (row.words as unknown as OcrWord[]) : [],
      meanConfidence: row.meanConfidence,
      language: row.language,
      status: row.status === "read" ? "read" : "failed",
      error: row.error,
    });
  }
  return pages;
}
