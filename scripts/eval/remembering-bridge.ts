import type { BridgeLanguage, TranslationBridge } from "../../lib/rag/embed/translate";

/**
 * A translation bridge that remembers each text's translation (per language, plain and marked
 * apart) and sends what it does not know to the underlying bridge in one run. An evaluation warms
 * it with all its queries at once — one Apertium start instead of one per query, each about
 * 1.5 s — and the search service, given it as its bridge, then reads every query's translation
 * from memory. Only the two methods the language handling uses for a model are passed on.
 */
export function rememberingBridge(bridge: TranslationBridge): TranslationBridge {
  const remember = (run: (texts: string[], from: BridgeLanguage) => Promise<string[]>) => {
    const known = new Map<string, string>();
    const key = (from: BridgeLanguage, text: string) => `${from}\u0000${text}`;
    return async (texts: string[], from: BridgeLanguage): Promise<string[]> => {
      const missing = [...new Set(texts.filter((text) => !known.has(key(from, text))))];
      if (missing.length > 0) {
        const translated = await run(missing, from);
        if (translated.length !== missing.length) throw new Error(`the bridge returned ${translated.length} translations for ${missing.length} texts`);
        missing.forEach((text, index) => known.set(key(from, text), translated[index] ?? ""));
      }
      return texts.map((text) => known.get(key(from, text)) ?? "");
    };
  };
  const marked = bridge.translateMarked;
  return {
    status: () => bridge.status(),
    translateToEnglish: remember((texts, from) => bridge.translateToEnglish(texts, from)),
    ...(marked ? { translateMarked: remember((texts, from) => marked.call(bridge, texts, from)) } : {}),
  };
}
