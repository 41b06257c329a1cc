import { passageWordIndexes } from "../../archive/ocr/passage-words";
import type { OcrWord } from "../../archive/ocr/tesseract-tsv";
import { findHighlights } from "./highlight";

/**
 * The words of a scanned page a search hit or a citation marks. A page is often one passage, so
 * marking the passage would mark the whole page: of the passage's words, only those the query's
 * terms match are marked, by the highlighter the result rows use (same folding and stemming).
 * A passage whose words none match (found by meaning, or opened without a query) is marked
 * whole. Pure.
 */
export function markedScanWords(words: readonly Pick<OcrWord, "t">[], passage: string, terms: readonly string[]): number[] {
  const { own, matched } = passageMatches(words, passage, terms);
  return matched.length > 0 ? matched : own;
}

/** The page's words that are the passage's (`own`), and those of them the query's terms match. */
export function passageMatches(words: readonly Pick<OcrWord, "t">[], passage: string, terms: readonly string[]): { own: number[]; matched: number[] } {
  const own = passageWordIndexes(words, passage);
  return { own, matched: own.filter((index) => findHighlights(words[index]!.t, terms).length > 0) };
}
