import { LRUCache } from "lru-cache";
import { foldAccents } from "../../language/fold-accents";
import { wordSet } from "../../language/language-data";
/**
 * What a record says about itself: date ranges and vocabulary terms written in its own title,
 * description and other free-text fields. Pure, so the rules can be tested exactly.
 *
 * Dates. A year counts only where the text marks it as one: an era ("323 BC - 150 BC",
 * "AD 218 - AD 222", "108-107 B.C.", "9 B.C.-A.D. 40", "200 aC"), "ca."/"c."/"circa" ("ca. 1928",
 * "ca. 1879-80"), a century ("18th century", "1st century BC", "s. XVIII", "siglo XVIII",
 * "segle XVIII") or a decade ("1880s"). A bare number is a year only when it stands alone: the
 * whole value of a field ("1948", "1879-1880") or a whole comma-delimited part of a title
 * ("Bronze penny of Offa, 829 - 831."). So "Hadrian" is no date, the catalogue number in
 * "RIC II Hadrian 688" is no year, and neither is the 2004 of an accession number "2004.14.120".
 * Years are astronomical-free integers as the catalogue stores them: 323 BC is -323.
 *
 * Terms. A term of a field's vocabulary (its options, or the values the catalogue gives it)
 * is stated when the text contains it as whole words, case- and accent-insensitively, the
 * longest term winning where terms overlap ("gelatin silver" over "silver"). Placeholder values
 * ("other", "unidentified", "unknown"…) and vocabulary terms that are ordinary function words
 * of English, Spanish or Catalan ("as", "a", "de"…) are never statements.
 */

export interface StatedDate {
  from: number;
  to: number;
  /** The text as written, e.g. "323 BC - 150 BC". */
  text: string;
  /** "ca." or a century: the statement is approximate and tolerates a few years either side. */
  approximate: boolean;
}

export interface StatedTerm {
  /** The vocabulary value, spelt as the vocabulary spells it. */
  value: string;
  /** The words as written in the record. */
  text: string;
  /**
   * A term the section's data knows for this role (a coin's denomination "Quadrans") that is no
   * value the role's field can take: a statement every other value contradicts, never proposed.
   */
  outside?: boolean;
}

/** Years of slack around an approximate statement before a proposal contradicts it. */
export const approximateToleranceYears = 10;

const era = String.raw`(?<![\p{L}])(?:B\.?\s?C\.?(?:E\.?)?|A\.?\s?D\.?|C\.?E\.?|a\.?\s?C\.?|d\.?\s?C\.?)(?![\p{L}])`;
const bcEra = /^(?:B\.?\s?C\.?(?:E\.?)?|a\.?\s?C\.?|aC)$/i;
const dash = String.raw`(?:\s*[-–—]\s*|\s+(?:to|a|al|fins al?)\s+)`;
const circa = String.raw`(?:ca\.?|c\s?\.|circa|cap\s?a|hacia|vers)`;

/** One year, optionally with an era before ("AD 218") or after ("323 BC"). */
const yearWithEra = String.raw`(?:(${era})\s*)?(\d{1,4})(?:\s*(${era}))?`;

interface Year {
  year: number;
  bc: boolean | null;
}

function readYear(before: string | undefined, digits: string, after: string | undefined): Year {
  const marker = before ?? after;
  return { year: Number(digits), bc: marker ? bcEra.test(marker.replace(/\s+/g, "")) : null };
}

function signed(year: Year, fallbackBc: boolean): number {
  return (year.bc ?? fallbackBc) ? -year.year : year.year;
}

/** "1879-80" → 1880: a two-digit second year shares the first one's century. */
function expandShort(first: number, secondDigits: string): number {
  if (secondDigits.length >= 3 || first < 100) return Number(secondDigits);
  const century = Math.floor(first / 100) * 100;
  const second = century + Number(secondDigits);
  return second >= first ? second : second + 100;
}

const romanValues: Record<string, number> = { I: 1, V: 5, X: 10, L: 50, C: 100 };
export function romanToNumber(roman: string): number | null {
  const text = roman.toUpperCase();
  if (!/^[IVXLC]+$/.test(text)) return null;
  let total = 0;
  for (let index = 0; index < text.length; index++) {
    const value = romanValues[text[index] as string] as number;
    const next = romanValues[text[index + 1] as string] ?? 0;
    total += value < next ? -value : value;
  }
  return total > 0 && total <= 30 ? total : null;
}

/** Century n (BC when bc) as years, narrowed to its first or second half or third by a qualifier. */
function centuryRange(n: number, bc: boolean, qualifier: string | undefined): { from: number; to: number } {
  // 18th century = 1701–1800; 1st century BC = 100–1 BC.
  let from = bc ? -(n * 100) : (n - 1) * 100 + 1;
  let to = bc ? -((n - 1) * 100 + 1) : n * 100;
  const q = qualifier?.toLowerCase().trim().replace(/-$/, "");
  if (q === "early" || q === "primera mitad" || q === "first half") to = from + 49;
  else if (q === "late" || q === "segunda mitad" || q === "second half") from = to - 49;
  else if (q === "mid" || q === "middle") {
    from += 25;
    to -= 25;
  }
  return { from, to };
}

const ordinalCentury = new RegExp(
  String.raw`\b(?:(early|late|mid-?|middle|first half of the|second half of the)\s*(?:the\s+)?)?(\d{1,2})(?:st|nd|rd|th)[\s-]+centur(?:y|ies)(?:\s+(${era}))?`,
  "giu",
);
const romanCentury = new RegExp(String.raw`\b(?:s\.|sig\.|siglo|segle)\s*([IVXLC]{1,6})\b(?:\s*(${era}))?`, "giu");
const decade = /\b(early|late|mid-?)?\s*(1\d|20)(\d)0\s?'?s\b/gi;
const rangeWithEra = new RegExp(String.raw`${yearWithEra}${dash}${yearWithEra}`, "giu");
const singleWithEra = new RegExp(yearWithEra, "giu");
// Not the "C." of "B.C.": circa starts a word.
const circaYear = new RegExp(String.raw`(?<![\p{L}.])${circa}\s*(?:(?:early|late|mid)\s+)?(\d{3,4})(?:\s*(?:-|–)\s*(\d{2,4}))?`, "giu");

interface Found extends StatedDate {
  start: number;
  end: number;
}

function push(found: Found[], item: Found) {
  if (!Number.isFinite(item.from) || !Number.isFinite(item.to)) return;
  const from = Math.min(item.from, item.to);
  const to = Math.max(item.from, item.to);
  if (from < -10_000 || to > 2_100) return;
  // Overlapping matches: the first (most specific pattern) wins.
  if (found.some((other) => item.start < other.end && other.start < item.end)) return;
  found.push({ ...item, from, to, text: item.text.trim() });
}

/** Date statements in running text (titles, descriptions): only marked years count. */
export function findMarkedDates(text: string): StatedDate[] {
  const found: Found[] = [];
  for (const match of text.matchAll(ordinalCentury)) {
    const range = centuryRange(Number(match[2]), Boolean(match[3] && bcEra.test(match[3])), match[1]?.replace(/ of the$/, ""));
    push(found, { ...range, text: match[0], approximate: true, start: match.index, end: match.index + match[0].length });
  }
  for (const match of text.matchAll(romanCentury)) {
    // Upper-case numerals only: "s. XVIII", never the letters of an ordinary word.
    const n = match[1] === match[1]?.toUpperCase() ? romanToNumber(match[1] ?? "") : null;
    if (n === null) continue;
    const range = centuryRange(n, Boolean(match[2] && bcEra.test(match[2])), undefined);
    push(found, { ...range, text: match[0], approximate: true, start: match.index, end: match.index + match[0].length });
  }
  for (const match of text.matchAll(circaYear)) {
    const first = Number(match[1]);
    const second = match[2] ? expandShort(first, match[2]) : first;
    push(found, { from: first, to: second, text: match[0], approximate: true, start: match.index, end: match.index + match[0].length });
  }
  for (const match of text.matchAll(decade)) {
    const start = Number(`${match[2]}${match[3]}0`);
    const q = match[1]?.toLowerCase().replace("-", "");
    const range = q === "early" ? { from: start, to: start + 4 } : q === "late" ? { from: start + 5, to: start + 9 } : { from: start, to: start + 9 };
    push(found, { ...range, text: match[0], approximate: true, start: match.index, end: match.index + match[0].length });
  }
  for (const match of text.matchAll(rangeWithEra)) {
    const a = readYear(match[1], match[2] as string, match[3]);
    const b = readYear(match[4], match[5] as string, match[6]);
    // A range counts when it names an era; an era written once (after the second year, or
    // before the first) applies to both: "108-107 B.C.", "AD 218 - 222".
    if (a.bc === null && b.bc === null) continue;
    if (!isYearBoundary(text, match.index, match.index + match[0].length)) continue;
    const from = signed(a, b.bc ?? false);
    const to = signed(b, a.bc === true && b.bc === null ? true : false);
    push(found, { from, to, text: match[0], approximate: false, start: match.index, end: match.index + match[0].length });
  }
  for (const match of text.matchAll(singleWithEra)) {
    const year = readYear(match[1], match[2] as string, match[3]);
    if (year.bc === null) continue;
    if (!isYearBoundary(text, match.index, match.index + match[0].length)) continue;
    const value = signed(year, false);
    push(found, { from: value, to: value, text: match[0], approximate: false, start: match.index, end: match.index + match[0].length });
  }
  return found.sort((a, b) => a.start - b.start).map(({ from, to, text: written, approximate }) => ({ from, to, text: written, approximate }));
}

/** No digit, dot-digit or slash right before or after: "2004.14.120" and "289/1" hold no year. */
function isYearBoundary(text: string, start: number, end: number): boolean {
  const before = text.slice(Math.max(0, start - 2), start);
  const after = text.slice(end, end + 2);
  return !/[\d/]$|\d\.$/.test(before) && !/^[\d/]|^\.\d/.test(after);
}

const bareRange = /^(?:(\d{3,4})(?:\s*(?:-|–|—)\s*(\d{2,4}))?)\s*\.?$/;

/**
 * A whole value (or a whole comma-delimited part of one) that is nothing but a date: "1948",
 * "1879-1880", "829 - 831", "ca. 1928", "400 BC - 380 BC". Null otherwise.
 */
export function readWholeDate(text: string): StatedDate | null {
  const trimmed = text.trim();
  const bare = bareRange.exec(trimmed);
  if (bare) {
    const first = Number(bare[1]);
    const second = bare[2] ? expandShort(first, bare[2]) : first;
    if (second < first) return null;
    return { from: first, to: second, text: trimmed.replace(/\.$/, ""), approximate: false };
  }
  const marked = findMarkedDates(trimmed);
  if (marked.length !== 1) return null;
  const [only] = marked as [StatedDate];
  // The date must be (nearly) all of it: "ca. 1928" yes, "painted ca. 1928 in Paris" no.
  return trimmed.replace(/[.\s]+$/, "").length - only.text.length <= 2 ? only : null;
}

/** The comma/semicolon-delimited parts of a title, each ending at a sentence full stop. */
export function textParts(text: string): string[] {
  // A full stop ends a part only before a space and something that is not a continuing era
  // or abbreviation ("B.C.", "ca. 1928" stay whole).
  return text
    .split(/[,;:()]|\.(?<!(?:^|[\s.])(?:\p{L}|ca|St|no|No|nr|Nr)\.)(?=\s)/u)
    .map((part) => part.trim())
    .filter(Boolean);
}

export interface TextSource {
  /** The field's label ("Title", "Year made"). */
  label: string;
  text: string;
}

export interface DateStatement extends StatedDate {
  /** Where it is written. */
  label: string;
}

/**
 * The record's date statement: the span of the dates its fields state. A field whose whole value
 * (or a whole part of its title-like text) is a date outranks dates in running text, so a
 * painting's "Year made: 1994" decides over the "1954" in its title "Stonington, 1954"; within
 * a rank the statement is the span of all the dates found. Null when the record states none.
 */
export function statedDate(sources: readonly TextSource[]): { from: number; to: number; approximate: boolean; statements: DateStatement[] } | null {
  const whole: DateStatement[] = [];
  const parts: DateStatement[] = [];
  const running: DateStatement[] = [];
  for (const source of sources) {
    const text = source.text.trim();
    if (!text || /^[a-z]+:\/\//i.test(text)) continue;
    const all = readWholeDate(text);
    if (all) {
      whole.push({ ...all, label: source.label });
      continue;
    }
    const inParts = textParts(text)
      .map(readWholeDate)
      .filter((date): date is StatedDate => date !== null);
    parts.push(...inParts.map((date) => ({ ...date, label: source.label })));
    // A marked date that is also a whole part is one statement, not two.
    const partRanges = new Set(inParts.map((date) => `${date.from}/${date.to}`));
    running.push(
      ...findMarkedDates(text)
        .filter((date) => !partRanges.has(`${date.from}/${date.to}`))
        .map((date) => ({ ...date, label: source.label })),
    );
  }
  const chosen = whole.length ? whole : [...parts, ...running];
  if (chosen.length === 0) return null;
  return {
    from: Math.min(...chosen.map((date) => date.from)),
    to: Math.max(...chosen.map((date) => date.to)),
    approximate: chosen.some((date) => date.approximate),
    statements: chosen,
  };
}

/** Values that say "not determined": never a statement, and never a term to find. */
const placeholders = new Set([
  "other",
  "others",
  "unidentified",
  "unknown",
  "uncertain",
  "undetermined",
  "indeterminate",
  "undated",
  "none",
  "n/a",
  "na",
  "n.a.",
  "n. a.",
  "n/d",
  "s.d.",
  "s/d",
  "s.f.",
  "not identified",
  "not known",
  "unspecified",
  "various",
  "mixed",
  "miscellaneous",
  "misc",
  "unclassified",
  "otro",
  "otros",
  "otra",
  "otras",
  "desconocido",
  "desconocida",
  "indeterminado",
  "indeterminada",
  "no identificado",
  "sin identificar",
  "sin determinar",
  "varios",
  "altre",
  "altres",
  "altra",
  "desconegut",
  "desconeguda",
  "indeterminat",
  "indeterminada",
  "no identificat",
  "sense identificar",
  "diversos",
  "sense data",
  "sin fecha",
]);

/** Function words of English, Spanish and Catalan (lib/language): a vocabulary term spelt like one is not findable in text. */
const functionWords = wordSet("functionWords");

export function fold(text: string): string {
  return foldAccents(text).toLocaleLowerCase();
}

export function isPlaceholderValue(value: string): boolean {
  return placeholders.has(fold(value.trim()));
}

/** A vocabulary reduced to its findable terms. */
export function findableTerms(vocabulary: Iterable<string>): string[] {
  const terms = new Map<string, string>();
  for (const raw of vocabulary) {
    const value = raw.trim();
    const key = fold(value);
    if (key.length < 2 || placeholders.has(key) || functionWords.has(key) || /^[\d\s–-]+$/.test(key) || terms.has(key)) continue;
    terms.set(key, value);
  }
  return [...terms.values()];
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The vocabulary terms a text states, longest first where they overlap; a term of four or more
 * letters also matches its plural ("staters").
 */
const compiled = new LRUCache<string, { term: string; pattern: RegExp }[]>({ max: 64 });

/** The vocabulary's findable terms as patterns, longest first (cached: a section's vocabulary is reused). */
function termPatterns(vocabulary: readonly string[]): { term: string; pattern: RegExp }[] {
  const key = vocabulary.join("\u0000");
  const cached = compiled.get(key);
  if (cached) return cached;
  const patterns = findableTerms(vocabulary)
    .sort((a, b) => b.length - a.length)
    .map((term) => {
      const words = fold(term)
        .split(/\s+/)
        .map(escape)
        .join(String.raw`[\s-]+`);
      const plural = fold(term).length >= 4 ? "(?:e?s)?" : "";
      return { term, pattern: new RegExp(String.raw`(?<![\p{L}\p{N}])${words}${plural}(?![\p{L}\p{N}])`, "gu") };
    });
  compiled.set(key, patterns);
  return patterns;
}

/**
 * The vocabulary terms a text states, longest first where they overlap; a term of four or more
 * letters also matches its plural ("staters").
 */
export function findTerms(written: string, vocabulary: readonly string[]): StatedTerm[] {
  // Composed first, so folding keeps every character's position.
  const text = written.normalize("NFC");
  const folded = fold(text);
  const taken: { start: number; end: number }[] = [];
  const found: (StatedTerm & { start: number })[] = [];
  for (const { term, pattern } of termPatterns(vocabulary)) {
    for (const match of folded.matchAll(pattern)) {
      const start = match.index;
      const end = start + match[0].length;
      if (taken.some((span) => start < span.end && span.start < end)) continue;
      taken.push({ start, end });
      found.push({ value: term, text: text.slice(start, end), start });
    }
  }
  return found.sort((a, b) => a.start - b.start).map(({ value, text: said }) => ({ value, text: said }));
}
