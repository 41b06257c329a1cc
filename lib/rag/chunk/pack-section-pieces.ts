import { countTokens, splitIntoTokens } from "./count-tokens";
import type { Piece } from "./parse-group-document";

export interface PackingBounds {
  maxTokens: number;
  minTokens: number;
  overlap: number;
}

interface Draft {
  pieces: Piece[];
  tokens: number;
}

/**
 * Cuts one section's blocks into chunks, each a list of pieces in document order:
 * 1. blocks that fit stay whole; larger ones fall apart into sentences, larger sentences into
 *    words, larger words into one-token fragments — nothing is dropped;
 * 2. pieces are packed greedily toward maxTokens (less the overlap a later chunk will receive);
 * 3. chunks below minTokens take pieces from a neighbour in the section, within the bounds;
 * 4. every chunk after the first repeats whole sentences from the end of its predecessor.
 */
export function packSectionPieces(document: string, blocks: readonly Piece[], bounds: PackingBounds): Piece[][] {
  const budget = (index: number) => (index === 0 ? bounds.maxTokens : bounds.maxTokens - bounds.overlap);
  const drafts: Draft[] = [];
  for (const piece of splitOversizePieces(document, blocks, bounds.maxTokens - bounds.overlap)) {
    const current = drafts.at(-1);
    if (current && current.tokens + piece.tokens <= budget(drafts.length - 1)) {
      current.pieces.push(piece);
      current.tokens += piece.tokens;
    } else {
      drafts.push({ pieces: [piece], tokens: piece.tokens });
    }
  }
  applyMinimumSize(drafts, bounds.minTokens, budget);
  return drafts.map((draft, index) => {
    const previous = drafts[index - 1];
    if (!previous || bounds.overlap === 0) return draft.pieces;
    return trailingSentences(previous.pieces, bounds.overlap).concat(draft.pieces);
  });
}

function splitOversizePieces(document: string, blocks: readonly Piece[], limit: number): Piece[] {
  const pieces: Piece[] = [];
  for (const block of blocks) {
    if (block.tokens <= limit) {
      pieces.push(block);
      continue;
    }
    for (const sentence of block.sentences) {
      if (sentence.tokens <= limit) pieces.push(sentence);
      else splitSentenceIntoWords(document, sentence, limit, pieces);
    }
  }
  return pieces;
}

function splitSentenceIntoWords(document: string, sentence: Piece, limit: number, into: Piece[]): void {
  const text = document.slice(sentence.textStart, sentence.end);
  const firstIndex = into.length;
  const part = (kind: Piece["kind"], start: number, end: number, tokens: number): Piece => ({
    ...sentence,
    kind,
    start,
    textStart: start,
    end,
    tokens,
    sentences: [],
  });
  for (const word of text.matchAll(/\S+/g)) {
    const wordStart = sentence.textStart + word.index;
    const tokens = countTokens(word[0]);
    if (tokens <= limit) {
      into.push(part("word", wordStart, wordStart + word[0].length, tokens));
      continue;
    }
    for (const token of splitIntoTokens(word[0])) into.push(part("fragment", wordStart + token.start, wordStart + token.end, 1));
  }
  const first = into[firstIndex];
  if (first) first.start = sentence.start; // keep the turn marker with the sentence's first piece
}

/**
 * Greedy packing leaves a chunk under minTokens only where its neighbour had no room for it, so
 * merging the two would break maxTokens. Instead the short chunk takes whole pieces from the
 * end of its predecessor in the section (from the start of its successor when it is the
 * section's first), a block giving up its sentences one by one, until it reaches minTokens
 * while the neighbour keeps at least minTokens. A chunk with no neighbour in its section stays
 * short: a title field is still a passage.
 */
function applyMinimumSize(drafts: Draft[], minTokens: number, budget: (index: number) => number): void {
  drafts.forEach((draft, index) => {
    if (draft.tokens >= minTokens) return;
    const previous = drafts[index - 1];
    const next = drafts[index + 1];
    if (previous) takeFromNeighbour(draft, previous, "end", minTokens, budget(index));
    else if (next) takeFromNeighbour(draft, next, "start", minTokens, budget(index));
  });
}

function takeFromNeighbour(short: Draft, neighbour: Draft, side: "start" | "end", minTokens: number, limit: number): void {
  const index = () => (side === "end" ? neighbour.pieces.length - 1 : 0);
  while (short.tokens < minTokens) {
    const edge = neighbour.pieces[index()];
    if (edge?.kind === "block") neighbour.pieces.splice(index(), 1, ...edge.sentences);
    const moved = neighbour.pieces[index()];
    if (!moved || short.tokens + moved.tokens > limit || neighbour.tokens - moved.tokens < minTokens) return;
    neighbour.pieces.splice(index(), 1);
    neighbour.tokens -= moved.tokens;
    if (side === "end") short.pieces.unshift(moved);
    else short.pieces.push(moved);
    short.tokens += moved.tokens;
  }
}

/** The longest run of whole sentences ending the chunk that fits in `overlap` tokens. */
function trailingSentences(pieces: readonly Piece[], overlap: number): Piece[] {
  const taken: Piece[] = [];
  let tokens = 0;
  for (let pieceIndex = pieces.length - 1; pieceIndex >= 0; pieceIndex -= 1) {
    const piece = pieces[pieceIndex];
    if (!piece || (piece.kind !== "block" && piece.kind !== "sentence")) break;
    const sentences = piece.kind === "block" ? piece.sentences : [piece];
    for (let sentenceIndex = sentences.length - 1; sentenceIndex >= 0; sentenceIndex -= 1) {
      const sentence = sentences[sentenceIndex];
      if (!sentence || tokens + sentence.tokens > overlap) return taken.reverse();
      taken.push(sentence);
      tokens += sentence.tokens;
    }
  }
  return taken.reverse();
}
