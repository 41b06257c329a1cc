import type { IndexSegment, TranscriptTurn } from "../field-definitions";
import { decodeTranscriptBytes, describeFileProblems, parseTranscriptFile, type TranscriptFileFormat } from "./index";

export type TranscriptFromFileResult =
  | { ok: true; format: TranscriptFileFormat; turns: TranscriptTurn[]; segments: IndexSegment[] }
  /** Every problem, "<file name>, line N: …", ready for an import's per-row error list. */
  | { ok: false; problems: string[] };

/**
 * A transcript file named by an import (a CSV column naming a .vtt, .srt or .xml file) read into
 * a recording's turns and index segments, with the same parsers as the editor. A file with any
 * problem gives no turns: the caller reports the row and writes nothing for it. The values it
 * returns still go through validateRecordValues when the record is saved.
 */
export function transcriptFromFile(file: { name: string; bytes: Uint8Array }): TranscriptFromFileResult {
  const decoded = decodeTranscriptBytes(file.bytes);
  const parsed = decoded.ok ? parseTranscriptFile(file.name, decoded.text) : { format: null, turns: [], segments: [], problems: [decoded.problem] };
  if (parsed.problems.length > 0 || !parsed.format) {
    return {
      ok: false,
      problems: describeFileProblems(parsed.problems).map((problem) => `${file.name}, ${problem.charAt(0).toLowerCase()}${problem.slice(1)}`),
    };
  }
  return { ok: true, format: parsed.format, turns: parsed.turns, segments: parsed.segments };
}
