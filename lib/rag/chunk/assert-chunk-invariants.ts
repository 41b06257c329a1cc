import { expect } from "vitest";
import { countTokens, type ChunkOptions, type DocumentChunk } from "./index";

/**
 * Test support: checks chunks against an independent reading of the group document syntax, so
 * that example and property tests hold the chunker to the same contract.
 */
interface SourceLine {
  start: number;
  end: number;
  kind: "heading" | "page" | "turn" | "blank" | "text";
  /** Where the line's own text starts (after a turn marker). */
  textStart: number;
  level: number;
  heading: string;
  page: number;
  turn: { start: number; end: number } | null;
}

export function readSourceLines(document: string): SourceLine[] {
  const lines: SourceLine[] = [];
  let start = 0;
  for (const raw of document.split("\n")) {
    const line = raw.replace(/\r$/, "");
    const end = start + raw.length;
    const heading = /^(#{1,6})(?:[ \t]+(.*))?$/.exec(line);
    const page = /^[ \t]*\[\[page:(\d+)\]\][ \t]*$/.exec(line);
    const turn = /^\[\[turn:([\d.]+)-([\d.]+)\]\][ \t]*/.exec(line);
    lines.push({
      start,
      end,
      kind: turn ? "turn" : page ? "page" : heading ? "heading" : line.trim() === "" ? "blank" : "text",
      textStart: start + (turn?.[0].length ?? 0),
      level: heading?.[1]?.length ?? 0,
      heading: (heading?.[2] ?? "").replace(/[ \t]+#+[ \t]*$/, "").trim(),
      page: Number(page?.[1]),
      turn: turn ? { start: Number(turn[1]), end: Number(turn[2]) } : null,
    });
    start = end + 1;
  }
  return lines;
}

/** Headings, page and section (count of hard boundaries) in force at `offset`. */
function stateAt(lines: readonly SourceLine[], offset: number) {
  const headings: string[] = [];
  let page: number | null = null;
  let section = 0;
  for (const line of lines) {
    if (line.start > offset) break;
    if (line.kind === "heading") {
      headings.length = Math.min(headings.length, line.level - 1);
      while (headings.length < line.level - 1) headings.push("");
      headings.push(line.heading);
      section += 1;
    } else if (line.kind === "page") {
      page = line.page;
      section += 1;
    }
  }
  return { headingPath: headings.filter((text) => text !== ""), page, section };
}

/** Non-whitespace offsets a chunk must cover: everything but headings, page markers and turn markers. */
export function contentOffsets(document: string, lines: readonly SourceLine[]): number[] {
  const offsets: number[] = [];
  for (const line of lines) {
    if (line.kind !== "text" && line.kind !== "turn") continue;
    for (let offset = line.textStart; offset < line.end; offset += 1) {
      if (/\S/.test(document.charAt(offset))) offsets.push(offset);
    }
  }
  return offsets;
}

/** Each turn with its content offsets: its line and the plain lines that continue it. */
function turnsWithContent(document: string, lines: readonly SourceLine[]) {
  const turns: { time: { start: number; end: number }; offsets: number[] }[] = [];
  let open: (typeof turns)[number] | null = null;
  for (const line of lines) {
    if (line.turn) {
      open = { time: line.turn, offsets: [] };
      turns.push(open);
    } else if (line.kind !== "text") {
      open = null;
    }
    if (open) open.offsets.push(...contentOffsets(document, [line]));
  }
  return turns.filter((turn) => turn.offsets.length > 0);
}

/** The citation text the contract defines, computed without the chunker's own code. */
export function expectedCitationText(document: string, start: number, end: number): string {
  const startsLine = start === 0 || document.charAt(start - 1) === "\n";
  return `${startsLine ? "\n" : "\u0000"}${document.slice(start, end)}`
    .replace(/\n\[\[turn:[\d.]+-[\d.]+\]\]/g, "\n")
    .replace(/^\u0000/, "")
    .split("\n")
    .map((line) => line.replace(/\s+/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

export function assertChunkInvariants(document: string, options: ChunkOptions, chunks: readonly DocumentChunk[]): void {
  const lines = readSourceLines(document);
  const boundaries = lines.filter((line) => line.kind === "heading" || line.kind === "page");
  const turns = turnsWithContent(document, lines);
  const covered = new Uint8Array(document.length);

  // One comparison per document keeps the check fast; the diff names the chunk and field at fault.
  const seen = chunks.map((chunk, index) => {
    const previous = chunks[index - 1];
    const atStart = stateAt(lines, chunk.startOffset);
    const atEnd = stateAt(lines, chunk.endOffset - 1);
    const inside = turns.filter((turn) => {
      const firstAfterStart = turn.offsets.find((offset) => offset >= chunk.startOffset);
      return firstAfterStart !== undefined && firstAfterStart < chunk.endOffset;
    });
    covered.fill(1, chunk.startOffset, chunk.endOffset);
    const expected = {
      ordinal: index,
      text: expectedCitationText(document, chunk.startOffset, chunk.endOffset),
      tokenCount: countTokens(chunk.text),
      headingPath: atStart.headingPath,
      page: atStart.page,
      pageEnd: atEnd.page,
      timeStart: inside[0]?.time.start ?? null,
      timeEnd: inside.at(-1)?.time.end ?? null,
      withinMaxTokens: true,
      nonEmpty: true,
      inOneSection: true,
      afterPrevious: true,
      crossedBoundaries: [],
    };
    const actual = {
      ordinal: chunk.ordinal,
      text: chunk.text,
      tokenCount: chunk.tokenCount,
      headingPath: chunk.headingPath,
      page: chunk.page,
      pageEnd: chunk.pageEnd,
      timeStart: chunk.timeStart,
      timeEnd: chunk.timeEnd,
      withinMaxTokens: chunk.tokenCount <= options.maxTokens,
      nonEmpty: chunk.text !== "" && chunk.startOffset < chunk.endOffset,
      inOneSection: atStart.section === atEnd.section,
      afterPrevious:
        !previous || (chunk.startOffset >= (options.overlap === 0 ? previous.endOffset : previous.startOffset) && chunk.endOffset > previous.endOffset),
      crossedBoundaries: boundaries
        .filter((line) => line.start < chunk.endOffset && line.end + 1 > chunk.startOffset)
        .map((line) => document.slice(line.start, line.end)),
    };
    return { chunk: index, expected, actual };
  });
  expect(seen.map(({ chunk, actual }) => ({ chunk, ...actual }))).toEqual(seen.map(({ chunk, expected }) => ({ chunk, ...expected })));

  const content = contentOffsets(document, lines);
  const lost = content.filter((offset) => covered[offset] !== 1);
  expect(
    lost.map((offset) => document.slice(offset, offset + 20)),
    "text in no chunk",
  ).toEqual([]);
  if (options.overlap === 0) {
    // Each character in exactly one chunk, in order, words untouched.
    const chunked = chunks.map((chunk) => chunk.text.replace(/\s+/g, "")).join("");
    expect(chunked).toBe(content.map((offset) => document.charAt(offset)).join(""));
  }
}
