export interface TextRange {
  start: number;
  end: number;
}

const TERMINATORS = new Set([".", "!", "?", "…", "‽"]);
/** Closing quotes and brackets that stay with the sentence they end: `«No.»`, `(sic.)`. */
const CLOSERS = new Set(['"', "'", "”", "’", "»", "›", ")", "]", "}"]);
/** What may open a sentence before its first letter: quotes, brackets, ¿ ¡ and dialogue dashes. */
const OPENERS = new Set(['"', "'", "“", "‘", "«", "‹", "(", "[", "{", "¿", "¡", "—", "–", "-"]);

/** Abbreviations (lower case, without the final dot) that never end a sentence: titles before a name. */
const NAME_ABBREVIATIONS = new Set([
  "dr",
  "dra",
  "drs",
  "dres",
  "sr",
  "sra",
  "srs",
  "sres",
  "srta",
  "mr",
  "mrs",
  "ms",
  "mme",
  "mlle",
  "st",
  "sta",
  "sto",
  "ste",
  "prof",
  "profa",
  "rev",
  "mn",
  "mons",
  "gen",
  "gral",
  "jr",
  "cf",
  "cfr",
  "vs",
  "ca",
  "approx",
  "aprox",
  "ed",
  "eds",
  "av",
  "avda",
  "ctra",
  "pg",
  "pl",
  "dept",
  "ex",
  "vid",
  "ac",
  "dc",
]);
/** Abbreviations that precede a number: `núm. 5`, `p. 45`, `No. 3`; "no." before a word is the word. */
const NUMBER_ABBREVIATIONS = new Set([
  "no",
  "nos",
  "nº",
  "núm",
  "núms",
  "num",
  "vol",
  "vols",
  "pp",
  "pàg",
  "pàgs",
  "pág",
  "págs",
  "pag",
  "fig",
  "figs",
  "cap",
  "art",
  "fol",
  "fols",
  "ff",
  "ibid",
  "exp",
  "leg",
  "doc",
]);

/**
 * Sentence ranges of `text`, in order, trimmed of whitespace; together they hold every
 * non-whitespace character. A sentence ends after . ! ? … (and closing quotes) when whitespace
 * follows and the next word does not start in lower case, unless the dot ends an abbreviation,
 * an initial or a list number; a blank line always ends one. A single line break does not, so
 * hard-wrapped lines stay one sentence. Dots inside numbers (4.41) are never followed by
 * whitespace, so they never end one.
 */
export function splitSentences(text: string): TextRange[] {
  const sentences: TextRange[] = [];
  let start = -1;
  let contentEnd = 0;
  const close = (end: number) => {
    if (start >= 0) sentences.push({ start, end });
    start = -1;
  };
  let index = 0;
  while (index < text.length) {
    const character = text.charAt(index);
    if (isWhitespace(text.charCodeAt(index))) {
      if (character === "\n" && start >= 0 && isBlankLineAhead(text, index + 1)) close(contentEnd);
      index += 1;
      continue;
    }
    if (start < 0) start = index;
    if (!TERMINATORS.has(character)) {
      index += 1;
      contentEnd = index;
      continue;
    }
    let runEnd = index;
    while (runEnd < text.length && TERMINATORS.has(text.charAt(runEnd))) runEnd += 1;
    let end = runEnd;
    while (end < text.length && CLOSERS.has(text.charAt(end))) end += 1;
    contentEnd = end;
    if (end < text.length && isWhitespace(text.charCodeAt(end)) && endsSentence(text, index, runEnd, end)) close(end);
    index = end;
  }
  close(contentEnd);
  return sentences;
}

function endsSentence(text: string, runStart: number, runEnd: number, end: number): boolean {
  let next = end;
  while (next < text.length && isWhitespace(text.charCodeAt(next))) next += 1;
  if (next === text.length) return true;
  while (next < text.length && OPENERS.has(text.charAt(next))) next += 1;
  const following = text.charAt(next);
  if (/\p{Ll}/u.test(following)) return false;
  if (runEnd - runStart > 1 || text.charAt(runStart) !== ".") return true;

  let wordStart = runStart;
  while (wordStart > 0 && /[\p{L}\p{M}\p{N}.]/u.test(text.charAt(wordStart - 1))) wordStart -= 1;
  const word = text.slice(wordStart, runStart);
  if (isAbbreviation(word, /\d/.test(following))) return false;
  return !(/^\d+$/.test(word) && startsLine(text, wordStart));
}

function isAbbreviation(word: string, beforeNumber: boolean): boolean {
  if (/^\p{Lu}$/u.test(word)) return true; // an initial: "J. R. R. Tolkien", "Josep M. Espinàs"
  const lower = word.toLowerCase();
  if (NAME_ABBREVIATIONS.has(lower)) return true;
  if (beforeNumber && (NUMBER_ABBREVIATIONS.has(lower) || /^\p{Ll}$/u.test(word))) return true; // "p. 45", "c. 1920"
  // Dotted abbreviations: "e.g", "i.e", "a.C", "U.S", "p.ex".
  return lower.includes(".") && lower.split(".").every((part) => /^\p{L}{1,2}$/u.test(part));
}

/** True when only spaces or tabs stand between the line start and `index`: a list number "1. …". */
function startsLine(text: string, index: number): boolean {
  let before = index - 1;
  while (before >= 0 && (text.charAt(before) === " " || text.charAt(before) === "\t")) before -= 1;
  return before < 0 || text.charAt(before) === "\n";
}

function isBlankLineAhead(text: string, index: number): boolean {
  let next = index;
  while (next < text.length && text.charAt(next) !== "\n" && isWhitespace(text.charCodeAt(next))) next += 1;
  return text.charAt(next) === "\n";
}

/** The characters JavaScript's \s matches, without a regular expression per character. */
export function isWhitespace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}
