import "server-only";
import type { ArchiveLanguage, TranslationBridge } from "../embed/translate";

/** What a quoted sentence needs to be glossed: its words, language and aligned English. */
export interface GlossedSentence {
  text: string;
  language: string;
  english: string | null;
}

const readerLanguages: readonly ArchiveLanguage[] = ["en", "es", "ca"];
const isReaderLanguage = (language: string): language is ArchiveLanguage => (readerLanguages as readonly string[]).includes(language);

/**
 * Each chosen sentence's translation into the question's language, when the two differ: the
 * passage's aligned English for an English question, else the bridge (nothing when it lacks the pair).
 */
export async function translateForReader(chosen: readonly GlossedSentence[], to: string, bridge: TranslationBridge): Promise<(string | null)[]> {
  const translations: (string | null)[] = chosen.map(() => null);
  if (!isReaderLanguage(to)) return translations;
  const pending = new Map<ArchiveLanguage, number[]>();
  chosen.forEach((sentence, index) => {
    if (sentence.language === to || !isReaderLanguage(sentence.language)) return;
    if (to === "en" && sentence.english) translations[index] = sentence.english;
    else pending.set(sentence.language, [...(pending.get(sentence.language) ?? []), index]);
  });
  for (const [from, indexes] of pending) {
    const translated =
      (await bridge
        .translate?.(
          indexes.map((index) => chosen[index]!.text),
          from,
          to,
        )
        .catch(() => null)) ?? null;
    indexes.forEach((index, position) => {
      translations[index] = translated?.[position]?.trim() || null;
    });
  }
  return translations;
}
