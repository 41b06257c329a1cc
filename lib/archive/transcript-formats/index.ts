import { maxSegments, maxTurns } from "../validate-record-values";
import { fileLines, type FileProblem, maxTranscriptFileCharacters, type TranscriptFileResult } from "./file-problems";
import { parseOhmsXml } from "./ohms-xml";
import { parseSrt } from "./srt";
import { parseWebVtt } from "./web-vtt";

export type { FileProblem, TranscriptFileResult } from "./file-problems";
export { maxTranscriptFileCharacters } from "./file-problems";
export { cueVoices } from "./caption-cues";
export { parseOhmsXml } from "./ohms-xml";
export { parseSrt } from "./srt";
export { parseWebVtt } from "./web-vtt";
export { type CaptionCue, type CueOptions, type WebVttOptions, captionCues, escapeCueText, formatCueTimecode, writeSrt, writeWebVtt } from "./write-captions";

/**
 * Transcript files as archives hold them — WebVTT, SRT and OHMS XML — read into a recording's
 * timecoded turns (and, from OHMS, its index segments). Pure, so the record editor parses in
 * the browser and the server (transcriptFromFile, for import) with the same code.
 *
 * A file with any problem is refused as a whole: every problem is listed with its line, and
 * nothing is filled in or saved, so a half-read transcript never replaces a good one.
 */
export type TranscriptFileFormat = "webvtt" | "srt" | "ohms";

export const transcriptFileAccept = ".vtt,.srt,.xml,text/vtt,application/x-subrip,application/xml,text/xml";

/** By extension first; a file without a known one is recognised by its first line. */
export function transcriptFileFormat(fileName: string, text: string): TranscriptFileFormat | null {
  const extension = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  if (extension === "vtt") return "webvtt";
  if (extension === "srt") return "srt";
  if (extension === "xml") return "ohms";
  const first =
    fileLines(text)
      .find((line) => line.trim() !== "")
      ?.trim() ?? "";
  if (/^WEBVTT(?:\s|$)/.test(first)) return "webvtt";
  if (first.startsWith("<")) return "ohms";
  if (/^\d+$/.test(first) || first.includes("-->")) return "srt";
  return null;
}

export const formatNames: Record<TranscriptFileFormat, string> = { webvtt: "WebVTT", srt: "SRT", ohms: "OHMS XML" };

export function parseTranscriptFile(fileName: string, text: string): TranscriptFileResult & { format: TranscriptFileFormat | null } {
  const refuse = (problem: FileProblem) => ({ format: null, turns: [], segments: [], problems: [problem] });
  if (text.length > maxTranscriptFileCharacters) {
    return refuse({ line: 1, message: `the file is larger than ${maxTranscriptFileCharacters.toLocaleString("en")} characters.` });
  }
  const format = transcriptFileFormat(fileName, text);
  if (!format) return refuse({ line: 1, message: "this is not a WebVTT (.vtt), SRT (.srt) or OHMS XML (.xml) file." });
  const result = format === "webvtt" ? parseWebVtt(text) : format === "srt" ? parseSrt(text) : parseOhmsXml(text);
  const problems = [...result.problems];
  if (result.turns.length > maxTurns)
    problems.push({ line: 1, message: `the file has ${result.turns.length} turns; a transcript may have at most ${maxTurns}.` });
  if (result.segments.length > maxSegments)
    problems.push({ line: 1, message: `the file has ${result.segments.length} index points; an index may have at most ${maxSegments}.` });
  if (problems.length === 0 && result.turns.length === 0 && result.segments.length === 0) {
    problems.push({ line: 1, message: `the ${formatNames[format]} file holds no transcript and no index.` });
  }
  return { format, turns: result.turns, segments: result.segments, problems };
}

/** Problems as the editor and import show them: "Line 12: …", one per line of text. */
export function describeFileProblems(problems: readonly FileProblem[], limit = 50): string[] {
  const shown = problems.slice(0, limit).map((problem) => `Line ${problem.line}: ${problem.message.charAt(0).toUpperCase()}${problem.message.slice(1)}`);
  if (problems.length > limit) shown.push(`…and ${problems.length - limit} more.`);
  return shown;
}

/**
 * A file's bytes as text: UTF-8 (a byte-order mark dropped), or UTF-16 when a byte-order mark
 * says so. Anything else — often Windows-1252 subtitles — is refused rather than read with
 * replacement characters.
 */
export function decodeTranscriptBytes(bytes: Uint8Array): { ok: true; text: string } | { ok: false; problem: FileProblem } {
  if (bytes.length > maxTranscriptFileCharacters * 2) {
    return { ok: false, problem: { line: 1, message: `the file is larger than ${maxTranscriptFileCharacters.toLocaleString("en")} characters.` } };
  }
  const encoding = bytes[0] === 0xff && bytes[1] === 0xfe ? "utf-16le" : bytes[0] === 0xfe && bytes[1] === 0xff ? "utf-16be" : "utf-8";
  try {
    return { ok: true, text: new TextDecoder(encoding, { fatal: true }).decode(bytes) };
  } catch {
    return { ok: false, problem: { line: 1, message: "the file is not UTF-8 text: save it as UTF-8 and import it again." } };
  }
}
