import "server-only";
import { ffmpegInstalled } from "./archive/audio-intake";
import { type OcrStatus, ocrStatus } from "./archive/ocr/run-tesseract";
import { getConfig } from "./config";
import type { SqlExecutor } from "./db/sql-executor";
import { processTranslationBridge, type TranslationBridge } from "./rag/embed/translate";
import type { Principal } from "./acl";
import { type IndexReadiness, indexReadiness } from "./rag/index/index-readiness";
import { getActiveIndexSpace } from "./rag/index/index-spaces";

/**
 * What an operator needs to know at a glance: is the database answering, which index space
 * serves search, and is the language bridge installed (without it Spanish and Catalan are
 * embedded as written, which an English-only model understands poorly), and can uploaded audio
 * and video be read (ffmpeg: length, waveform, streamable copy, silence drafts). No counts of
 * records, so it can be served without signing in.
 */
export interface HealthReport {
  status: "ok" | "degraded" | "down";
  database: { ok: boolean; mode: string };
  indexSpace: string | null;
  languageBridge: { available: boolean; spanish: boolean; catalan: boolean; detail: string };
  ffmpeg: { available: boolean };
  /** OCR of scanned pages: tesseract with the configured languages (MNEMO_OCR_LANGUAGES). */
  ocr: OcrStatus;
  /** Search covers every record: the same as `indexing.ready`, at the top for scripts that wait for it. */
  ready: boolean;
  indexing: IndexReadiness;
}

export async function healthReport(
  sql: SqlExecutor,
  mode: string,
  bridge: TranslationBridge = processTranslationBridge,
  tools: { ffmpeg?: () => Promise<boolean>; ocr?: () => Promise<OcrStatus> } = {},
  principal: Principal | null = null,
): Promise<HealthReport> {
  let databaseOk = false;
  let indexSpace: string | null = null;
  let indexing: IndexReadiness = { ready: false, percent: 0 };
  try {
    await sql.query("SELECT 1");
    databaseOk = true;
    indexSpace = (await getActiveIndexSpace(sql))?.name ?? null;
    indexing = await indexReadiness(sql, principal);
  } catch {
    databaseOk = false;
  }
  const { ffmpeg = ffmpegInstalled, ocr = () => ocrStatus(getConfig().MNEMO_OCR_LANGUAGES) } = tools;
  const [status, reading] = await Promise.all([bridge.status(), ocr()]);
  const languageBridge = { available: status.available, spanish: status.pairs.es, catalan: status.pairs.ca, detail: status.detail };
  const ffmpegAvailable = await ffmpeg();
  return {
    // Without ffmpeg recordings stay unread, without OCR scans stay unsearchable, until they are installed.
    status: !databaseOk ? "down" : status.available && status.pairs.es && status.pairs.ca && ffmpegAvailable && reading.available ? "ok" : "degraded",
    database: { ok: databaseOk, mode },
    indexSpace,
    languageBridge,
    ffmpeg: { available: ffmpegAvailable },
    ocr: reading,
    ready: databaseOk && indexing.ready,
    indexing,
  };
}
