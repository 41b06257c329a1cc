import "server-only";
import { z } from "zod";
import { isLoopback, redacted } from "../acl/egress";
import type { Config } from "../config";
import { isAbortError, startDeadline } from "../deadline";
import type { TranscriptTurn } from "./field-definitions";

/**
 * Speech to text through an OpenAI-compatible `POST /v1/audio/transcriptions` (faster-whisper
 * server, whisper.cpp server, vLLM, OpenAI): one multipart request per recording with
 * `response_format=verbose_json` and segment timestamps; the segments become timecoded turns
 * of a draft a curator reviews. No speech model ships with Mnemo (none is on npm or in Debian),
 * so the default is off and the offline default is silence segmentation only.
 *
 * Failures become a SpeechToTextError naming the endpoint without its credentials (the API key
 * travels only in the Authorization header, never in a message), retryable only where a retry
 * can help: no answer, a timeout, 408, 429 and 5xx.
 */

export interface SpeechToText {
  /** The model's name, shown on the draft and the button ("Transcribe with whisper-1"). */
  readonly model: string;
  /** Another machine: recordings of `local_only` sections are never sent to it. */
  readonly external: boolean;
  transcribe(recording: { bytes: Uint8Array<ArrayBuffer>; fileName: string; mime: string }): Promise<TranscriptTurn[]>;
}

export class SpeechToTextError extends Error {
  readonly retryable: boolean;
  constructor(message: string, options: { retryable: boolean; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.name = "SpeechToTextError";
    this.retryable = options.retryable;
  }
}

export interface SpeechToTextOptions {
  baseUrl: string;
  model: string;
  apiKey?: string;
  timeoutMs?: number;
  /** ISO 639-1 hint; unset, the server detects the language. */
  language?: string;
  /** Overrides "a loopback URL is local, any other is external". */
  external?: boolean;
}

/**
 * The worker waits this long for a transcription by default. It must stay under the queue's
 * lease (MNEMO_INDEX_LEASE_SECONDS, 300 s by default), or another worker would take the record
 * while its recording is still being transcribed; raise both for long recordings on slow servers.
 */
export const defaultTranscriptionTimeoutMs = 240_000;

/** The index queue's default lease (lib/rag/index/index-queue.ts, above this layer). */
const defaultLeaseSeconds = 300;

/** Longest piece of an error body quoted in a message. */
const quotedBodyLength = 300;

const verboseJsonSchema = z.object({
  text: z.string().optional(),
  segments: z.array(
    z.object({
      start: z.number().nonnegative(),
      end: z.number().nonnegative(),
      text: z.string(),
      speaker: z.string().optional(),
    }),
  ),
});

/** {baseUrl}/v1/audio/transcriptions, whether or not the configured base URL already ends in /v1. */
export function transcriptionsEndpoint(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "")}/v1/audio/transcriptions`;
}

/** Segments of a verbose_json answer as turns, in time order, blank ones left out. */
export function turnsFromVerboseJson(json: unknown, shownEndpoint = "The transcription server"): TranscriptTurn[] {
  const parsed = verboseJsonSchema.safeParse(json);
  if (!parsed.success) {
    throw new SpeechToTextError(`${shownEndpoint} answered with an unexpected shape (expected verbose_json with segments): ${z.prettifyError(parsed.error)}`, {
      retryable: false,
    });
  }
  return parsed.data.segments
    .map((segment) => ({
      speaker: segment.speaker?.trim() ?? "",
      start: Math.round(segment.start * 100) / 100,
      end: Math.round(Math.max(segment.start, segment.end) * 100) / 100,
      text: segment.text.replace(/\s+/g, " ").trim(),
    }))
    .filter((turn) => turn.text.length > 0)
    .sort((a, b) => a.start - b.start);
}

export function createSpeechToText(options: SpeechToTextOptions): SpeechToText {
  const endpoint = transcriptionsEndpoint(options.baseUrl);
  const shown = `Transcription server ${redacted(endpoint)}`;
  const timeoutMs = options.timeoutMs ?? defaultTranscriptionTimeoutMs;
  return {
    model: options.model,
    external: options.external ?? !isLoopback(options.baseUrl),
    async transcribe(recording) {
      const form = new FormData();
      form.append("file", new Blob([recording.bytes], { type: recording.mime }), recording.fileName);
      form.append("model", options.model);
      form.append("response_format", "verbose_json");
      form.append("timestamp_granularities[]", "segment");
      if (options.language) form.append("language", options.language);
      const headers: Record<string, string> = { accept: "application/json" };
      if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
      let response: Response;
      let text: string;
      const deadline = startDeadline(timeoutMs);
      try {
        response = await deadline.race(fetch(endpoint, { method: "POST", headers, body: form, signal: deadline.signal }));
        text = await deadline.race(response.text());
      } catch (error) {
        const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : "";
        const reason = isAbortError(error) ? `no answer within ${timeoutMs} ms` : `${error instanceof Error ? error.message : String(error)}${cause}`;
        throw new SpeechToTextError(`${shown}: ${reason}.`, { retryable: true, cause: error });
      } finally {
        deadline.clear();
      }
      if (!response.ok) {
        const retryable = response.status === 408 || response.status === 429 || response.status >= 500;
        throw new SpeechToTextError(`${shown} answered HTTP ${response.status}: ${text.slice(0, quotedBodyLength)}`, { retryable });
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (error) {
        throw new SpeechToTextError(`${shown} answered with something that is not JSON: ${text.slice(0, quotedBodyLength)}`, {
          retryable: false,
          cause: error,
        });
      }
      return turnsFromVerboseJson(json, shown);
    },
  };
}

/**
 * The configured speech-to-text endpoint, or null when MNEMO_ASR is off (the default). Throws
 * naming the variables when it is on but incomplete, so start-up stops with a fixable message.
 */
export function speechToTextFromConfig(
  config: Pick<
    Config,
    | "MNEMO_ASR"
    | "MNEMO_ASR_URL"
    | "MNEMO_ASR_MODEL"
    | "MNEMO_ASR_API_KEY"
    | "MNEMO_ASR_TIMEOUT_MS"
    | "MNEMO_ASR_LANGUAGE"
    | "MNEMO_ASR_EXTERNAL"
    | "MNEMO_INDEX_LEASE_SECONDS"
  >,
): SpeechToText | null {
  if (config.MNEMO_ASR !== "openai-compatible") return null;
  const problems = [!config.MNEMO_ASR_URL && "MNEMO_ASR_URL", !config.MNEMO_ASR_MODEL && "MNEMO_ASR_MODEL"]
    .filter((name): name is string => typeof name === "string")
    .map((name) => `  ${name}: is required when MNEMO_ASR=openai-compatible`);
  const leaseSeconds = config.MNEMO_INDEX_LEASE_SECONDS ?? defaultLeaseSeconds;
  const timeoutMs = config.MNEMO_ASR_TIMEOUT_MS ?? defaultTranscriptionTimeoutMs;
  if (timeoutMs >= leaseSeconds * 1000) {
    problems.push(
      `  MNEMO_ASR_TIMEOUT_MS: must be shorter than the index queue's lease (MNEMO_INDEX_LEASE_SECONDS, ${leaseSeconds} s), or another worker takes the record while it is being transcribed`,
    );
  }
  if (problems.length > 0 || !config.MNEMO_ASR_URL || !config.MNEMO_ASR_MODEL) {
    throw new Error(`Invalid speech-to-text configuration:\n${problems.join("\n")}`);
  }
  const external = config.MNEMO_ASR_EXTERNAL === undefined ? undefined : config.MNEMO_ASR_EXTERNAL === "1" || config.MNEMO_ASR_EXTERNAL === "true";
  return createSpeechToText({
    baseUrl: config.MNEMO_ASR_URL,
    model: config.MNEMO_ASR_MODEL,
    apiKey: config.MNEMO_ASR_API_KEY,
    timeoutMs,
    language: config.MNEMO_ASR_LANGUAGE,
    external,
  });
}
