import { type PlacedHit, type TextQuote, quotesAt } from "../../archive/iiif/content-search";
import { boxAround, regionFragment, timeFragment } from "../../archive/iiif/presentation";
import type { OcrWord } from "../../archive/ocr/tesseract-tsv";
import { foldAccents } from "../../language/fold-accents";
import { findHighlights } from "./highlight";
import { passageMatches } from "./scan-hit-words";

/**
 * Where a search hit goes on a record's IIIF Canvases, and which of its words it marks. Pure.
 * - a transcript's or an index's passage: each of its turns (segments) that holds a matched word,
 *   on `<recording canvas>#t=start,end`; a passage found by meaning alone, its whole span;
 * - a scan's passage: each run of matched OCR words on its page, on `<page canvas>#xywh=` of their
 *   boxes (the words around them as context); found by meaning alone, the box of the passage's words;
 * - any other text (an object's description): the record's first Canvas, the passage as its text.
 */
export interface TimedText {
  start: number;
  end: number;
  text: string;
}

/** What the Manifest shows of a record, by field key: the Canvases its texts belong to. */
export interface RecordLayout {
  /** A transcript or an index: its recording's Canvas and its turns or segments as text. */
  timed: Map<string, { canvasId: string; items: TimedText[] }>;
  /** A scan: its page Canvases with the words OCR read on them, by page number. */
  scans: Map<string, Map<number, { canvasId: string; words: OcrWord[] }>>;
  /** Where text that belongs to no Canvas goes (an object's description): the first Canvas. */
  firstCanvasId: string;
}

export interface PassageToPlace {
  chunkId: string;
  text: string;
  language: string | null;
  fieldKeys: readonly string[];
  page: number | null;
  pageEnd: number | null;
  timeStart: number | null;
  timeEnd: number | null;
}

/** Words of context either side of a matched run of OCR words. */
const contextWords = 6;
/** The longest text a hit shows when it is a whole passage. */
const maxHitText = 600;

function clip(text: string): string {
  const clean = text.replace(/\s+/g, " ").trim();
  return clean.length <= maxHitText ? clean : `${clean.slice(0, maxHitText).replace(/\s+\S*$/, "")} …`;
}

function textHit(key: string, target: string, text: string, terms: readonly string[], language: string | null): PlacedHit {
  const shown = clip(text);
  return { key, target, text: shown, quotes: quotesAt(shown, findHighlights(shown, terms)), wordLevel: false, ...(language ? { language } : {}) };
}

export function placePassage(passage: PassageToPlace, layout: RecordLayout, terms: readonly string[]): PlacedHit[] {
  const language = passage.language && passage.language !== "und" ? passage.language : null;
  for (const fieldKey of passage.fieldKeys) {
    const timed = layout.timed.get(fieldKey);
    if (timed) return placeTimed(passage, timed, terms, language);
    const scan = layout.scans.get(fieldKey);
    if (scan && passage.page !== null) {
      const placed = placeOnPages(passage, scan, terms, language);
      if (placed.length) return placed;
    }
  }
  return [textHit(passage.chunkId, layout.firstCanvasId, passage.text, terms, language)];
}

function placeTimed(passage: PassageToPlace, timed: { canvasId: string; items: TimedText[] }, terms: readonly string[], language: string | null): PlacedHit[] {
  const start = passage.timeStart;
  const end = passage.timeEnd ?? start;
  // The passage's turns: those inside its span (a little slack for the rounding of stored times).
  const inside = start === null ? timed.items : timed.items.filter((item) => item.start >= start - 0.01 && item.start <= (end ?? start) + 0.01);
  const matched = inside.filter((item) => findHighlights(item.text, terms).length > 0);
  if (matched.length > 0) {
    return matched.map((item, index) =>
      textHit(`${passage.chunkId}-${index + 1}`, timeFragment(timed.canvasId, item.start, item.end), item.text, terms, language),
    );
  }
  const target = start === null ? timed.canvasId : timeFragment(timed.canvasId, start, Math.max(start, end ?? start));
  return [textHit(passage.chunkId, target, passage.text, terms, language)];
}

function placeOnPages(
  passage: PassageToPlace,
  pages: Map<number, { canvasId: string; words: OcrWord[] }>,
  terms: readonly string[],
  language: string | null,
): PlacedHit[] {
  const hits: PlacedHit[] = [];
  const last = Math.max(passage.page!, passage.pageEnd ?? passage.page!);
  for (let number = passage.page!; number <= last; number++) {
    const page = pages.get(number);
    if (!page) continue;
    const { own, matched } = passageMatches(page.words, passage.text, terms);
    if (matched.length === 0) {
      const box = boxAround(own.map((index) => page.words[index]!));
      // Found by meaning: the passage's words on the page (or the page, when OCR kept no boxes).
      if (passage.page === number) hits.push(textHit(passage.chunkId, box ? regionFragment(page.canvasId, box) : page.canvasId, passage.text, terms, language));
      continue;
    }
    for (const run of consecutiveRuns(matched)) {
      const first = run[0]!;
      const lastWord = run.at(-1)!;
      const words = run.map((index) => page.words[index]!);
      const before = page.words.slice(Math.max(0, first - contextWords), first).map((word) => word.t);
      const after = page.words.slice(lastWord + 1, lastWord + 1 + contextWords).map((word) => word.t);
      const exact = words.map((word) => word.t).join(" ");
      const quote: TextQuote = { prefix: before.length ? `${before.join(" ")} ` : "", exact, suffix: after.length ? ` ${after.join(" ")}` : "" };
      hits.push({
        key: `${passage.chunkId}-p${number}-w${first}`,
        target: regionFragment(page.canvasId, boxAround(words)!),
        text: exact,
        quotes: [quote],
        wordLevel: true,
        ...(language ? { language } : {}),
      });
    }
  }
  return hits;
}

/** Indexes grouped into runs of neighbours: [3, 4, 9] → [[3, 4], [9]]. */
export function consecutiveRuns(indexes: readonly number[]): number[][] {
  const runs: number[][] = [];
  for (const index of [...indexes].sort((a, b) => a - b)) {
    const run = runs.at(-1);
    if (run && run.at(-1) === index - 1) run.push(index);
    else runs.push([index]);
  }
  return runs;
}

/**
 * Autocomplete from the record's own words: the words (or runs of as many words as the prefix
 * has) that begin with the prefix, compared without case and accents, as written most often,
 * with how many times each occurs; those at least `min` times, most frequent first. No model.
 */
export function completeTerms(texts: readonly string[], prefix: string, options: { min?: number; limit?: number } = {}): { value: string; total: number }[] {
  const fold = (word: string) => foldAccents(word).toLowerCase();
  const wanted = fold(prefix.trim().replace(/\s+/g, " "));
  const length = wanted.split(" ").length;
  const counts = new Map<string, { total: number; forms: Map<string, number> }>();
  for (const text of texts) {
    const words = [...text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu)].map((match) => match[0].replace(/['’-]+$/, ""));
    for (let index = 0; index + length <= words.length; index++) {
      const written = words.slice(index, index + length).join(" ");
      const folded = fold(written);
      if (!folded.startsWith(wanted)) continue;
      const entry = counts.get(folded) ?? counts.set(folded, { total: 0, forms: new Map() }).get(folded)!;
      entry.total += 1;
      const form = written.toLowerCase();
      entry.forms.set(form, (entry.forms.get(form) ?? 0) + 1);
    }
  }
  return [...counts.values()]
    .filter((entry) => entry.total >= (options.min ?? 1))
    .map((entry) => ({ value: [...entry.forms.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0], total: entry.total }))
    .sort((a, b) => b.total - a.total || a.value.localeCompare(b.value))
    .slice(0, options.limit ?? 20);
}
