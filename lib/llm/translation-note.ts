/**
 * A quotation's machine translation into the reader's language, as it follows the quotation's
 * [n] in an answer, labelled in that language with the language it translated from:
 * "(machine translation from Catalan: …)", "(traducción automática del catalán: …)",
 * "(traducció automàtica del castellà: …)". It is never itself a quotation — citation checks
 * skip it (`withoutTranslationNotes`), so it vouches for nothing — and the ask panel shows it
 * apart from the quoted words. Plain, for server and browser alike.
 *
 * A word the translator did not know is left as written and set in mathematical angle brackets,
 * "⟨despenjar-se⟩", so the gloss never passes a source word off as English (or Spanish, or
 * Catalan): "(machine translation from Catalan: The bell ⟨despenjar-se⟩ the 1964 at Sant Romà.)".
 * Names are not marked. The brackets are plain text, so the mark survives in the answer the API
 * returns, in a copied answer and in saved threads; the panel shows the word apart
 * (`splitUntranslatedWords`). Notes saved before the direction and the marks,
 * "(machine translation: …)", are still recognised.
 */

/** A quotation's translation and the language it was translated from. */
export interface Gloss {
  text: string;
  from: string;
}

const translationLabels: Record<string, string> = { en: "machine translation", es: "traducción automática", ca: "traducció automàtica" };

/** "from <language>" in each reader's language, by the language translated from. */
const directionLabels: Record<string, Record<string, string>> = {
  en: { en: "from English", es: "from Spanish", ca: "from Catalan" },
  es: { en: "del inglés", es: "del español", ca: "del catalán" },
  ca: { en: "de l'anglès", es: "del castellà", ca: "del català" },
};

/** A word the translator left as written: "⟨despenjar-se⟩". */
export function untranslatedWord(word: string): string {
  return `⟨${word}⟩`;
}

const untranslatedPattern = /⟨[^⟨⟩()]+⟩/;

export function translationNote(gloss: Gloss, language: string): string {
  const reader = translationLabels[language] ? language : "en";
  const direction = directionLabels[reader]?.[gloss.from];
  const label = direction ? `${translationLabels[reader]} ${direction}` : translationLabels[reader];
  return `(${label}: ${gloss.text.replace(/[()]/g, "").replace(/\s+/g, " ").trim()})`;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const directionPattern = [...new Set(Object.values(directionLabels).flatMap((labels) => Object.values(labels)))].map(escape).join("|");
// The direction is optional: notes saved before it was written say only "(machine translation: …)".
const notePattern = `\\((?:${Object.values(translationLabels).map(escape).join("|")})(?: (?:${directionPattern}))?: [^()]*\\)`;

/** The answer without its translation notes: what remains is what the sources must vouch for. */
export function withoutTranslationNotes(text: string): string {
  return text.replace(new RegExp(notePattern, "g"), "");
}

/** Text split into plain runs and translation notes, in order (for display). */
export function splitTranslationNotes(text: string): { text: string; note: boolean }[] {
  return text
    .split(new RegExp(`(${notePattern})`, "g"))
    .filter(Boolean)
    .map((part) => ({ text: part, note: new RegExp(`^${notePattern}$`).test(part) }));
}

/** A note's text split into translated runs and words left as written (brackets kept), in order (for display). */
export function splitUntranslatedWords(note: string): { text: string; untranslated: boolean }[] {
  return note
    .split(new RegExp(`(${untranslatedPattern.source})`, "g"))
    .filter(Boolean)
    .map((part) => ({ text: part, untranslated: new RegExp(`^${untranslatedPattern.source}$`).test(part) }));
}
