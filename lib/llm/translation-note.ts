/**
 * A quotation's machine translation into the reader's language, as it follows the quotation's
 * [n] in an answer: "(machine translation: …)", labelled in that language. It is never itself a
 * quotation — citation checks skip it (`withoutTranslationNotes`), so it vouches for nothing —
 * and the ask panel shows it apart from the quoted words. Plain, for server and browser alike.
 */
const translationLabels: Record<string, string> = { en: "machine translation", es: "traducción automática", ca: "traducció automàtica" };

export function translationNote(translation: string, language: string): string {
  const label = translationLabels[language] ?? translationLabels.en;
  return `(${label}: ${translation.replace(/[()]/g, "").replace(/\s+/g, " ").trim()})`;
}

const notePattern = `\\((?:${Object.values(translationLabels).join("|")}): [^()]*\\)`;

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
