import type { TranscriptTurn } from "../field-definitions";

/**
 * Transcripts out as caption files — WebVTT and SRT — beside the parsers that read them in
 * (web-vtt.ts, srt.ts): what these write, those read back as the same turns.
 *
 * A turn becomes one cue or, when it is long, several: its words are wrapped into lines of at
 * most `maxLineLength` characters (a longer word keeps its own line), at most `maxLines` lines a
 * cue, and the turn's time is shared between its cues by characters, so a cue shows while its
 * words are spoken (as near as the turn's timing tells). Every cue carries the turn's speaker:
 * WebVTT as a voice span (`<v Roser Puig>`), SRT as a "Roser Puig: " prefix, which is what
 * players show and what the parsers read back. `&`, `<` and `>` in text and names are written as
 * character references (both parsers decode them; a raw `<` would be read as markup), which also
 * keeps "-->" out of any cue text. Turns without text are left out; times below zero, or an end
 * before the start, are clamped.
 */
export interface CueOptions {
  /** Characters a caption line holds (default 42, the common broadcast guideline). */
  maxLineLength?: number;
  /** Lines a cue holds (default 2). */
  maxLines?: number;
}

export interface CaptionCue {
  start: number;
  end: number;
  speaker: string;
  /** The cue's text lines, unescaped. */
  lines: string[];
}

const defaultLineLength = 42;
const defaultLines = 2;

/** Wraps words greedily into lines of at most `width` characters; a longer word is a line of its own. */
function wrapWords(words: string[], width: number): string[] {
  const lines: string[] = [];
  let current = "";
  for (const word of words) {
    if (current && current.length + 1 + word.length > width) {
      lines.push(current);
      current = word;
    } else {
      current = current ? `${current} ${word}` : word;
    }
  }
  if (current) lines.push(current);
  return lines;
}

function milliseconds(seconds: number): number {
  return Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : 0;
}

/** The cues of the turns, long turns split, times in seconds rounded to milliseconds. */
export function captionCues(turns: readonly TranscriptTurn[], options: CueOptions = {}): CaptionCue[] {
  const width = Math.max(1, options.maxLineLength ?? defaultLineLength);
  const perCue = Math.max(1, options.maxLines ?? defaultLines);
  const cues: CaptionCue[] = [];
  for (const turn of turns) {
    const words = turn.text.split(/[\s\u00A0]+/).filter(Boolean);
    if (words.length === 0) continue;
    const lines = wrapWords(words, width);
    const groups: string[][] = [];
    for (let index = 0; index < lines.length; index += perCue) groups.push(lines.slice(index, index + perCue));
    const start = milliseconds(turn.start);
    const end = Math.max(start, milliseconds(turn.end));
    // Boundaries by characters: a cue's share of the turn's time is its share of the turn's text.
    const sizes = groups.map((group) => group.join(" ").length + 1);
    const total = sizes.reduce((sum, size) => sum + size, 0);
    const boundaries = [start];
    let before = 0;
    for (const size of sizes) {
      before += size;
      boundaries.push(before === total ? end : start + Math.round(((end - start) * before) / total));
    }
    groups.forEach((group, index) => {
      cues.push({ start: (boundaries[index] ?? start) / 1000, end: (boundaries[index + 1] ?? end) / 1000, speaker: turn.speaker.trim(), lines: group });
    });
  }
  return cues;
}

/** `HH:MM:SS.mmm` (WebVTT, separator ".") or `HH:MM:SS,mmm` (SRT, separator ","); hours grow past 99. */
export function formatCueTimecode(seconds: number, separator: "." | "," = "."): string {
  const total = milliseconds(seconds);
  const hours = Math.floor(total / 3_600_000);
  const minutes = Math.floor(total / 60_000) % 60;
  const secs = Math.floor(total / 1000) % 60;
  const millis = total % 1000;
  const pad = (value: number, size: number) => String(value).padStart(size, "0");
  return `${pad(hours, 2)}:${pad(minutes, 2)}:${pad(secs, 2)}${separator}${pad(millis, 3)}`;
}

/** &, < and > as character references: text can then hold no markup and no "-->". */
export function escapeCueText(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

/** A speaker name fit for a voice span or a prefix: one line, escaped. */
function speakerName(speaker: string): string {
  return escapeCueText(speaker.replace(/[\s\u00A0]+/g, " ").trim());
}

export interface WebVttOptions extends CueOptions {
  /** BCP 47 language of the text, written as a `Language:` header line. */
  language?: string;
  /** A NOTE block after the header (where the file comes from, a machine translation…). */
  note?: string;
}

export function writeWebVtt(turns: readonly TranscriptTurn[], options: WebVttOptions = {}): string {
  const header = ["WEBVTT", "Kind: captions"];
  if (options.language && /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/.test(options.language)) header.push(`Language: ${options.language}`);
  const blocks = [header.join("\n")];
  // A NOTE may not hold "-->" nor a blank line.
  const note = options.note?.replaceAll("-->", "→").replace(/\s+/g, " ").trim();
  if (note) blocks.push(`NOTE ${note}`);
  for (const cue of captionCues(turns, options)) {
    const timing = `${formatCueTimecode(cue.start, ".")} --> ${formatCueTimecode(cue.end, ".")}`;
    const lines = cue.lines.map(escapeCueText);
    const name = speakerName(cue.speaker);
    if (name) lines[0] = `<v ${name}>${lines[0] ?? ""}`;
    blocks.push([timing, ...lines].join("\n"));
  }
  return `${blocks.join("\n\n")}\n`;
}

export function writeSrt(turns: readonly TranscriptTurn[], options: CueOptions = {}): string {
  const blocks = captionCues(turns, options).map((cue, index) => {
    const timing = `${formatCueTimecode(cue.start, ",")} --> ${formatCueTimecode(cue.end, ",")}`;
    const lines = cue.lines.map(escapeCueText);
    const name = speakerName(cue.speaker);
    if (name) lines[0] = `${name}: ${lines[0] ?? ""}`;
    return [String(index + 1), timing, ...lines].join("\n");
  });
  return blocks.length ? `${blocks.join("\n\n")}\n` : "";
}
