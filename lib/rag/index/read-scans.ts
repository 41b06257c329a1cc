import "server-only";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Config, getConfig } from "../../config";
import { removeStoredFiles, storagePath, writeMediaFile } from "../../archive/media-storage";
import { pageImagesOf } from "../../archive/ocr/page-images";
import { ocrMinConfidence, ocrPageTimeoutMs, recognisePage, type RecognisePageOptions } from "../../archive/ocr/recognise-page";
import { type TesseractProbe, probeTesseract } from "../../archive/ocr/run-tesseract";
import type { SqlExecutor } from "../../db/sql-executor";
import { truncateText } from "../../storable-text";
import { detectLanguage } from "../embed/detect-language";

/**
 * OCR of the scans of the records in a worker's batch, before their passages are built: every
 * scan (a field of type `scan`) without pages yet is split into page images (`page-images.ts`),
 * each page read by tesseract (`recognise-page.ts`), one page at a time, and its pages written
 * in one transaction — text, word boxes, mean confidence, language, and the stored page image
 * when it was taken out of a PDF or TIFF. A page that cannot be read gets a `failed` row with
 * the reason, so one bad page never holds the record back; the record's other pages and fields
 * are indexed. Without tesseract the scans stay unread (and are read once it is installed).
 */
export interface ScanReading {
  storageDir: string;
  ocr: RecognisePageOptions;
  /**
   * Time after which no further scan is started in this batch (at least one always is): the
   * records whose scans are left are queued again, so their claim never outlives its lease and
   * the next pass goes on reading. The worker sets half the queue's lease.
   */
  budgetMs?: number;
  /** How tesseract is looked for (tests stand in a probe that times out). */
  probe?: () => Promise<TesseractProbe>;
}

export function configuredScanReading(config: Pick<Config, "storageDir" | "MNEMO_OCR_LANGUAGES"> = getConfig()): ScanReading {
  return {
    storageDir: config.storageDir,
    ocr: { languages: config.MNEMO_OCR_LANGUAGES, minConfidence: ocrMinConfidence, timeoutMs: ocrPageTimeoutMs },
  };
}

let tesseractPresent: Promise<TesseractProbe> | undefined;

/**
 * Queues records whose scans are left for a later pass, after `delaySeconds`. Reset like a save
 * during indexing: the row outlives this pass's completion, so the record is indexed again.
 */
async function queueScansAgain(sql: SqlExecutor, recordIds: readonly string[], delaySeconds: number): Promise<void> {
  await sql.query(
    `UPDATE index_queue SET status = 'pending', attempts = 0, available_at = now() + make_interval(secs => $2), locked_at = NULL, locked_by = NULL, reason = 'scan.unread', updated_at = now()
      WHERE record_id = ANY($1::text[])`,
    [[...recordIds], delaySeconds],
  );
}

export async function readPendingScans(
  sql: SqlExecutor,
  reading: ScanReading,
  recordIds: readonly string[],
  log: (line: string) => void = () => undefined,
): Promise<{ pages: number; failed: number; deferred: number }> {
  const result = { pages: 0, failed: 0, deferred: 0 };
  if (recordIds.length === 0) return result;
  const started = performance.now();
  const pending = await sql.query<{ id: string; record_id: string; storage_key: string; mime: string; original_name: string }>(
    `SELECT m.id, m.record_id, m.storage_key, m.mime, m.original_name FROM media m
       JOIN records r ON r.id = m.record_id
       JOIN sections s ON s.id = r.section_id
      WHERE m.record_id = ANY($1::text[])
        AND EXISTS (SELECT 1 FROM jsonb_array_elements(s.fields::jsonb) f WHERE f->>'key' = m.field_key AND f->>'type' = 'scan')
        AND NOT EXISTS (SELECT 1 FROM media_pages p WHERE p.media_id = m.id)
      ORDER BY m.id`,
    [[...recordIds]],
  );
  if (pending.length === 0) return result;
  const found = await (reading.probe ? reading.probe() : (tesseractPresent ??= probeTesseract()));
  if (found.state === "unsure") {
    // Not an answer (a probe timed out while the machine was busy): ask again next time, and
    // queue these records again a little later so their scans are read then.
    if (!reading.probe) tesseractPresent = undefined;
    const later = [...new Set(pending.map((item) => item.record_id))];
    await queueScansAgain(sql, later, 30);
    result.deferred = pending.length;
    log(`[ocr] tesseract did not answer (${found.reason}): ${pending.length} scan(s) left for a later pass`);
    return result;
  }
  if (found.state === "missing") {
    log(
      `[ocr] tesseract is not installed: ${pending.length} scan(s) left unread (install tesseract-ocr tesseract-ocr-spa tesseract-ocr-cat tesseract-ocr-eng poppler-utils)`,
    );
    return result;
  }
  for (const [index, scan] of pending.entries()) {
    if (index > 0 && reading.budgetMs !== undefined && performance.now() - started > reading.budgetMs) {
      const later = [...new Set(pending.slice(index).map((item) => item.record_id))];
      await queueScansAgain(sql, later, 0);
      result.deferred = pending.length - index;
      log(`[ocr] ${result.deferred} scan(s) left for the next pass (this one has read for ${Math.round((performance.now() - started) / 1000)} s)`);
      break;
    }
    const rows = await readScan(reading, scan);
    const written = await sql.query<{ page: number }>(
      `INSERT INTO media_pages (media_id, page, width, height, text, words, mean_confidence, language, status, error, image_key, image_mime)
       SELECT $1, t.page, t.width, t.height, t.text, t.words::jsonb, t.confidence, t.language, t.status, t.error, t.image_key, t.image_mime
         FROM unnest($2::int[], $3::int[], $4::int[], $5::text[], $6::text[], $7::float8[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[])
           AS t(page, width, height, text, words, confidence, language, status, error, image_key, image_mime)
        WHERE EXISTS (SELECT 1 FROM media WHERE id = $1)
       ON CONFLICT DO NOTHING RETURNING page`,
      [
        scan.id,
        rows.map((row) => row.page),
        rows.map((row) => row.width),
        rows.map((row) => row.height),
        rows.map((row) => row.text),
        rows.map((row) => JSON.stringify(row.words)),
        rows.map((row) => row.meanConfidence),
        rows.map((row) => row.language),
        rows.map((row) => row.status),
        rows.map((row) => row.error),
        rows.map((row) => row.imageKey),
        rows.map((row) => row.imageMime),
      ],
    );
    // Another worker wrote them first, or the scan was removed meanwhile: our page images go.
    const kept = new Set(written.map((row) => row.page));
    await removeStoredFiles(
      reading.storageDir,
      rows.filter((row) => !kept.has(row.page) && row.imageKey).map((row) => row.imageKey as string),
    );
    result.pages += rows.filter((row) => row.status === "read" && kept.has(row.page)).length;
    result.failed += rows.filter((row) => row.status === "failed" && kept.has(row.page)).length;
    log(`[ocr] ${scan.original_name}: ${rows.length} page(s), ${rows.filter((row) => row.status === "failed").length} not read`);
  }
  return result;
}

interface PageRow {
  page: number;
  width: number;
  height: number;
  text: string;
  words: unknown[];
  meanConfidence: number | null;
  language: string | null;
  status: "read" | "failed";
  error: string | null;
  imageKey: string | null;
  imageMime: string | null;
}

const failedRow = (page: number, error: unknown): PageRow => ({
  page,
  width: 0,
  height: 0,
  text: "",
  words: [],
  meanConfidence: null,
  language: null,
  status: "failed",
  error: truncateText(error instanceof Error ? error.message : String(error), 500),
  imageKey: null,
  imageMime: null,
});

async function readScan(reading: ScanReading, scan: { id: string; storage_key: string; mime: string }): Promise<PageRow[]> {
  const directory = await mkdtemp(join(tmpdir(), "mnemo-scan-"));
  try {
    let images;
    try {
      images = await pageImagesOf(storagePath(reading.storageDir, scan.storage_key), scan.mime, directory);
    } catch (error) {
      return [failedRow(1, error)];
    }
    const rows: PageRow[] = [];
    for (const image of images) {
      try {
        const read = await recognisePage(image.path, reading.ocr);
        const language = (await detectLanguage(read.text)).language;
        const stored = image.extracted
          ? await writeMediaFile(reading.storageDir, `${scan.id}-p${image.page}`, image.extension, new Uint8Array(await readFile(image.path)))
          : null;
        rows.push({
          page: image.page,
          width: read.width,
          height: read.height,
          text: read.text,
          words: read.words,
          meanConfidence: read.meanConfidence,
          language,
          status: "read",
          error: null,
          imageKey: stored?.storageKey ?? null,
          imageMime: stored ? (image.extension === "jpg" ? "image/jpeg" : "image/png") : null,
        });
      } catch (error) {
        rows.push(failedRow(image.page, error));
      }
    }
    return rows;
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
