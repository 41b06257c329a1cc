/**
 * Running text as its paragraphs, not its printed lines. A scanned page reaches the index as OCR
 * read it, one printed line per line ("L'església parroquial, les campanes, els altars i el" /
 * "cementiri seran traslladats…"), and other prose may be hard-wrapped too; a sentence read line
 * by line is quoted cut in half. This module decides, for each line, whether it goes on from the
 * line before (the same sentence, wrapped) or starts a unit of its own (a paragraph, a heading, a
 * list item), and joins lines the same way in the passage and in its line-aligned translation.
 * Pure; the indexed text is never changed, only how the answerer reads it.
 *
 * The rule, for a line after another with no blank line between them:
 * - apart when the line before ends a sentence (. ! ? … or :, a closing quote after them) — but
 *   not a dot before a line in lowercase, which no sentence starts with: a speck OCR read as a
 *   full stop ("pidió al patrón de la." / "draga que la dejara…") or an abbreviation;
 * - an end-of-line hyphen ("campa-" / "nes") joins the two halves into one word ("campanes"),
 *   except that a Catalan pronoun attached to a verb keeps its hyphen ("despenjar-" / "se" →
 *   "despenjar-se"): the part before ends as an infinitive or gerund does (-ar, -er, -ir, -ur,
 *   -re, -nt) and the part after is a weak pronoun (se, les, lo, hi, ho, ne, s'…); before a capital
 *   or a digit, or after a digit, the hyphen is kept as written ("1961-" / "1966");
 * - joined with a space when the line goes on in lowercase or with a number, or the line before
 *   ends on a comma, a dash or an opening bracket;
 * - a line before in capitals ("TRASLLAT AL POBLE NOU") is a heading: apart from a line in
 *   lowercase letters after it, joined to another line in capitals (a heading set on two lines);
 * - otherwise joined when the line before runs (nearly) the passage's full width — it was wrapped
 *   because the next word did not fit — and apart when it is short: a heading, an address line,
 *   a list item, which stand alone before a capitalised line.
 */
export type LineGlue = "apart" | "space" | "word" | "compound";

/** A sentence's end at the end of a line: . ! ? … (or a colon), then any closing quotes or brackets. */
export const sentenceEnd = /[.!?…]["”»)’]*\s*$/;
const lineEnd = /[.!?…:]["”»)’]*$/;
const endHyphen = /[\p{L}\p{N}][-\u00ad]$/u;
const goesOnAfter = /[,;(«“‘–—/&]$/;
const listItem = /^(?:\d+[.)]|[-•*])\s/;
// A weak pronoun after a verb's hyphen, alone or before another pronoun or an apostrophe ("se'n").
const weakPronoun = /^(?:me|te|se|nos|vos|us|lo|la|los|les|li|hi|ho|ne|[mtsln]['’])(?=$|[-'’\s.,;:!?…])/u;
const verbEnding = /(?:[aeiu]r|re|nt)$/u;
/** A printed line this share of the passage's longest line or more ran to the margin. */
const wrappedShare = 0.7;

const openers = /^[\s¿¡«"“‘'(\[]*/u;
/** Whether the text starts (after any opening marks) with a lowercase letter: it continues a sentence. */
export const startsLowercase = (text: string) => /^\p{Ll}/u.test(text.replace(openers, ""));
const startsWithNumber = (text: string) => /^\p{N}/u.test(text.replace(openers, ""));
const inCapitals = (line: string) => /\p{Lu}.*\p{Lu}/u.test(line) && !/\p{Ll}/u.test(line);

/** The text's non-blank lines, their spaces collapsed, as printed. */
export const printedLines = (text: string) =>
  text
    .split("\n")
    .map((line) => line.replace(/\s+/g, " ").trim())
    .filter(Boolean);

/**
 * For each non-blank line of the text, how it goes on from the line before ("apart" for the first
 * and after a blank line). `language` (the passage's, when known) decides only whether a pronoun
 * after a hyphen is Catalan's: Spanish and English never write one so.
 */
export function lineGlues(text: string, language?: string): LineGlue[] {
  const lines: { text: string; blankBefore: boolean }[] = [];
  let blank = false;
  for (const raw of text.split("\n")) {
    const line = raw.replace(/\s+/g, " ").trim();
    if (!line) blank = true;
    else {
      lines.push({ text: line, blankBefore: blank });
      blank = false;
    }
  }
  const widest = Math.max(0, ...lines.map((line) => line.text.length));
  const pronounsAttach = language === undefined || !["es", "en"].includes(language.slice(0, 2));
  return lines.map((line, index): LineGlue => {
    const before = lines[index - 1]?.text;
    if (before === undefined || line.blankBefore) return "apart";
    if (lineEnd.test(before)) return /\.["”»)’]*$/.test(before) && startsLowercase(line.text) ? "space" : "apart";
    if (endHyphen.test(before)) {
      if (before.endsWith("\u00ad")) return "word";
      if (!startsLowercase(line.text) || /\p{N}.$/u.test(before)) return "compound";
      const word = /[\p{L}]+$/u.exec(before.slice(0, -1))?.[0] ?? "";
      return pronounsAttach && weakPronoun.test(line.text) && verbEnding.test(word) && word.length >= 3 ? "compound" : "word";
    }
    if (startsLowercase(line.text) || (startsWithNumber(line.text) && !listItem.test(line.text)) || goesOnAfter.test(before)) return "space";
    if (inCapitals(before)) return inCapitals(line.text) ? "space" : "apart";
    return before.length >= wrappedShare * widest ? "space" : "apart";
  });
}

/**
 * The text's non-blank lines joined by the glues (one per line, as `lineGlues` gives them). A
 * translation is joined by its original's glues; where a hyphen the original had is not at the
 * end of the translated line, its lines are joined with a space.
 */
export function joinLines(text: string, glues: readonly LineGlue[]): string[] {
  const units: string[] = [];
  printedLines(text).forEach((line, index) => {
    const glue = glues[index] ?? "apart";
    const before = units.at(-1);
    if (before === undefined || glue === "apart") units.push(line);
    else if (glue === "space" || !/[-\u00ad]$/.test(before)) units[units.length - 1] = `${before} ${line}`;
    else units[units.length - 1] = glue === "word" ? `${before.slice(0, -1)}${line}` : `${before}${line}`;
  });
  return units;
}
