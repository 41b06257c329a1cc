import { containsTurnMarker } from "./classify-document-line";
import { countTokens } from "./count-tokens";
import { packSectionPieces } from "./pack-section-pieces";
import { parseGroupDocument } from "./parse-group-document";
import { renderCitationText } from "./render-citation-text";
import { validateChunkOptions, type ChunkOptions } from "./validate-chunk-options";

/** Part of an index space's identity: bump whenever the same input may give different chunks. */
export const CHUNKER_VERSION = 2;

export interface DocumentChunk {
  /** 0-based position in the document. */
  ordinal: number;
  /** UTF-16 offsets: document.slice(startOffset, endOffset) is the passage's source span. */
  startOffset: number;
  endOffset: number;
  /** The span as cited: turn markers dropped, whitespace normalised, words untouched. */
  text: string;
  /** Headings in force at the chunk's start, outermost first. */
  headingPath: string[];
  /** Page in force at the chunk's start; null before the first page marker. */
  page: number | null;
  /** Page in force at the chunk's end; equal to `page`, as no chunk crosses a page marker. */
  pageEnd: number | null;
  /** START of the first transcript turn in the chunk. */
  timeStart: number | null;
  /** END of the last transcript turn in the chunk. */
  timeEnd: number | null;
  tokenCount: number;
}

/**
 * Splits a group document into passages for embedding and citation. Headings and page markers
 * are hard boundaries; blocks (paragraphs, or turns in transcription mode) pack together toward
 * maxTokens; oversize blocks split at sentences, then words. Every character that is not marker
 * or heading syntax lands in some chunk's span. Pure and deterministic.
 *
 * `short` ("a heading section is one chunk when it fits") needs no path of its own: greedy
 * packing already keeps a fitting section whole, and a section that does not fit is cut the
 * `long_document` way.
 */
export function chunkDocument(document: string, options: ChunkOptions): DocumentChunk[] {
  validateChunkOptions(options);
  const transcription = options.mode === "transcription" || (options.mode === "auto" && containsTurnMarker(document));
  const chunks: DocumentChunk[] = [];
  for (const section of parseGroupDocument(document, transcription ? "turns" : "paragraphs")) {
    for (const pieces of packSectionPieces(document, section.blocks, options)) {
      const first = pieces[0];
      const last = pieces.at(-1);
      if (!first || !last) continue;
      const text = renderCitationText(document, first.start, last.end);
      chunks.push({
        ordinal: chunks.length,
        startOffset: first.start,
        endOffset: last.end,
        text,
        headingPath: [...section.headingPath],
        page: section.page,
        pageEnd: section.page,
        timeStart: pieces.find((piece) => piece.firstTurn)?.firstTurn?.start ?? null,
        timeEnd: pieces.findLast((piece) => piece.lastTurn)?.lastTurn?.end ?? null,
        tokenCount: countTokens(text),
      });
    }
  }
  return chunks;
}
