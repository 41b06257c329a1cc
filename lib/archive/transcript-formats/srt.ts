import { captionBlocks, isTimingLine, readCues, sortProblems } from "./caption-cues";
import type { FileProblem, TranscriptFileResult } from "./file-problems";

/**
 * SubRip (.srt): blocks separated by blank lines, each a counter line, a timing line
 * `00:00:01,000 --> 00:00:04,000` (a dot accepted for the comma, hours optional, trailing
 * coordinates ignored) and text lines with <i>/<b>/<font> markup. The counter is not checked
 * (renumbered files are common); a missing counter is accepted. "Speaker: text" prefixes and
 * WebVTT-style voice spans give the speaker.
 */
export function parseSrt(text: string): TranscriptFileResult {
  const problems: FileProblem[] = [];
  const turns = readCues(
    captionBlocks(text),
    (block) => {
      const first = block.lines[0] ?? "";
      const timingIndex = isTimingLine(first) ? 0 : isTimingLine(block.lines[1] ?? "") ? 1 : -1;
      if (timingIndex < 0) {
        problems.push({ line: block.line, message: "expected a subtitle: a number, then a timing line like “00:00:01,000 --> 00:00:04,000”, then its text." });
        return null;
      }
      if (timingIndex === 1 && !/^\s*\d+\s*$/.test(first)) {
        problems.push({ line: block.line, message: `expected the subtitle's number, found “${first.trim().slice(0, 40)}”.` });
        return null;
      }
      return timingIndex;
    },
    problems,
  );
  return { turns, segments: [], problems: sortProblems(problems) };
}
