import type { IndexSegment } from "./field-definitions";
import { formatTranscriptTimecode, parseTranscriptTimecode } from "./transcript-text";

/**
 * The plain-text form of a recording's index in the record editor, one block per segment:
 *
 *   [02:15 - 05:40] La riada del 62
 *   Synopsis: Recorda com l'aigua va arribar a la plaça.
 *   Keywords: riada; plaça; 1962
 *   Partial transcript: L'aigua va pujar en una hora…
 *
 * A block starts with its timecodes and title (mm:ss.s or h:mm:ss.s, as transcripts write them);
 * the labelled lines that follow are optional, in any order, and a line without a label continues
 * the one above. Blank lines are ignored. Pure, like lib/archive/transcript-text.ts.
 */
export type SegmentParseResult = { ok: true; segments: IndexSegment[] } | { ok: false; error: string };

export const segmentBlockFormat = "[mm:ss - mm:ss] Title, then Synopsis:, Keywords: (separated by ;) and Partial transcript: lines";

const headerPattern = /^\[\s*([\d:.]+)\s*[-–]\s*([\d:.]+)\s*\]\s*(.*)$/;
const labelPattern = /^(synopsis|keywords|partial transcript)\s*:\s*(.*)$/i;
type Part = "synopsis" | "keywords" | "partialTranscript";
const partOfLabel: Record<string, Part> = { synopsis: "synopsis", keywords: "keywords", "partial transcript": "partialTranscript" };

export function parseSegmentText(text: string): SegmentParseResult {
  const segments: IndexSegment[] = [];
  let current: { segment: IndexSegment; keywords: string; part: Part | "title" } | null = null;
  const close = () => {
    if (!current) return;
    current.segment.keywords = [
      ...new Set(
        current.keywords
          .split(";")
          .map((keyword) => keyword.trim())
          .filter(Boolean),
      ),
    ];
    segments.push(current.segment);
    current = null;
  };
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  for (const [index, rawLine] of lines.entries()) {
    const line = rawLine.trim();
    if (!line) continue;
    const where = `Line ${index + 1}`;
    const header = headerPattern.exec(line);
    if (header) {
      close();
      const [, startText = "", endText = "", title = ""] = header;
      const start = parseTranscriptTimecode(startText);
      const end = parseTranscriptTimecode(endText);
      if (start === null) return { ok: false, error: `${where}: “${startText}” is not a timecode like 01:05.5.` };
      if (end === null) return { ok: false, error: `${where}: “${endText}” is not a timecode like 01:05.5.` };
      if (end < start) return { ok: false, error: `${where}: the segment ends before it starts.` };
      const previous = segments.at(-1);
      if (previous && start < previous.start) return { ok: false, error: `${where}: the segment starts before the segment above it.` };
      current = { segment: { start, end, title: title.trim(), synopsis: "", keywords: [], partialTranscript: "" }, keywords: "", part: "title" };
      continue;
    }
    if (!current) return { ok: false, error: `${where}: a segment starts with “[mm:ss - mm:ss] Title”.` };
    const open: { segment: IndexSegment; keywords: string; part: Part | "title" } = current;
    const labelled = labelPattern.exec(line);
    const part = labelled ? partOfLabel[(labelled[1] ?? "").toLowerCase()]! : open.part;
    const value = labelled ? (labelled[2] ?? "").trim() : line;
    open.part = part;
    if (part === "title") open.segment.title = `${open.segment.title} ${value}`.trim();
    else if (part === "keywords") open.keywords = `${open.keywords};${value}`;
    else open.segment[part] = `${open.segment[part]} ${value}`.trim();
  }
  close();
  return { ok: true, segments };
}

export function serializeSegments(segments: readonly IndexSegment[]): string {
  const oneLine = (text: string) => text.replace(/\s*\n\s*/g, " ").trim();
  return segments
    .map((segment) =>
      [
        `[${formatTranscriptTimecode(segment.start)} - ${formatTranscriptTimecode(segment.end)}] ${oneLine(segment.title)}`.trimEnd(),
        segment.synopsis && `Synopsis: ${oneLine(segment.synopsis)}`,
        segment.keywords.length > 0 && `Keywords: ${segment.keywords.map(oneLine).join("; ")}`,
        segment.partialTranscript && `Partial transcript: ${oneLine(segment.partialTranscript)}`,
      ]
        .filter(Boolean)
        .join("\n"),
    )
    .join("\n\n");
}
