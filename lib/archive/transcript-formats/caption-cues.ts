import type { TranscriptTurn } from "../field-definitions";
import { splitSpeaker } from "../transcript-text";
import { collapseWhitespace, decodeEntities, type FileProblem, fileLines } from "./file-problems";

/**
 * What WebVTT and SRT share: blocks separated by blank lines, a `start --> end` timing line, cue
 * text with markup to strip and a speaker to find. The formats differ in their header and in
 * what a block may be besides a cue, which each parser tells `readCues` (the line of a block that times it).
 */
export interface CueBlock {
  /** 1-based line of the block's first line. */
  line: number;
  lines: string[];
}

/** The blocks of a caption file: runs of non-blank lines (a line of spaces counts as blank). */
export function captionBlocks(text: string, firstLine = 0): CueBlock[] {
  const lines = fileLines(text);
  const blocks: CueBlock[] = [];
  let current: CueBlock | null = null;
  for (let index = firstLine; index < lines.length; index++) {
    const line = lines[index] ?? "";
    if (line.trim() === "") {
      current = null;
      continue;
    }
    if (!current) {
      current = { line: index + 1, lines: [] };
      blocks.push(current);
    }
    current.lines.push(line);
  }
  return blocks;
}

// [h+:]mm:ss[.,]fff — hours optional (WebVTT), a comma or a dot before the fraction (SRT writes a
// comma, many converted files a dot).
const cueTimecodePattern = /^(?:(\d{1,3}):)?(\d{1,2}):(\d{2})(?:[.,](\d{1,3}))?$/;

/** Seconds, or null when the text is no timecode (minutes or seconds of 60 and more included). */
export function parseCueTimecode(text: string): number | null {
  const match = cueTimecodePattern.exec(text.trim());
  if (!match) return null;
  const [, hours = "0", minutes = "0", seconds = "0", fraction = ""] = match;
  if (Number(minutes) >= 60 || Number(seconds) >= 60) return null;
  const total = Number(hours) * 3600 + Number(minutes) * 60 + Number(seconds) + (fraction ? Number(`0.${fraction}`) : 0);
  return Math.round(total * 1000) / 1000;
}

const timingPattern = /^\s*(\S+)\s+-->\s+(\S+)(?:\s+.*)?$/;

export function isTimingLine(line: string): boolean {
  return line.includes("-->");
}

export interface CueTiming {
  start: number;
  end: number;
}

/** Reads `start --> end [settings]`; settings (WebVTT positions, SRT coordinates) are ignored. */
export function parseTimingLine(line: string, lineNumber: number, problems: FileProblem[]): CueTiming | null {
  const match = timingPattern.exec(line);
  if (!match) {
    problems.push({ line: lineNumber, message: "expected a timing line like “00:01.000 --> 00:04.000”." });
    return null;
  }
  const [, startText = "", endText = ""] = match;
  const start = parseCueTimecode(startText);
  const end = parseCueTimecode(endText);
  if (start === null) problems.push({ line: lineNumber, message: `“${startText}” is not a timecode like 00:01:05.500.` });
  if (end === null) problems.push({ line: lineNumber, message: `“${endText}” is not a timecode like 00:01:05.500.` });
  if (start === null || end === null) return null;
  if (end < start) {
    problems.push({ line: lineNumber, message: `the cue ends (${endText}) before it starts (${startText}).` });
    return null;
  }
  return { start, end };
}

/**
 * A cue's text lines, after its timing line. A timing line among them means a blank line is
 * missing, so two cues ran together: reported at that line rather than read as text.
 */
export function cueTextLines(block: CueBlock, timingIndex: number, problems: FileProblem[], lineOffset = 0): string[] | null {
  const text = block.lines.slice(timingIndex + 1);
  const stray = text.findIndex(isTimingLine);
  if (stray < 0) return text;
  problems.push({
    line: block.line + timingIndex + 1 + stray + lineOffset,
    message: "a timing line inside the cue above: a blank line is missing before this cue.",
  });
  return null;
}

/** A speaker-labelled stretch of a cue's text. */
interface Voice {
  speaker: string | null;
  text: string;
}

/**
 * Splits cue text at WebVTT voice spans (`<v Speaker>`, `<v.class Speaker>`): text before any
 * voice has no speaker from markup. Other tags (<i>, <b>, <c.x>, <ruby>, <lang>, inline
 * timestamps) are dropped, SRT's {\an8}-style override codes too, and entities decoded.
 */
function voicesOf(text: string, onUnknownEntity: (entity: string) => void): Voice[] {
  const voices: Voice[] = [];
  const voiceTag = /<v(?:\.[^\s>]*)?[ \t]+([^>]*)>/g;
  let last = 0;
  let speaker: string | null = null;
  const push = (raw: string) => {
    const cleaned = collapseWhitespace(decodeEntities(raw.replace(/<[^>]*>/g, "").replace(/\{\\[^}]*\}/g, ""), { captions: true, onUnknown: onUnknownEntity }));
    if (cleaned) voices.push({ speaker, text: cleaned });
  };
  for (const match of text.matchAll(voiceTag)) {
    push(text.slice(last, match.index));
    speaker = collapseWhitespace(decodeEntities(match[1] ?? "", { captions: true })) || null;
    last = match.index + match[0].length;
  }
  push(text.slice(last));
  return voices;
}

/**
 * A numbered label as diarisation and our own SRT write it ("Speaker 1: ", "Hablante 2: "): one
 * capitalised word and a number, and text that does not go on like a clock ("At 3:00 we left").
 */
function isNumberedSpeaker(label: string, body: string): boolean {
  return /^\p{Lu}\p{L}+ \d{1,3}$/u.test(label) && !/^\d/.test(body);
}

/**
 * "Speaker: text" the way the editor reads it (lib/archive/transcript-text.ts), a little more
 * careful with caption lines, where "At 3:00 we left" or "Mira: això" as a question are common:
 * a label ending in a digit, or holding sentence punctuation, is text.
 */
function speakerPrefix(text: string): { speaker: string; body: string } {
  const split = splitSpeaker(text);
  if (
    !split.speaker ||
    !split.body ||
    (/\d$/.test(split.speaker) && !isNumberedSpeaker(split.speaker, split.body)) ||
    /[?!¿¡"“”«»]/.test(split.speaker) ||
    split.speaker.split(/\s+/).length > 6
  ) {
    return { speaker: "", body: text };
  }
  return split;
}

/**
 * What a cue's text says, voice by voice, as a player's caption line shows it: markup dropped,
 * entities decoded, the speaker from a voice span or a "Speaker: " prefix ("" when none).
 */
export function cueVoices(text: string): { speaker: string; text: string }[] {
  return voicesOf(text, () => undefined).map((voice) =>
    voice.speaker !== null
      ? { speaker: voice.speaker, text: voice.text }
      : { speaker: speakerPrefix(voice.text).speaker, text: speakerPrefix(voice.text).body },
  );
}

/** The turns of one cue: one per voice, with the cue's timing. */
export function cueTurns(timing: CueTiming, textLines: string[], lineNumber: number, problems: FileProblem[]): TranscriptTurn[] {
  const voices = voicesOf(textLines.join("\n"), (entity) => problems.push({ line: lineNumber, message: `unknown character entity ${entity}.` }));
  if (voices.length === 0) {
    problems.push({ line: lineNumber, message: "the cue has no text." });
    return [];
  }
  return voices.map((voice) => {
    if (voice.speaker !== null) return { speaker: voice.speaker, start: timing.start, end: timing.end, text: voice.text };
    const { speaker, body } = speakerPrefix(voice.text);
    return { speaker, start: timing.start, end: timing.end, text: body };
  });
}

/**
 * Cues must follow each other: a cue that starts before the one above it, or while the one above
 * it is still running, is reported at its timing line (a transcript turn list is read in order,
 * and the player lights one turn at a time).
 */
export function checkCueOrder(cues: { line: number; timing: CueTiming }[], problems: FileProblem[]): void {
  // Against the latest start and the latest end so far, so one cue out of place is not missed
  // because the cue just above it is out of place too.
  let latestStart = cues[0];
  let latestEnd = cues[0];
  for (const cue of cues.slice(1)) {
    if (!latestStart || !latestEnd) break;
    if (cue.timing.start < latestStart.timing.start) {
      problems.push({ line: cue.line, message: `the cue starts before the cue above it (line ${latestStart.line}).` });
    } else if (cue.timing.start < latestEnd.timing.end) {
      problems.push({ line: cue.line, message: `the cue starts before the cue above it (line ${latestEnd.line}) has ended.` });
    }
    if (cue.timing.start >= latestStart.timing.start) latestStart = cue;
    if (cue.timing.end > latestEnd.timing.end) latestEnd = cue;
  }
}

export function sortProblems(problems: FileProblem[]): FileProblem[] {
  return problems.sort((a, b) => a.line - b.line);
}

/**
 * The cues of SRT and WebVTT blocks as turns, in one pass: `timingIndexOf` says which line of a
 * block is its timing line (null: not a cue, skipped or already reported by the caller); the
 * timing, the text and the turns are read and reported alike for both formats, and the cues'
 * order is checked at the end. `lineOffset` shifts reported lines (WebVTT inside OHMS).
 */
export function readCues(blocks: CueBlock[], timingIndexOf: (block: CueBlock) => number | null, problems: FileProblem[], lineOffset = 0): TranscriptTurn[] {
  const turns: TranscriptTurn[] = [];
  const cues: { line: number; timing: CueTiming }[] = [];
  for (const block of blocks) {
    const timingIndex = timingIndexOf(block);
    if (timingIndex === null) continue;
    const timingLine = block.line + timingIndex + lineOffset;
    const timing = parseTimingLine(block.lines[timingIndex] ?? "", timingLine, problems);
    if (!timing) continue;
    const text = cueTextLines(block, timingIndex, problems, lineOffset);
    if (!text) continue;
    const found = cueTurns(timing, text, timingLine, problems);
    if (found.length === 0) continue;
    cues.push({ line: timingLine, timing });
    turns.push(...found);
  }
  checkCueOrder(cues, problems);
  return turns;
}
