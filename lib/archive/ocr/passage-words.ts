import { foldAccents } from "../../language/fold-accents";
import type { OcrWord } from "./tesseract-tsv";

/**
 * Which words of a page a passage is made of, so the page image can mark them: the passage is a
 * stretch of the page's text, so the run of page words from where its first words are found to
 * where its last words are is marked. Pure; tokens are compared lower-cased, without accents
 * and punctuation, so a word joined across a line break still lines up.
 */
export function normaliseToken(text: string): string {
  return foldAccents(text)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, "");
}

const anchorLength = 3;

/** Indexes of `words` that belong to the passage (empty when it is not on this page). */
export function passageWordIndexes(words: readonly Pick<OcrWord, "t">[], passage: string): number[] {
  const tokens = passage.split(/\s+/).map(normaliseToken).filter(Boolean);
  const page = words.map((word) => normaliseToken(word.t));
  if (tokens.length === 0 || page.length === 0) return [];
  const find = (needle: string[], from: number) => {
    for (let start = from; start + needle.length <= page.length; start++) {
      if (needle.every((token, offset) => page[start + offset] === token)) return start;
    }
    return -1;
  };
  const head = tokens.slice(0, Math.min(anchorLength, tokens.length));
  const tail = tokens.slice(-Math.min(anchorLength, tokens.length));
  const start = find(head, 0);
  const tailStart = start < 0 ? -1 : find(tail, start);
  if (start >= 0 && tailStart >= 0) return Array.from({ length: tailStart + tail.length - start }, (_, index) => start + index);
  // OCR split or joined a word at an edge: mark the page's words that the passage contains.
  const wanted = new Set(tokens);
  return page.flatMap((token, index) => (token && wanted.has(token) ? [index] : []));
}
