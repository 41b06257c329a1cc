import { dataLanguages, foreignNameParticles, languageData, wordSet } from "../../language/language-data";

/**
 * Names through the translation bridge. Apertium reads a capitalised word it knows as an
 * ordinary word and translates it: "Roser" becomes "Rosebush", "Sant Romà de Vall" becomes
 * "Sant Romà of Vale", "Port de la Calma" "Port of the Calm". Before a Spanish or Catalan text
 * goes through the bridge, its names are replaced by placeholders Apertium copies through
 * verbatim, and put back afterwards.
 *
 * What counts as a name:
 * - a run of capitalised words, joined by particles ("de", "de la", "del", "i", "y", d'…),
 *   anywhere but at the start of a sentence: "Montserrat Farré", "Port de la Calma";
 * - at the start of a sentence, where every word is capitalised, only a run of two or more
 *   capitalised words ("Sant Romà de Vall és…"), a speaker label ("Roser: …"), or a word the
 *   context already knows as a name; an article or other function word before it is not part
 *   of the name ("El Port de la Calma" → "Port de la Calma");
 * - literal mark characters Apertium would be mistaken for (*, #, @ before a word) are kept the
 *   same way, so every mark in the bridge's output is its own.
 *
 * Not every name needs keeping: Apertium translates the place names it knows ("França" →
 * "France"). The bridge probes each name (see bridge-text.ts) and only keeps it as written when
 * Apertium knows its words as ordinary words; otherwise the name's own translation goes back.
 */
export interface ProtectedText {
  /** The text with each name replaced by its placeholder. */
  text: string;
  /** The names, in placeholder order. */
  names: string[];
  /** The placeholder of name i. */
  placeholders: string[];
}

// "i", "y" and "e" join two names ("Tom y Mary"), not the parts of one: they are translated (except
// "i" and "y" between a person's two surnames, see findNames). Elided d' and l' belong to the word
// they precede ("d'Urgell").
const notJoining = new Set(["i", "y", "e", "d", "l"]);
const particles = new Set([...wordSet("nameParticles", ["es", "ca"]), ...foreignNameParticles].filter((particle) => !notJoining.has(particle)));

/**
 * Common nouns Spanish and Catalan capitalise as institutions, feasts or sacred names: they are
 * meant as the ordinary word, and are translated ("la Policía" → "the Police").
 */
const capitalisedCommonNouns = new Set(dataLanguages.flatMap((language) => languageData[language].institutionNouns));

/**
 * Words that start a sentence without being names (articles, pronouns, prepositions,
 * conjunctions, frequent adverbs in Spanish, Catalan and English): "El Port de la Calma" is
 * the article "El" and the name "Port de la Calma".
 */
const sentenceStarters = new Set(dataLanguages.flatMap((language) => languageData[language].sentenceStarters));

/** Placeholders: letters only, so Apertium treats each as one unknown word and copies it. */
const placeholderBase = "MNEMONAME";

function placeholderFor(index: number, prefix: string): string {
  let letters = "";
  let n = index;
  do {
    letters = String.fromCharCode(65 + (n % 26)) + letters;
    n = Math.floor(n / 26) - 1;
  } while (n >= 0);
  return `${prefix}${letters}Q`;
}

const wordPattern = /[\p{L}][\p{L}\p{M}'’·-]*|[\p{N}]+|[^\s\p{L}\p{N}]/gu;

interface Token {
  text: string;
  start: number;
  end: number;
  /** Starts a sentence: the text's first word, or after . ! ? … : or a line break. */
  sentenceStart: boolean;
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let sentenceStart = true;
  for (const match of text.matchAll(wordPattern)) {
    const start = match.index ?? 0;
    const token = match[0];
    const before = text.slice(tokens.at(-1)?.end ?? 0, start);
    if (before.includes("\n")) sentenceStart = true;
    tokens.push({ text: token, start, end: start + token.length, sentenceStart });
    if (/^[.!?…:;]$/.test(token)) sentenceStart = true;
    else if (/^[¿¡"«“‘'([—–#*-]$/.test(token)) {
      // Opening punctuation keeps the next word at the start of its sentence.
    } else sentenceStart = false;
  }
  return tokens;
}

function isCapitalised(word: string): boolean {
  return /^\p{Lu}/u.test(word) || /^[dlDL]['’]\p{Lu}/u.test(word);
}

function isWord(token: Token | undefined): token is Token {
  return token !== undefined && /^\p{L}/u.test(token.text);
}

/**
 * The names in a text (each as written), by the rules above. `knownNames` are single words the
 * context already knows as names, which count even at the start of a sentence.
 */
export function findNames(text: string, knownNames: ReadonlySet<string> = new Set()): { start: number; end: number; name: string }[] {
  // Turn and page markers ([[turn:12-15.5]]) start a line of their own; same length, same offsets.
  const tokens = tokenize(text.replace(/\[\[[^\]\n]*\]\]/g, (marker) => `\n${" ".repeat(marker.length - 1)}`));
  const found: { start: number; end: number; name: string }[] = [];
  let index = 0;
  while (index < tokens.length) {
    const token = tokens[index];
    if (!isWord(token) || !isCapitalised(token.text)) {
      index++;
      continue;
    }
    // The run: capitalised words, with particles only between two capitalised words.
    let last = index;
    let cursor = index + 1;
    while (cursor < tokens.length) {
      const next = tokens[cursor];
      if (!isWord(next) || next.start - (tokens[cursor - 1]?.end ?? 0) > 1) break;
      if (isCapitalised(next.text) && !next.sentenceStart) {
        last = cursor;
        cursor++;
        continue;
      }
      // Up to two particles ("de la") followed by a capitalised word.
      let probe = cursor;
      let phrase = "";
      while (probe < tokens.length && probe - cursor < 2 && isWord(tokens[probe]) && !isCapitalised(tokens[probe]?.text ?? "")) {
        phrase = phrase ? `${phrase} ${tokens[probe]?.text.toLowerCase()}` : (tokens[probe]?.text.toLowerCase() ?? "");
        if (!particles.has(phrase)) break;
        const after = tokens[probe + 1];
        if (isWord(after) && isCapitalised(after.text) && !after.sentenceStart) {
          last = probe + 1;
          break;
        }
        probe++;
      }
      if (last >= cursor) {
        cursor = last + 1;
        continue;
      }
      break;
    }
    // A person's two surnames joined by "i" or "y" ("Roser Cases i Mitjans", "José Ortega y
    // Gasset") are one name: a run of two or more capitalised words, the conjunction, then one
    // capitalised word that no other follows. "Tom y Mary" (one word before) and "Josep Farré i
    // Maria Bosch" (two after) stay two names, their conjunction translated.
    const conjunction = tokens[last + 1];
    const surname = tokens[last + 2];
    const afterSurname = tokens[last + 3];
    if (
      tokens.slice(index, last + 1).filter((item) => isCapitalised(item.text)).length >= 2 &&
      isWord(conjunction) &&
      /^[iy]$/.test(conjunction.text) &&
      conjunction.start - (tokens[last]?.end ?? 0) === 1 &&
      isWord(surname) &&
      isCapitalised(surname.text) &&
      !surname.sentenceStart &&
      surname.start - conjunction.end === 1 &&
      !(isWord(afterSurname) && isCapitalised(afterSurname.text) && afterSurname.start - surname.end === 1)
    ) {
      last += 2;
    }
    let first = index;
    const runWords = () => tokens.slice(first, last + 1).filter((item) => isCapitalised(item.text));
    if (token.sentenceStart) {
      // A function word opening the sentence is not part of the name.
      while (first <= last && sentenceStarters.has((tokens[first]?.text ?? "").toLowerCase())) first++;
      while (first <= last && !isCapitalised(tokens[first]?.text ?? "")) first++;
      const capitalisedWords = first <= last ? runWords().length : 0;
      const startsSentence = first === index;
      const speaker = tokens[last + 1]?.text === ":" && startsSentence;
      const known = capitalisedWords === 1 && knownNames.has(tokens[first]?.text ?? "");
      const accepted = first <= last && (!startsSentence || capitalisedWords >= 2 || speaker || known);
      if (!accepted) {
        index = last + 1;
        continue;
      }
    }
    const start = tokens[first]?.start ?? 0;
    const end = tokens[last]?.end ?? 0;
    const name = text.slice(start, end);
    if (!capitalisedCommonNouns.has(name.toLowerCase())) found.push({ start, end, name });
    index = last + 1;
  }
  return found;
}

/** Single capitalised words used as names inside a text: the context's known names. */
export function namesInContext(text: string): Set<string> {
  const known = new Set<string>();
  // Headings of the group document ("## Narrator") are field labels, not names.
  for (const { name } of findNames(text.replace(/^#{1,6} .*$/gm, ""))) {
    for (const word of name.split(/\s+/)) if (isCapitalised(word) && !sentenceStarters.has(word.toLowerCase())) known.add(word);
  }
  return known;
}

/** Literal Apertium marks in the source ("#etiqueta", "@usuario", "*nota"). */
const literalMarks = /(?<![\p{L}\p{N}])[*#@]+[\p{L}\p{N}](?:[\p{L}\p{N}_.-]*[\p{L}\p{N}])?/gu;

/** Replaces the names (and literal marks) of `text` by placeholders. */
export function protectNames(text: string, knownNames: ReadonlySet<string> = new Set()): ProtectedText {
  const spans = [
    ...findNames(text, knownNames),
    ...[...text.matchAll(literalMarks)].map((match) => ({ start: match.index ?? 0, end: (match.index ?? 0) + match[0].length, name: match[0] })),
  ]
    .sort((a, b) => a.start - b.start)
    .filter((span, position, all) => position === 0 || span.start >= (all[position - 1]?.end ?? 0));
  if (spans.length === 0) return { text, names: [], placeholders: [] };
  const prefix = placeholderPrefix(text);
  const names: string[] = [];
  const placeholders: string[] = [];
  let output = "";
  let cursor = 0;
  for (const span of spans) {
    const placeholder = placeholderFor(names.length, prefix);
    output += text.slice(cursor, span.start) + placeholder;
    names.push(span.name);
    placeholders.push(placeholder);
    cursor = span.end;
  }
  return { text: output + text.slice(cursor), names, placeholders };
}

/**
 * Puts names back: each placeholder (as Apertium copied it, possibly with its unknown-word mark)
 * becomes `replacement(i)`, by default the name as written.
 */
export function restoreNames(
  translated: string,
  protectedText: Pick<ProtectedText, "names" | "placeholders">,
  replacement?: (index: number) => string,
): string {
  let output = translated;
  protectedText.placeholders.forEach((placeholder, index) => {
    output = output.split(new RegExp(`[*#@]?${placeholder}`, "i")).join(replacement?.(index) ?? protectedText.names[index] ?? "");
  });
  return output;
}

/** A placeholder prefix the text does not contain, so no placeholder can clash with it. */
function placeholderPrefix(text: string): string {
  const upper = text.toUpperCase();
  let prefix = placeholderBase;
  while (upper.includes(prefix)) prefix += "Z";
  return prefix;
}

/**
 * Apertium reads a few capitalised Catalan function words at a sentence's start as unknown names
 * and copies them ("Quan la mare va plorar" → "Quan the mother mourned", "Després vam marxar" →
 * "Després left") and a capitalised "Com" after a speaker's label as "Like"; lower-cased it
 * translates them ("when", "then", "how"). So the function words that open a sentence (after
 * . ! ? : or a line break) go to Apertium lower-cased, and `capitaliseSentences` restores the
 * English sentence's capital.
 */
export function lowerSentenceStarters(text: string): string {
  let lowered = text;
  for (const token of tokenize(text)) {
    if (!token.sentenceStart || !/^\p{Lu}/u.test(token.text) || !sentenceStarters.has(token.text.toLowerCase())) continue;
    lowered = lowered.slice(0, token.start) + token.text.charAt(0).toLowerCase() + lowered.slice(token.start + 1);
  }
  return lowered;
}

/**
 * Where a sentence may start: the text's start, after . ! ? … or : and a space, after a line
 * break; then any opening marks, then the first letter or digit (the last group).
 */
const sentenceStartPattern = /(^|[.!?…:]\s+|\n)([\s¿¡"«“‘'(\[—–-]*)([\p{L}\p{N}])/gu;

/**
 * The first letter of each sentence of a translation in capitals: at the start, after . ! ? … or
 * : and a space, after a line break. Given the `original` the translation was made from, a start
 * keeps the original's case instead: a scanned page's printed line that goes on in lower case
 * ("…la meitat en signar" / "l'acta d'ocupació…") or a clause after a colon stays in lower case
 * ("…the half at signing / the record of occupancy…", not "The record"). Apertium keeps every
 * line break and stop, so the starts pair up in order; where their counts differ, every start is
 * capitalised.
 */
export function capitaliseSentences(text: string, original?: string): string {
  const originalStarts = original === undefined ? [] : [...original.matchAll(sentenceStartPattern)].map((match) => match[3] ?? "");
  const paired = original !== undefined && originalStarts.length === [...text.matchAll(sentenceStartPattern)].length;
  let index = 0;
  return text.replace(sentenceStartPattern, (match, before: string, marks: string, letter: string) => {
    const originalLetter = originalStarts[index++] ?? "";
    const capital = !paired || !/\p{Ll}/u.test(originalLetter);
    return capital ? `${before}${marks}${letter.toUpperCase()}` : match;
  });
}
