/**
 * Which words of a passage to highlight for a query, and the window of the passage a result
 * row shows. Matching is by word, case- and accent-insensitive, with a light prefix rule so
 * "mines" marks "mine" and "bells" marks "bell" in English, Spanish and Catalan alike. Pure.
 */
import { foldAccents } from "../../language/fold-accents";
import { decadeTerms, wordSet, yearsIn } from "../../language/language-data";

export interface Highlight {
  start: number;
  end: number;
}

export interface Snippet {
  text: string;
  highlights: Highlight[];
  /** Whether text was cut before or after the window. */
  clippedStart: boolean;
  clippedEnd: boolean;
}

// Words too common to be worth marking (English, Spanish, Catalan).
const stopwords = wordSet("stopWords");

export function foldWord(word: string): string {
  return foldAccents(word).toLowerCase();
}

/** The distinct folded terms of a query worth highlighting. */
export function queryTerms(query: string): string[] {
  const terms = new Set<string>();
  for (const match of query.matchAll(/[\p{L}\p{N}]+/gu)) {
    const term = foldWord(match[0]);
    if (term.length < 2 || stopwords.has(term)) continue;
    terms.add(term);
  }
  return [...terms];
}

function commonPrefixLength(a: string, b: string): number {
  let length = 0;
  while (length < a.length && length < b.length && a[length] === b[length]) length++;
  return length;
}

/**
 * English verbs whose past does not share the stem rule below ("found" for "find"): a question
 * asks "what did he find?" where the testimony says "he found". Forms that are also common nouns
 * or adjectives in the archive (rose, saw, fell, left, lead, bore, mine) are left out.
 * Each entry is "verb past/participle", separated by commas or lines.
 */
const irregularPast = `
find found, take took/taken, bring brought, buy bought, build built, catch caught, teach taught
think thought, keep kept, lose lost, meet met, pay paid, say said, sell sold, send sent
stand stood, write wrote/written, run ran, begin began/begun, break broke/broken
choose chose/chosen, drive drove/driven, eat ate/eaten, feel felt, fight fought, fly flew/flown
forget forgot/forgotten, get got/gotten, give gave/given, go went/gone, grow grew/grown, hear heard
hide hid/hidden, hold held, know knew/known, make made, come came, see seen, sing sang/sung
sink sank/sunk, sleep slept, speak spoke/spoken, spend spent, steal stole/stolen, strike struck
swim swam/swum, tell told, throw threw/thrown, wear wore/worn, win won, dig dug, feed fed
flee fled, shake shook/shaken, shoot shot, seek sought, become became, draw drew/drawn
drink drank/drunk, weep wept, sweep swept, mean meant, lend lent
`;
const verbOf = new Map(
  irregularPast
    .split(/[,\n]/)
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0)
    .flatMap((entry) => {
      const [verb = "", forms = ""] = entry.split(" ");
      return forms.split("/").map((form) => [form, verb] as const);
    }),
);

export function wordMatches(word: string, term: string): boolean {
  if (stemMatches(word, term)) return true;
  const verb = verbOf.get(word);
  const termVerb = verbOf.get(term);
  return (verb !== undefined || termVerb !== undefined) && stemMatches(verb ?? word, termVerb ?? term);
}

function stemMatches(word: string, term: string): boolean {
  if (word === term) return true;
  // Same stem: share at least four letters and differ only in a short ending.
  const shared = commonPrefixLength(word, term);
  return shared >= 4 && word.length - shared <= 3 && term.length - shared <= 3;
}

export function findHighlights(text: string, terms: readonly string[]): Highlight[] {
  if (terms.length === 0) return [];
  const highlights: Highlight[] = [];
  for (const match of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = foldWord(match[0]);
    if (terms.some((term) => wordMatches(word, term))) {
      highlights.push({ start: match.index, end: match.index + match[0].length });
    }
  }
  return highlights;
}

/**
 * A window of about `maxChars` around the densest run of highlights (or the start when
 * nothing matched), cut at word boundaries, with highlights relative to the window.
 */
export function snippet(text: string, terms: readonly string[], maxChars = 320): Snippet {
  const clean = text.replace(/\s+/g, " ").trim();
  const highlights = findHighlights(clean, terms);
  if (clean.length <= maxChars) return { text: clean, highlights, clippedStart: false, clippedEnd: false };

  let bestStart = 0;
  let bestCount = 0;
  for (let index = 0; index < highlights.length; index++) {
    const from = highlights[index]!.start;
    let count = 0;
    for (let next = index; next < highlights.length && highlights[next]!.end - from <= maxChars; next++) count++;
    if (count > bestCount) {
      bestCount = count;
      bestStart = from;
    }
  }
  // Lead in with a little context before the first highlighted word.
  let start = Math.max(0, bestStart - Math.floor(maxChars / 5));
  if (start + maxChars > clean.length) start = Math.max(0, clean.length - maxChars);
  if (start > 0) {
    const space = clean.indexOf(" ", start);
    if (space !== -1 && space < bestStart + 1) start = space + 1;
  }
  let end = Math.min(clean.length, start + maxChars);
  if (end < clean.length) {
    const space = clean.lastIndexOf(" ", end);
    if (space > start) end = space;
  }
  return {
    text: clean.slice(start, end),
    highlights: highlights.filter((h) => h.start >= start && h.end <= end).map((h) => ({ start: h.start - start, end: h.end - start })),
    clippedStart: start > 0,
    clippedEnd: end < clean.length,
  };
}

/** A run of a text: plain, or a word the query matched. */
export interface TextPart {
  text: string;
  marked: boolean;
}

/**
 * A whole text cut into plain runs and matched words, in order, for marking on a page (the
 * record page's paragraphs and the English beside them, a transcript's turns). Joining the runs
 * gives the text back unchanged; without terms it is one plain run.
 */
export function highlightParts(text: string, terms: readonly string[]): TextPart[] {
  const parts: TextPart[] = [];
  let at = 0;
  for (const highlight of findHighlights(text, terms)) {
    if (highlight.start > at) parts.push({ text: text.slice(at, highlight.start), marked: false });
    parts.push({ text: text.slice(highlight.start, highlight.end), marked: true });
    at = highlight.end;
  }
  if (at < text.length || parts.length === 0) parts.push({ text: text.slice(at), marked: false });
  return parts;
}

/** The terms a record page marks for the search or question it was opened from (`?q=`); none for an absent or overlong query. */
export function pageQueryTerms(query: unknown): string[] {
  if (typeof query !== "string" || query.length > 500) return [];
  return queryTerms(query).slice(0, 32);
}

/**
 * The terms a text holds (wordMatches), folded; the words of a decade the terms name (decadeTerms)
 * are held by a year of that decade: "los años noventa" by "in 1993".
 */
export function heldTerms(terms: readonly string[], text: string): Set<string> {
  const held = new Set(findHighlights(text, terms).flatMap((range) => terms.filter((term) => wordMatches(foldWord(text.slice(range.start, range.end)), term))));
  const decades = decadeTerms(terms);
  if (decades.size === 0) return held;
  const years = yearsIn(text);
  for (const [term, first] of decades) if (years.some((year) => year >= first && year < first + 10)) held.add(term);
  return held;
}
