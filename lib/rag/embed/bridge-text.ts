import "server-only";
import { detectLanguage, type DetectedLanguage } from "./detect-language";
import type { Embedder } from "./embedder";
import { processTranslationBridge, type BridgeLanguage, type TranslationBridge } from "./translate";

/**
 * Decides what text a model embeds for each passage. An English-only model (USE lite) gets
 * Spanish and Catalan passages translated to English when the bridge is installed; a
 * multilingual model, English text and any other language get the text as written. The
 * caller keeps the original for citation and keyword search either way.
 */
export interface TextToPrepare {
  text: string;
  /** The record's declared language; detected from the text when absent. */
  language?: string;
}

export interface PreparedText {
  language: string;
  /** What the model should embed: the translation when there is one, else the original. */
  embeddedText: string;
  translatedText: string | null;
}

export interface PrepareOptions {
  /** Defaults to the process's Apertium bridge. */
  bridge?: TranslationBridge;
  detect?: (text: string) => Promise<DetectedLanguage>;
}

const bridgedLanguages: readonly BridgeLanguage[] = ["es", "ca"];

export async function prepareForEmbedding(
  items: TextToPrepare[],
  embedder: Embedder,
  options: PrepareOptions = {},
): Promise<PreparedText[]> {
  const detect = options.detect ?? detectLanguage;
  const languages = await Promise.all(items.map(async (item) => item.language ?? (await detect(item.text)).language));
  const prepared: PreparedText[] = items.map((item, index) => ({
    language: languages[index] ?? "und",
    embeddedText: item.text,
    translatedText: null,
  }));
  if (embedder.language !== "en") return prepared;

  const bridge = options.bridge ?? processTranslationBridge;
  for (const language of bridgedLanguages) {
    const indexes = prepared.flatMap((item, index) => (item.language === language ? [index] : []));
    if (indexes.length === 0) continue;
    const status = await bridge.status();
    if (!status.pairs[language]) continue;
    const translations = await bridge.translateToEnglish(
      indexes.map((index) => items[index]?.text ?? ""),
      language,
    );
    indexes.forEach((itemIndex, position) => {
      const translation = translations[position];
      const item = prepared[itemIndex];
      // A blank translation of real text would embed nothing: keep the original instead.
      if (item && translation?.trim()) {
        item.translatedText = translation;
        item.embeddedText = translation;
      }
    });
  }
  return prepared;
}
