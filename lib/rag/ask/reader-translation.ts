import "server-only";
import { type Gloss, untranslatedWord } from "../../llm/translation-note";
import { type ArchiveLanguage, type TranslationBridge, isArchiveLanguage } from "../embed/translate";

/** What a quoted sentence needs to be glossed: its words, language and aligned English. */
export interface GlossedSentence {
  text: string;
  language: string;
  english: string | null;
}

/** A quoted sentence's gloss: its translation, words the translator did not know marked, and where from. */
export interface ReaderTranslation extends Gloss {
  from: ArchiveLanguage;
}

/**
 * Each chosen sentence's translation into the question's language, when the two differ, from
 * the original sentence with Apertium's marks, so a word it did not know is shown as written
 * and marked (`glossFromMarked`) rather than glued into the translation. When the bridge lacks
 * the pair (or gives nothing), an English reader still gets the passage's aligned English as
 * indexed, unmarked; others get nothing.
 */
export async function translateForReader(chosen: readonly GlossedSentence[], to: string, bridge: TranslationBridge): Promise<(ReaderTranslation | null)[]> {
  const translations: (ReaderTranslation | null)[] = chosen.map(() => null);
  if (!isArchiveLanguage(to)) return translations;
  const pending = new Map<ArchiveLanguage, number[]>();
  chosen.forEach((sentence, index) => {
    if (sentence.language === to || !isArchiveLanguage(sentence.language)) return;
    pending.set(sentence.language, [...(pending.get(sentence.language) ?? []), index]);
  });
  for (const [from, indexes] of pending) {
    const originals = indexes.map((index) => chosen[index]!.text);
    const translated = (await bridge.translate?.(originals, from, to, { marked: true }).catch(() => null)) ?? null;
    indexes.forEach((index, position) => {
      const marked = translated?.[position]?.trim();
      const english = to === "en" ? chosen[index]!.english?.trim() : undefined;
      const gloss = marked ? glossFromMarked(marked, originals[position]!) : english || null;
      // Most words unknown: the sentence is not in the language it was taken for (an English
      // catalogue line in a Spanish record); a gloss of it would only repeat it, marked.
      const text = gloss && mostlyUntranslated(gloss) ? null : gloss;
      translations[index] = text ? { text, from } : null;
    });
  }
  return translations;
}

/** Whether half the gloss's words or more were left as written, unknown to the translator. */
function mostlyUntranslated(gloss: string): boolean {
  const words = gloss.match(/\p{L}+/gu)?.length ?? 0;
  const unknown = gloss.match(/⟨[^⟩]*⟩/gu)?.length ?? 0;
  return words > 0 && unknown * 2 >= words;
}

const word = String.raw`\p{L}[\p{L}\p{N}'’·-]*`;

/**
 * A marked translation as a gloss: Apertium writes `*word` for a word it does not know and
 * `@word` for one it knows but cannot translate (both left untranslated), `#word` for one it
 * translated but could not inflect; through English (Spanish ↔ Catalan) a word can carry the
 * marks of both steps. A word left untranslated is marked as translation-note.ts says, unless
 * it is a name: capitalised, and not merely the original's first word ("Sant Romà" stays as it
 * is; "Despenjaren" opening a sentence is marked, "Sant" opening "Sant Romà …" is not). A word
 * Apertium cut short before a clitic ("*despenjar-" for "despenjar-se") is given back whole
 * from the original.
 */
export function glossFromMarked(marked: string, original: string): string {
  return marked.replace(/[⟨⟩]/g, "").replace(new RegExp(`(?<![\\p{L}\\p{N}])([*@#]+)(${word})`, "gu"), (_, marks: string, found: string) => {
    if (!/[*@]/.test(marks)) return found;
    const written = /[-'’]$/.test(found) ? (new RegExp(`(?<![\\p{L}\\p{N}])${escape(found)}[\\p{L}\\p{N}'’·-]*`, "u").exec(original)?.[0] ?? found) : found;
    return isName(written, original) ? written : untranslatedWord(written);
  });
}

function isName(found: string, original: string): boolean {
  if (!/^\p{Lu}/u.test(found)) return false;
  const opening = new RegExp(`^[\\s\\p{P}]*${escape(found)}(?![\\p{L}\\p{N}])\\s*(\\p{L})?`, "u").exec(original);
  // A capitalised word that opens the original may be an ordinary word; it is a name when the next is capitalised too.
  return !opening || /\p{Lu}/u.test(opening[1] ?? "");
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
