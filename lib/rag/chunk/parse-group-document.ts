import { classifyDocumentLine } from "./classify-document-line";
import { countTokens } from "./count-tokens";
import { splitSentences } from "./split-sentences";

export interface TurnTime {
  start: number;
  end: number;
}

/**
 * Something the packer places whole: a block (a paragraph, or a turn in transcription mode), a
 * sentence, a word, or a one-token fragment of a word too long for any chunk.
 */
export interface Piece {
  kind: "block" | "sentence" | "word" | "fragment";
  /** Start of the source span; the first piece of a turn starts at its `[[turn:…]]` marker. */
  start: number;
  /** Start of the piece's own text, after a turn marker. */
  textStart: number;
  end: number;
  tokens: number;
  firstTurn: TurnTime | null;
  lastTurn: TurnTime | null;
  /** A block's sentences, used to split it and for overlap; empty for smaller pieces. */
  sentences: readonly Piece[];
}

/** Text between two hard boundaries (headings, page markers): no chunk crosses its edges. */
export interface DocumentSection {
  headingPath: string[];
  page: number | null;
  blocks: Piece[];
}

/** "paragraphs": blank lines separate blocks; "turns": every turn starts a block of its own too. */
export type BlockGrouping = "paragraphs" | "turns";

/** A turn line with its continuation lines, or a run of lines before any turn of a block. */
interface Segment {
  start: number;
  textStart: number;
  end: number;
  turn: TurnTime | null;
}

export function parseGroupDocument(document: string, grouping: BlockGrouping): DocumentSection[] {
  const sections: DocumentSection[] = [];
  const headings: (string | undefined)[] = [];
  let page: number | null = null;
  let section: DocumentSection | null = null;
  let segments: Segment[] = [];

  const closeBlock = () => {
    const block = buildBlock(document, segments);
    segments = [];
    if (!block) return;
    if (!section) {
      section = { headingPath: headings.filter((text): text is string => Boolean(text)), page, blocks: [] };
      sections.push(section);
    }
    section.blocks.push(block);
  };

  let lineStart = 0;
  while (lineStart <= document.length) {
    const newline = document.indexOf("\n", lineStart);
    const lineEnd = newline < 0 ? document.length : newline;
    const line = classifyDocumentLine(document.slice(lineStart, lineEnd));
    const openSegment = segments.at(-1);
    if (line.kind === "heading" || line.kind === "page") {
      closeBlock();
      section = null;
      if (line.kind === "page") page = line.page;
      else {
        headings.length = line.level - 1;
        headings[line.level - 1] = line.text;
      }
    } else if (line.kind === "blank") {
      closeBlock();
    } else if (line.kind === "turn") {
      if (grouping === "turns") closeBlock();
      const turn = { start: line.start, end: line.end };
      segments.push({ start: lineStart, textStart: lineStart + line.prefixLength, end: lineEnd, turn });
    } else if (openSegment) {
      openSegment.end = lineEnd;
    } else {
      segments.push({ start: lineStart, textStart: lineStart, end: lineEnd, turn: null });
    }
    lineStart = lineEnd + 1;
  }
  closeBlock();
  return sections;
}

function buildBlock(document: string, segments: readonly Segment[]): Piece | null {
  const sentences: Piece[] = [];
  for (const segment of segments) {
    const ranges = splitSentences(document.slice(segment.textStart, segment.end));
    ranges.forEach((range, index) => {
      const start = segment.textStart + range.start;
      const end = segment.textStart + range.end;
      sentences.push({
        kind: "sentence",
        start: index === 0 ? segment.start : start,
        textStart: start,
        end,
        tokens: countTokens(document.slice(start, end)),
        firstTurn: segment.turn,
        lastTurn: segment.turn,
        sentences: [],
      });
    });
  }
  const first = sentences[0];
  const last = sentences.at(-1);
  if (!first || !last) return null;
  return {
    kind: "block",
    start: first.start,
    textStart: first.textStart,
    end: last.end,
    tokens: sentences.reduce((sum, sentence) => sum + sentence.tokens, 0),
    firstTurn: sentences.find((sentence) => sentence.firstTurn)?.firstTurn ?? null,
    lastTurn: sentences.findLast((sentence) => sentence.lastTurn)?.lastTurn ?? null,
    sentences,
  };
}
