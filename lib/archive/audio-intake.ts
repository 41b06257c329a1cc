import "server-only";
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdir, readFile, rm, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { type EgressPolicy, egressAllowed, mayLeaveHost } from "../acl/egress";
import { auditSql } from "../db/audit";
import type { SqlExecutor } from "../db/sql-executor";
import { truncateText } from "../storable-text";
import type { FieldDefinition, TranscriptTurn } from "./field-definitions";
import { mediaFileKey, storagePath } from "./media-storage";
import { type SpeechToText, SpeechToTextError } from "./speech-to-text";
import { parseSilences, peakCount, silenceMinSeconds, silenceNoiseDecibels, speechSegments, waveformPeaks } from "./speech-segments";

/**
 * Audio and video intake, run by the index worker — never by the upload request — for every
 * recording stored since its upload (`media.intake = pending`), with Debian's ffprobe and ffmpeg
 * as child processes (execFile, no shell, each with a time limit):
 *   1. ffprobe reads the duration;
 *   2. a recording browsers cannot stream well gets a streamable copy beside the original, which
 *      is kept: WAV and FLAC become Ogg Opus, an MP4 whose index (moov) follows its data is
 *      remuxed with the index first (faststart); the media route serves the copy to players;
 *   3. waveform peaks (about a thousand min/max pairs) from 16-bit mono samples;
 *   4. `silencedetect` finds the pauses; the speech between them becomes a segmentation draft of
 *      the record's transcript field: timecoded empty turns the archivist fills in;
 *   5. with a speech-to-text endpoint configured (MNEMO_ASR), an `asr` draft is queued and
 *      transcribed — never for a section whose egress policy keeps its text on this host,
 *      unless the endpoint is itself on this host (lib/acl/egress.ts).
 * A recording ffmpeg cannot read is marked `failed` and audited (`media.intake_failed`): kept,
 * served as uploaded, without waveform or draft. A file missing on disk fails the record, which
 * the queue retries, like any other read.
 */

export interface AudioIntakeOptions {
  storageDir: string;
  /** The configured speech-to-text endpoint, or null (MNEMO_ASR=off). */
  speechToText: SpeechToText | null;
}

export interface AudioIntakeResult {
  ready: number;
  /** Left pending because ffmpeg/ffprobe are not installed here. */
  skipped: number;
  failed: number;
  drafts: number;
  transcribed: number;
}

/** How often a transcription whose failure a retry could help is tried before its draft fails. */
export const maxTranscriptionAttempts = 3;

const probeTimeoutMs = 30_000;

/** Runs a program without a shell; rejects with its stderr's last line on failure or timeout. */
function run(program: string, args: string[], options: { timeoutMs: number; maxBuffer?: number }): Promise<{ stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      program,
      args,
      { encoding: "buffer", timeout: options.timeoutMs, killSignal: "SIGKILL", maxBuffer: options.maxBuffer ?? 4 * 1024 * 1024, windowsHide: true },
      (error, stdout, stderr) => {
        const errorText = stderr.toString("utf8");
        if (error) {
          const killed = (error as { killed?: boolean }).killed;
          const lastLine = errorText.trim().split("\n").at(-1) ?? "";
          reject(new Error(killed ? `${program} took longer than ${Math.round(options.timeoutMs / 1000)} s` : `${program}: ${lastLine || error.message}`));
          return;
        }
        resolve({ stdout, stderr: errorText });
      },
    );
  });
}

let installed: Promise<boolean> | undefined;

/** Whether ffmpeg and ffprobe can be run here (asked once per process; logged once when not). */
export function ffmpegInstalled(): Promise<boolean> {
  installed ??= Promise.all([run("ffmpeg", ["-version"], { timeoutMs: 10_000 }), run("ffprobe", ["-version"], { timeoutMs: 10_000 })]).then(
    () => true,
    (error: unknown) => {
      console.warn(
        `[mnemo] ffmpeg/ffprobe cannot be run (${error instanceof Error ? error.message : String(error)}): recordings stay pending until it is installed (apt-get install -y ffmpeg).`,
      );
      return false;
    },
  );
  return installed;
}

export interface ProbedRecording {
  durationSeconds: number;
  hasAudio: boolean;
}

/** Duration and whether there is an audio stream, from ffprobe's JSON. */
export async function probeRecording(path: string): Promise<ProbedRecording> {
  const { stdout } = await run("ffprobe", ["-v", "error", "-print_format", "json", "-show_entries", "format=duration:stream=codec_type", path], {
    timeoutMs: probeTimeoutMs,
  });
  const probed = JSON.parse(stdout.toString("utf8")) as { format?: { duration?: string }; streams?: { codec_type?: string }[] };
  const durationSeconds = Number(probed.format?.duration);
  if (!Number.isFinite(durationSeconds) || durationSeconds <= 0) throw new Error("ffprobe found no duration: the file holds no playable stream");
  return { durationSeconds, hasAudio: (probed.streams ?? []).some((stream) => stream.codec_type === "audio") };
}

/** Whether an MP4's index (moov) comes after its data (mdat), so a player must fetch the end first. */
export function moovAfterMdat(bytes: Uint8Array): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 0;
  while (offset + 8 <= bytes.length) {
    let size = view.getUint32(offset);
    const type = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8));
    if (type === "moov") return false;
    if (type === "mdat") return true;
    if (size === 1 && offset + 16 <= bytes.length) size = Number(view.getBigUint64(offset + 8));
    if (size < 8) return false;
    offset += size;
  }
  return false;
}

/** The streamable copy to make, if any: its container, mime and ffmpeg's codec arguments. */
function streamPlan(mime: string, bytes: Uint8Array): { extension: string; mime: string; args: string[] } | null {
  if (mime === "audio/wav" || mime === "audio/flac")
    return { extension: "ogg", mime: "audio/ogg", args: ["-vn", "-c:a", "libopus", "-b:a", "48k", "-f", "ogg"] };
  if ((mime === "video/mp4" || mime === "audio/mp4") && moovAfterMdat(bytes)) {
    return { extension: mime === "audio/mp4" ? "m4a" : "mp4", mime, args: ["-c", "copy", "-movflags", "+faststart", "-f", "mp4"] };
  }
  return null;
}

/** Seconds of work allowed for a pass over a recording: generous, but bounded. */
const passTimeoutMs = (durationSeconds: number) => 60_000 + Math.ceil(durationSeconds) * 1000;

/** The silences `silencedetect` hears, at the measured settings (speech-segments.ts) unless told others. */
export async function detectSilences(path: string, durationSeconds: number, settings = { noiseDecibels: silenceNoiseDecibels, minSeconds: silenceMinSeconds }) {
  const { stderr } = await run(
    "ffmpeg",
    [
      "-nostdin",
      "-hide_banner",
      "-nostats",
      "-i",
      path,
      "-vn",
      "-af",
      `silencedetect=noise=${settings.noiseDecibels}dB:d=${settings.minSeconds}`,
      "-f",
      "null",
      "-",
    ],
    { timeoutMs: passTimeoutMs(durationSeconds) },
  );
  return parseSilences(stderr, durationSeconds);
}

/** Waveform peaks from mono 16-bit samples; long recordings are read at a lower rate (at most 4M samples). */
export async function computePeaks(path: string, durationSeconds: number): Promise<[number, number][]> {
  const maxSamples = 4_000_000;
  const rate = Math.max(200, Math.min(8000, Math.floor(maxSamples / durationSeconds)));
  const { stdout } = await run("ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-vn", "-ac", "1", "-ar", String(rate), "-f", "s16le", "-"], {
    timeoutMs: passTimeoutMs(durationSeconds),
    maxBuffer: Math.ceil(durationSeconds * rate * 2) + 1024 * 1024,
  });
  return waveformPeaks(new Uint8Array(stdout.buffer, stdout.byteOffset, stdout.byteLength), peakCount);
}

/**
 * The transcript fields a recording belongs to: those naming its media field, and those naming
 * none when it is the section's first media field (as the record page pairs them).
 */
export function transcriptFieldsOf(fields: readonly FieldDefinition[], mediaFieldKey: string): string[] {
  const firstMedia = fields.find((field) => field.type === "media")?.key;
  return fields
    .filter((field) => field.type === "transcript" && (field.mediaField ? field.mediaField === mediaFieldKey : firstMedia === mediaFieldKey))
    .map((field) => field.key);
}

interface PendingRecording {
  id: string;
  project_id: string;
  record_id: string;
  field_key: string | null;
  mime: string;
  storage_key: string;
  original_name: string;
  values: Record<string, unknown>;
  fields: FieldDefinition[];
  egress_policy: EgressPolicy;
}

/** Intake of the records' pending recordings, then their pending transcriptions. */
export async function processRecordings(sql: SqlExecutor, options: AudioIntakeOptions, recordIds: readonly string[]): Promise<AudioIntakeResult> {
  const result: AudioIntakeResult = { ready: 0, skipped: 0, failed: 0, drafts: 0, transcribed: 0 };
  if (recordIds.length === 0) return result;
  const pending = await sql.query<PendingRecording>(
    `SELECT m.id, m.project_id, m.record_id, m.field_key, m.mime, m.storage_key, m.original_name, r."values", s.fields, s.egress_policy
       FROM media m JOIN records r ON r.id = m.record_id JOIN sections s ON s.id = r.section_id
      WHERE m.record_id = ANY($1::text[]) AND m.intake = 'pending' ORDER BY m.id`,
    [[...recordIds]],
  );
  // Without ffmpeg nothing can be read: the recordings stay pending (not failed) for a worker
  // on a machine that has it, or for a reindex once it is installed.
  if (pending.length > 0 && !(await ffmpegInstalled())) {
    result.skipped = pending.length;
    return result;
  }
  for (const recording of pending) {
    const drafts = await intakeRecording(sql, options, recording);
    if (drafts === null) result.failed++;
    else {
      result.ready++;
      result.drafts += drafts;
    }
  }
  result.transcribed = await transcribePending(sql, options, recordIds);
  return result;
}

async function intakeRecording(sql: SqlExecutor, options: AudioIntakeOptions, recording: PendingRecording): Promise<number | null> {
  const path = storagePath(options.storageDir, recording.storage_key);
  await stat(path); // Missing on disk: the record fails and is retried.
  let streamKey: string | null = null;
  try {
    const probed = await probeRecording(path);
    const plan = streamPlan(recording.mime, new Uint8Array(await readFile(path)));
    let stream: { key: string; mime: string } | null = null;
    if (plan) {
      streamKey = mediaFileKey(randomUUID(), plan.extension);
      const streamPath = storagePath(options.storageDir, streamKey);
      await mkdir(dirname(streamPath), { recursive: true });
      await run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", path, ...plan.args, streamPath], { timeoutMs: passTimeoutMs(probed.durationSeconds) });
      stream = { key: streamKey, mime: plan.mime };
    }
    const peaks = probed.hasAudio ? await computePeaks(path, probed.durationSeconds) : null;
    const segments = probed.hasAudio ? speechSegments(await detectSilences(path, probed.durationSeconds), probed.durationSeconds) : [];
    const speechToText = options.speechToText;
    const transcribe = speechToText !== null && mayLeaveHost(speechToText, egressAllowed([recording.egress_policy]));
    const drafts = await sql.transaction(async (tx) => {
      const [updated] = await tx.query<{ id: string }>(
        `UPDATE media SET intake = 'ready', duration_seconds = $2, stream_key = $3, stream_mime = $4, peaks = $5::jsonb
          WHERE id = $1 AND intake = 'pending' RETURNING id`,
        [recording.id, Math.round(probed.durationSeconds * 1000) / 1000, stream?.key ?? null, stream?.mime ?? null, peaks ? JSON.stringify(peaks) : null],
      );
      if (!updated) return null; // Another worker took it first.
      let drafts = 0;
      for (const fieldKey of recording.field_key && probed.hasAudio ? transcriptFieldsOf(recording.fields, recording.field_key) : []) {
        // A transcript already written (typed, imported) is not offered a skeleton over it.
        const current = recording.values[fieldKey];
        if (Array.isArray(current) && current.length > 0) continue;
        const turns: TranscriptTurn[] = segments.map((segment) => ({ speaker: "", start: segment.start, end: segment.end, text: "" }));
        await upsertDraft(tx, { recordId: recording.record_id, fieldKey, mediaId: recording.id, source: "segmentation", status: "ready", turns });
        drafts++;
        if (transcribe)
          await upsertDraft(tx, {
            recordId: recording.record_id,
            fieldKey,
            mediaId: recording.id,
            source: "asr",
            status: "pending",
            model: speechToText.model,
          });
      }
      return drafts;
    });
    if (drafts === null && streamKey) await rm(storagePath(options.storageDir, streamKey), { force: true });
    return drafts ?? 0;
  } catch (error) {
    if (streamKey) await rm(storagePath(options.storageDir, streamKey), { force: true });
    const reason = truncateText(error instanceof Error ? error.message : String(error), 300);
    await sql.transaction(async (tx) => {
      await tx.query(`UPDATE media SET intake = 'failed' WHERE id = $1 AND intake = 'pending'`, [recording.id]);
      await auditSql(tx, {
        action: "media.intake_failed",
        targetType: "media",
        targetId: recording.id,
        projectId: recording.project_id,
        details: { recordId: recording.record_id, originalName: recording.original_name, reason },
      });
    });
    return null;
  }
}

/** Writes the draft of a record's field from one source, replacing the one before. */
export async function upsertDraft(
  sql: Pick<SqlExecutor, "query">,
  draft: {
    recordId: string;
    fieldKey: string;
    mediaId: string;
    source: "segmentation" | "asr";
    status: "pending" | "ready";
    turns?: TranscriptTurn[];
    model?: string;
    createdById?: string | null;
  },
): Promise<void> {
  await sql.query(
    `INSERT INTO transcript_drafts (id, record_id, field_key, media_id, source, status, model, turns, created_by_id, updated_at)
     VALUES (gen_random_uuid()::text, $1, $2, $3, $4::"TranscriptDraftSource", $5::"TranscriptDraftStatus", $6, $7::jsonb, $8, now())
     ON CONFLICT (record_id, field_key, source) DO UPDATE
       SET media_id = EXCLUDED.media_id, status = EXCLUDED.status, model = EXCLUDED.model, turns = EXCLUDED.turns,
           error = NULL, attempts = 0, created_by_id = EXCLUDED.created_by_id, updated_at = now()`,
    [
      draft.recordId,
      draft.fieldKey,
      draft.mediaId,
      draft.source,
      draft.status,
      draft.model ?? null,
      JSON.stringify(draft.turns ?? []),
      draft.createdById ?? null,
    ],
  );
}

interface PendingTranscription {
  id: string;
  record_id: string;
  media_id: string;
  attempts: number;
  intake: string | null;
  mime: string;
  stream_mime: string | null;
  storage_key: string;
  stream_key: string | null;
  original_name: string;
  egress_policy: EgressPolicy;
}

/**
 * Sends the records' pending `asr` drafts' recordings to the speech-to-text endpoint. The
 * egress rule is read again here, from the section as it is now: a section made local-only
 * after the draft was queued is never sent. A failure a retry could help (no answer, 5xx) is
 * thrown after noting it on the draft, so the queue retries the record with its backoff; the
 * last attempt, and any other failure, leaves the draft `failed` with the message.
 */
async function transcribePending(sql: SqlExecutor, options: AudioIntakeOptions, recordIds: readonly string[]): Promise<number> {
  const drafts = await sql.query<PendingTranscription>(
    `SELECT d.id, d.record_id, d.media_id, d.attempts, m.intake, m.mime, m.stream_mime, m.storage_key, m.stream_key, m.original_name, s.egress_policy
       FROM transcript_drafts d JOIN media m ON m.id = d.media_id JOIN records r ON r.id = d.record_id JOIN sections s ON s.id = r.section_id
      WHERE d.record_id = ANY($1::text[]) AND d.source = 'asr' AND d.status = 'pending' ORDER BY d.id`,
    [[...recordIds]],
  );
  let transcribed = 0;
  let retry: SpeechToTextError | null = null;
  const fail = (id: string, message: string) =>
    sql.query(`UPDATE transcript_drafts SET status = 'failed', error = $2, updated_at = now() WHERE id = $1 AND status = 'pending'`, [
      id,
      truncateText(message, 1000),
    ]);
  for (const draft of drafts) {
    const speechToText = options.speechToText;
    if (!speechToText) {
      await fail(draft.id, "Speech to text is off on this server (MNEMO_ASR).");
      continue;
    }
    if (!mayLeaveHost(speechToText, egressAllowed([draft.egress_policy]))) {
      await fail(
        draft.id,
        "This section's recordings stay on this server (egress policy local only); they are never sent to an external transcription server.",
      );
      continue;
    }
    if (draft.intake === "pending") continue; // Its intake failed to run this time; the record is retried.
    if (draft.intake === "failed") {
      await fail(draft.id, "The recording could not be read, so it was not sent for transcription.");
      continue;
    }
    const key = draft.stream_key ?? draft.storage_key;
    const mime = draft.stream_key ? (draft.stream_mime ?? draft.mime) : draft.mime;
    const bytes = new Uint8Array(await readFile(storagePath(options.storageDir, key)));
    const fileName = `${draft.original_name.replace(/\.[^.]*$/, "") || "recording"}.${key.split(".").pop() ?? "bin"}`;
    try {
      const turns = await speechToText.transcribe({ bytes, fileName, mime });
      await sql.query(
        `UPDATE transcript_drafts SET status = 'ready', turns = $2::jsonb, model = $3, error = NULL, attempts = attempts + 1, updated_at = now()
          WHERE id = $1 AND status = 'pending'`,
        [draft.id, JSON.stringify(turns), speechToText.model],
      );
      transcribed++;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const retryable = error instanceof SpeechToTextError && error.retryable && draft.attempts + 1 < maxTranscriptionAttempts;
      if (!retryable) {
        await sql.query(`UPDATE transcript_drafts SET attempts = attempts + 1 WHERE id = $1`, [draft.id]);
        await fail(draft.id, message);
        continue;
      }
      await sql.query(`UPDATE transcript_drafts SET attempts = attempts + 1, error = $2, updated_at = now() WHERE id = $1`, [
        draft.id,
        truncateText(`${message} (attempt ${draft.attempts + 1} of ${maxTranscriptionAttempts}; will retry)`, 1000),
      ]);
      retry ??= error as SpeechToTextError;
    }
  }
  if (retry) throw retry;
  return transcribed;
}
