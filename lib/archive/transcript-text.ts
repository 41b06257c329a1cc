import type { TranscriptTurn } from "./field-definitions";

/**
 * The plain-text form of a transcript in the record editor, one turn per line:
 *
 *   [00:09.92 - 00:24.87] Josep Farré: Me'n recordo com si fos ahir.
 *
 * Timecodes are mm:ss.s or h:mm:ss.s. The speaker is the text before the first colon; a line
 * starting with ": " has no speaker. Blank lines are ignored. Pure, so it can be unit-tested
 * and used on both sides of the form.
 */

export type TranscriptParseResult = { ok: true; turns: TranscriptTurn[] } | { ok: false; error: string };

export const transcriptLineFormat = "[mm:ss.s - mm:ss.s] Speaker: text";

const linePattern = /^\[\s*([\d:.]+)\s*[-–]\s*([\d:.]+)\s*\]\s*(.*)$/;
const timecodePattern = /^(?:(\d+):)?(\d+):(\d{1,2}(?:\.\d+)?)$/;
const maxSpeakerLength = 120;

export function parseTranscriptTimecode(text: string): number | null {
  const match = timecodePattern.exec(text);
  if (!match) return null;
  const [, hoursText, minutesText = "0", secondsText = "0"] = match;
  const minutes = Number(minutesText);
  const seconds = Number(secondsText);
  if (seconds >= 60 || (hoursText !== undefined && minutes >= 60)) return null;
  const total = Number(hoursText ?? 0) * 3600 + minutes * 60 + seconds;
  return Math.round(total * 1000) / 1000;
}

export function formatTranscriptTimecode(seconds: number): string {
  const milliseconds = Math.max(0, Math.round(seconds * 1000));
  const hours = Math.floor(milliseconds / 3_600_000);
  const minutes = Math.floor((milliseconds % 3_600_000) / 60_000);
  const wholeSeconds = Math.floor((milliseconds % 60_000) / 1000);
  const fraction =
    String(milliseconds % 1000)
      .padStart(3, "0")
      .replace(/0+$/, "") || "0";
  const clock = `${String(minutes).padStart(2, "0")}:${String(wholeSeconds).padStart(2, "0")}.${fraction}`;
  return hours > 0 ? `${hours}:${clock}` : clock;
}

export function parseTranscriptText(text: string): TranscriptParseResult {
  const turns: TranscriptTurn[] = [];
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  for (const [index, rawLine] of lines.entries()) {
    const line = rawLine.trim();
    if (!line) continue;
    const where = `Line ${index + 1}`;
    const match = linePattern.exec(line);
    if (!match) return { ok: false, error: `${where}: expected “${transcriptLineFormat}”.` };
    const [, startText = "", endText = "", rest = ""] = match;
    const start = parseTranscriptTimecode(startText);
    const end = parseTranscriptTimecode(endText);
    if (start === null) return { ok: false, error: `${where}: “${startText}” is not a timecode like 01:05.5.` };
    if (end === null) return { ok: false, error: `${where}: “${endText}” is not a timecode like 01:05.5.` };
    if (end < start) return { ok: false, error: `${where}: the turn ends before it starts.` };
    const previous = turns.at(-1);
    if (previous && start < previous.start) return { ok: false, error: `${where}: the turn starts before the turn above it.` };
    const { speaker, body } = splitSpeaker(rest);
    if (!body) return { ok: false, error: `${where}: the turn has no text.` };
    turns.push({ speaker, start, end, text: body });
  }
  return { ok: true, turns };
}

/** The editor's speaker convention: the text before the first colon, if short enough, is the speaker. */
export function splitSpeaker(rest: string): { speaker: string; body: string } {
  const colon = rest.indexOf(":");
  if (colon < 0 || colon > maxSpeakerLength) return { speaker: "", body: rest.trim() };
  return { speaker: rest.slice(0, colon).trim(), body: rest.slice(colon + 1).trim() };
}

export function serializeTranscript(turns: readonly TranscriptTurn[]): string {
  return turns
    .map((turn) => {
      // One turn per line: line breaks inside a turn become spaces.
      const text = turn.text.replace(/\s*\n\s*/g, " ");
      const speaker = turn.speaker.replace(/:/g, "").trim();
      const body = speaker ? `${speaker}: ${text}` : text.includes(":") ? `: ${text}` : text;
      return `[${formatTranscriptTimecode(turn.start)} - ${formatTranscriptTimecode(turn.end)}] ${body}`;
    })
    .join("\n");
}
