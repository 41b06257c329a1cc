import type { IndexSegment, TranscriptTurn } from "../field-definitions";
import { parseTranscriptTimecode, splitSpeaker } from "../transcript-text";
import { collapseWhitespace, type FileProblem, type TranscriptFileResult } from "./file-problems";
import { childElements, findElement, firstChild, readXml, textContent, XmlRefusal, type XmlElement } from "../xml/read-xml";
import { parseWebVtt } from "./web-vtt";

/**
 * OHMS XML, as the Oral History Metadata Synchronizer (and Aviary) export it:
 *
 *   <ROOT><record> … <duration>0:45:13</duration>
 *     <sync>1:|13(3)|19(14)|…</sync>   <transcript>SMITH: text…</transcript>
 *     (or <vtt_transcript>WEBVTT …</vtt_transcript> in newer exports)
 *     <index><point><time>seconds</time><title/><partial_transcript/><synopsis/>
 *       <keywords>a;b</keywords><subjects>c;d</subjects> …</point>…</index>
 *   </record></ROOT>
 *
 * The transcript is plain text: paragraphs separated by blank lines, a paragraph's speaker the
 * label before a colon on its first line ("SMITH:"; a paragraph without one continues the
 * previous speaker). `<sync>` places minute marks in it: before the colon the interval in
 * minutes, then `|`-separated stamps where the n-th (counting from 0, the first usually empty)
 * is at n × interval minutes and reads `line(word)` — that minute starts at word `word` of line
 * `line` of the transcript (1-based; a newline right after <transcript> does not count as a
 * line). A turn starts at the time of its first word, interpolated linearly between the marks
 * around it (from 0 s at the first word, to the duration at the last); it ends where the next
 * one starts. Index points become segments ending at the next point, or at the duration.
 * Subjects are added to a segment's keywords. Footnotes ([[footnote]]n[[/footnote]] references
 * and the [[footnotes]] section) are left out. Lines in problems are lines of the XML file.
 */
export function parseOhmsXml(text: string): TranscriptFileResult {
  const problems: FileProblem[] = [];
  let root: XmlElement;
  try {
    root = readXml(text);
  } catch (error) {
    if (error instanceof XmlRefusal) return { turns: [], segments: [], problems: [{ line: error.line, message: error.reason }] };
    throw error;
  }
  const record = root.name === "record" ? root : findElement(root, "record");
  if (!record) return { turns: [], segments: [], problems: [{ line: root.line, message: "no <record> element: this is not an OHMS export." }] };

  const durationElement = firstChild(record, "duration");
  const duration = durationElement ? parseDuration(textContent(durationElement), durationElement.line, problems) : null;

  let turns: TranscriptTurn[] = [];
  const transcript = firstChild(record, "transcript");
  const vtt = firstChild(record, "vtt_transcript");
  if (transcript && textContent(transcript).trim()) {
    turns = legacyTurns(transcript, firstChild(record, "sync"), duration, problems);
  } else if (vtt && textContent(vtt).trim()) {
    const raw = textContent(vtt);
    // The WebVTT text starts on the <vtt_transcript> line, after a newline it may begin with.
    const parsed = parseWebVtt(raw, { lineOffset: vtt.line - 1 });
    turns = parsed.turns;
    problems.push(...parsed.problems);
  }

  const index = firstChild(record, "index");
  const segments = index ? indexSegments(index, duration ?? turns.at(-1)?.end ?? null, problems) : [];
  return { turns, segments, problems: problems.sort((a, b) => a.line - b.line) };
}

/** "0:45:13", "45:13", "2713" or "2713.5" → seconds. */
function parseDuration(raw: string, line: number, problems: FileProblem[]): number | null {
  const value = raw.trim();
  if (!value) return null;
  const seconds = /^\d+(?:\.\d+)?$/.test(value) ? Number(value) : parseTranscriptTimecode(value);
  if (seconds === null) problems.push({ line, message: `the duration “${value.slice(0, 40)}” is not a time like 0:45:13.` });
  return seconds;
}

interface Paragraph {
  /** Index of the paragraph's first word among all words of the transcript. */
  firstWord: number;
  speaker: string;
  text: string;
}

function legacyTurns(transcript: XmlElement, sync: XmlElement | undefined, duration: number | null, problems: FileProblem[]): TranscriptTurn[] {
  let raw = textContent(transcript)
    // The footnotes section keeps its line breaks, so the lines after it keep their numbers.
    .replace(/\[\[footnotes\]\][\s\S]*?\[\[\/footnotes\]\]/g, (section) => section.replace(/[^\n]/g, ""))
    .replace(/\s*\[\[footnote\]\]\s*\d+\s*\[\[\/footnote\]\]/g, "");
  // Line 1 is the first line of text, whether or not it starts on the <transcript> line.
  if (raw.startsWith("\n")) raw = raw.slice(1);
  const lines = raw.split("\n");
  const wordsBeforeLine: number[] = [];
  const paragraphs: Paragraph[] = [];
  let words = 0;
  let open: Paragraph | null = null;
  let speaker = "";
  for (const line of lines) {
    wordsBeforeLine.push(words);
    const lineWords = line.split(/\s+/).filter(Boolean);
    if (lineWords.length === 0) {
      open = null;
      continue;
    }
    if (!open) {
      const split = splitSpeaker(line.trim());
      // OHMS labels are short names ("SMITH:", "Marta Puig:"); a colon later in a sentence is text.
      const labelled = split.speaker && split.body && split.speaker.split(/\s+/).length <= 6 && !/[.?!]$/.test(split.speaker) && !/\d$/.test(split.speaker);
      if (labelled) speaker = split.speaker;
      open = { firstWord: words, speaker, text: labelled ? split.body : line.trim() };
      paragraphs.push(open);
    } else {
      open.text += ` ${line.trim()}`;
    }
    words += lineWords.length;
  }
  wordsBeforeLine.push(words);
  if (paragraphs.length === 0) return [];

  const syncLine = sync?.line ?? transcript.line;
  const marks = syncMarks(sync ? textContent(sync) : "", syncLine, problems)
    .map(({ line, word, seconds }) => {
      if (line < 1 || line > lines.length) {
        problems.push({
          line: syncLine,
          message: `the sync point at ${formatMinutes(seconds)} names line ${line}, but the transcript has ${lines.length} lines.`,
        });
        return null;
      }
      const lineWords = (wordsBeforeLine[line] ?? words) - (wordsBeforeLine[line - 1] ?? 0);
      return { word: (wordsBeforeLine[line - 1] ?? 0) + Math.min(Math.max(word, 1), Math.max(lineWords, 1)) - 1, seconds };
    })
    .filter((mark): mark is { word: number; seconds: number } => mark !== null);
  for (let index = 1; index < marks.length; index++) {
    if (marks[index]!.word < marks[index - 1]!.word) {
      problems.push({
        line: syncLine,
        message: `the sync point at ${formatMinutes(marks[index]!.seconds)} is earlier in the transcript than the one at ${formatMinutes(marks[index - 1]!.seconds)}.`,
      });
      return [];
    }
  }
  // The first word is at 0 s, unless a mark says when it is.
  const anchors = marks[0]?.word === 0 ? [...marks] : [{ word: 0, seconds: 0 }, ...marks];
  const last = anchors.at(-1)!;
  if (duration !== null && duration > last.seconds && words > last.word) anchors.push({ word: words, seconds: duration });
  if (anchors.length < 2) {
    problems.push({ line: syncLine, message: "the transcript has no sync points and the record no duration, so its turns cannot be timed." });
    return [];
  }
  const timeOfWord = (word: number) => wordTime(anchors, word);
  return paragraphs.map((paragraph, index) => {
    const start = timeOfWord(paragraph.firstWord);
    const next = paragraphs[index + 1];
    const end = Math.max(start, next ? timeOfWord(next.firstWord) : timeOfWord(words));
    return { speaker: paragraph.speaker, start, end, text: collapseWhitespace(paragraph.text) };
  });
}

/** Reads `1:|13(3)|19(14)`: the interval in minutes, then one stamp per mark. */
function syncMarks(raw: string, line: number, problems: FileProblem[]): { line: number; word: number; seconds: number }[] {
  const value = raw.trim();
  if (!value) return [];
  const match = /^(\d+)\s*:(.*)$/s.exec(value);
  if (!match) {
    problems.push({ line, message: `the sync “${value.slice(0, 40)}” does not start with an interval in minutes like “1:”.` });
    return [];
  }
  const interval = (Number(match[1]) || 1) * 60;
  const marks: { line: number; word: number; seconds: number }[] = [];
  (match[2] ?? "").split("|").forEach((stamp, index) => {
    const trimmed = stamp.trim();
    if (!trimmed) return;
    const parts = /^(\d+)\((\d+)\)$/.exec(trimmed);
    if (!parts) {
      problems.push({ line, message: `the sync stamp “${trimmed.slice(0, 20)}” is not line(word), like 13(3).` });
      return;
    }
    marks.push({ line: Number(parts[1]), word: Number(parts[2]), seconds: index * interval });
  });
  return marks;
}

/** Linear between the anchors around the word; past the last, at the pace of the last stretch. */
function wordTime(anchors: { word: number; seconds: number }[], word: number): number {
  let after = anchors.findIndex((anchor) => anchor.word > word);
  if (after < 0) after = anchors.length - 1;
  const before = anchors[Math.max(0, after - 1)]!;
  const next = anchors[after]!;
  const seconds =
    next.word === before.word ? before.seconds : before.seconds + ((word - before.word) * (next.seconds - before.seconds)) / (next.word - before.word);
  return Math.round(Math.max(0, seconds) * 100) / 100;
}

function formatMinutes(seconds: number): string {
  return `${Math.floor(seconds / 60)} min`;
}

const plain = (element: XmlElement | undefined) => (element ? collapseWhitespace(textContent(element).replace(/<[^>]*>/g, "")) : "");
const list = (element: XmlElement | undefined) =>
  plain(element)
    .split(";")
    .map((item) => item.trim())
    .filter(Boolean);

function indexSegments(index: XmlElement, end: number | null, problems: FileProblem[]): IndexSegment[] {
  const points: { line: number; segment: IndexSegment }[] = [];
  for (const point of childElements(index, "point")) {
    const timeElement = firstChild(point, "time");
    const timeText = timeElement ? textContent(timeElement).trim() : "";
    const start = /^\d+(?:\.\d+)?$/.test(timeText) ? Number(timeText) : parseTranscriptTimecode(timeText);
    if (start === null) {
      problems.push({
        line: timeElement?.line ?? point.line,
        message: timeText ? `the index point's time “${timeText.slice(0, 20)}” is not a number of seconds.` : "the index point has no <time>.",
      });
      continue;
    }
    const keywords = [...new Set([...list(firstChild(point, "keywords")), ...list(firstChild(point, "subjects"))])];
    const segment: IndexSegment = {
      start,
      end: start,
      title: plain(firstChild(point, "title")),
      synopsis: plain(firstChild(point, "synopsis")),
      keywords,
      partialTranscript: plain(firstChild(point, "partial_transcript")),
    };
    if (!segment.title && !segment.synopsis && !segment.partialTranscript && keywords.length === 0) {
      problems.push({ line: point.line, message: "the index point has no title, synopsis, partial transcript or keywords." });
      continue;
    }
    const previous = points.at(-1);
    if (previous && start < previous.segment.start) {
      problems.push({ line: timeElement?.line ?? point.line, message: `the index point starts before the one above it (line ${previous.line}).` });
      continue;
    }
    points.push({ line: timeElement?.line ?? point.line, segment });
  }
  return points.map(({ segment }, position) => {
    const next = points[position + 1]?.segment.start ?? end ?? segment.start;
    return { ...segment, end: Math.max(segment.start, next) };
  });
}
