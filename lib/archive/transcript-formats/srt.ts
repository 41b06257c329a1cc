import type { TranscriptTurn } from "../field-definitions";
import { captionBlocks, checkCueOrder, type CueTiming, cueTextLines, cueTurns, isTimingLine, parseTimingLine, sortProblems } from "./caption-cues";
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
  const turns: TranscriptTurn[] = [];
  const cues: { line: number; timing: CueTiming }[] = [];
  for (const block of captionBlocks(text)) {
    const first = block.lines[0] ?? "";
    const timingIndex = isTimingLine(first) ? 0 : isTimingLine(block.lines[1] ?? "") ? 1 : -1;
    if (timingIndex < 0) {
      problems.push({ line: block.line, message: "expected a subtitle: a number, then a timing line like “00:00:01,000 --> 00:00:04,000”, then its text." });
      continue;
    }
    if (timingIndex === 1 && !/^\s*\d+\s*$/.test(first)) {
      problems.push({ line: block.line, message: `expected the subtitle's number, found “${first.trim().slice(0, 40)}”.` });
      continue;
    }
    const timingLine = block.line + timingIndex;
    const timing = parseTimingLine(block.lines[timingIndex] ?? "", timingLine, problems);
    if (!timing) continue;
    const text = cueTextLines(block, timingIndex, problems);
    if (!text) continue;
    const found = cueTurns(timing, text, timingLine, problems);
    if (found.length === 0) continue;
    cues.push({ line: timingLine, timing });
    turns.push(...found);
  }
  checkCueOrder(cues, problems);
  return { turns, segments: [], problems: sortProblems(problems) };
}
