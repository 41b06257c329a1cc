import { captionBlocks, isTimingLine, readCues, sortProblems } from "./caption-cues";
import { type FileProblem, fileLines, type TranscriptFileResult } from "./file-problems";

/**
 * WebVTT (W3C): a "WEBVTT" signature line and header, then blocks separated by blank lines —
 * cues (an optional id line, `start --> end [settings]`, text) and NOTE, STYLE and REGION blocks,
 * which are skipped. Voice spans `<v Speaker>` give the speaker; without one, a "Speaker: text"
 * prefix does. `lineOffset` shifts reported lines (a WebVTT transcript inside an OHMS file).
 */
export function parseWebVtt(text: string, options: { lineOffset?: number } = {}): TranscriptFileResult {
  const problems: FileProblem[] = [];
  const offset = options.lineOffset ?? 0;
  const lines = fileLines(text);
  const firstContent = lines.findIndex((line) => line.trim() !== "");
  const signature = lines[firstContent] ?? "";
  if (!/^WEBVTT(?:[ \t].*)?$/.test(signature.trimEnd())) {
    problems.push({ line: Math.max(firstContent, 0) + 1 + offset, message: "a WebVTT file starts with a line “WEBVTT”." });
    return { turns: [], segments: [], problems };
  }
  // The header runs to the first blank line; its lines (Kind:, Language:) carry no cues.
  let bodyStart = firstContent + 1;
  while (bodyStart < lines.length && (lines[bodyStart] ?? "").trim() !== "") {
    if (isTimingLine(lines[bodyStart] ?? "")) {
      problems.push({ line: bodyStart + 1 + offset, message: "a cue inside the header: a blank line is missing after the WEBVTT line." });
    }
    bodyStart++;
  }

  const turns = readCues(
    captionBlocks(text, bodyStart),
    (block) => {
      const first = block.lines[0] ?? "";
      if (/^NOTE(?:[ \t]|$)/.test(first) || /^(?:STYLE|REGION)[ \t]*$/.test(first)) return null;
      // An id line, if any, comes before the timing line.
      const timingIndex = isTimingLine(first) ? 0 : isTimingLine(block.lines[1] ?? "") ? 1 : -1;
      if (timingIndex >= 0) return timingIndex;
      problems.push({
        line: block.line + offset,
        message: "expected a cue: an optional id line, then a timing line like “00:01.000 --> 00:04.000”, then its text.",
      });
      return null;
    },
    problems,
    offset,
  );
  return { turns, segments: [], problems: sortProblems(problems) };
}
