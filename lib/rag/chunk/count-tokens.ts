import { isHighSurrogate } from "../../storable-text";

/**
 * Token estimate, deterministic and tokenizer-free. A run of letters, marks and digits costs one
 * token per started CHARACTERS_PER_WORD_TOKEN UTF-16 units ("som" 1, "Vilanova" 2,
 * "interdisciplinary" 3), the way subword tokenizers break long and non-English words; a run of
 * one repeated punctuation or symbol character costs one ("«" 1, "..." 1, "?!" 2). Whitespace is
 * free. Because no token crosses whitespace, counts add up across pieces cut at whitespace.
 */
const TOKEN_PATTERN = /[\p{L}\p{M}\p{N}]+|(\S)\1*/gu;
const CHARACTERS_PER_WORD_TOKEN = 6;

export function countTokens(text: string): number {
  let count = 0;
  for (const match of text.matchAll(TOKEN_PATTERN)) {
    count += match[1] === undefined ? Math.ceil(match[0].length / CHARACTERS_PER_WORD_TOKEN) : 1;
  }
  return count;
}

/**
 * Cuts text without whitespace into pieces of one token each, for a word too long for a chunk:
 * punctuation runs stay whole, letter runs are cut every CHARACTERS_PER_WORD_TOKEN units (one
 * unit earlier rather than between the halves of a surrogate pair).
 */
export function splitIntoTokens(text: string): { start: number; end: number }[] {
  const pieces: { start: number; end: number }[] = [];
  for (const match of text.matchAll(TOKEN_PATTERN)) {
    const runEnd = match.index + match[0].length;
    if (match[1] !== undefined) {
      pieces.push({ start: match.index, end: runEnd });
      continue;
    }
    let start = match.index;
    while (start < runEnd) {
      let end = Math.min(start + CHARACTERS_PER_WORD_TOKEN, runEnd);
      if (end < runEnd && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
      pieces.push({ start, end });
      start = end;
    }
  }
  return pieces;
}
