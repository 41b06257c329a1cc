import type { OcrWord } from "./tesseract-tsv";

/** A line of a page as OCR read it: its words' text, the box around them, and which words they are. */
export interface OcrLine {
  text: string;
  x: number;
  y: number;
  w: number;
  h: number;
  /** Indexes of the page's words on this line, in reading order. */
  words: number[];
}

/**
 * A page's words as lines, for text annotations a viewer draws and searches: tesseract's own
 * lines (each word's `n`, from its block, paragraph and line numbers). Words of pages read before
 * the line was kept start a new line wherever a word goes back to the left of the previous one
 * or its middle lies outside the previous word's height. Pure.
 */
export function ocrLines(words: readonly OcrWord[]): OcrLine[] {
  const groups: number[][] = [];
  words.forEach((word, index) => {
    const previous = index > 0 ? words[index - 1]! : undefined;
    if (!previous || startsLine(word, previous)) groups.push([]);
    groups.at(-1)!.push(index);
  });
  return groups.map((indexes) => {
    const members = indexes.map((index) => words[index]!);
    const left = Math.min(...members.map((word) => word.x));
    const top = Math.min(...members.map((word) => word.y));
    const right = Math.max(...members.map((word) => word.x + word.w));
    const bottom = Math.max(...members.map((word) => word.y + word.h));
    return { text: members.map((word) => word.t).join(" "), x: left, y: top, w: right - left, h: bottom - top, words: indexes };
  });
}

function startsLine(word: OcrWord, previous: OcrWord): boolean {
  if (word.n !== undefined && previous.n !== undefined) return word.n !== previous.n;
  const middle = word.y + word.h / 2;
  return word.x < previous.x || middle < previous.y || middle > previous.y + previous.h;
}
