import "server-only";
import { type EgressReceiver, egressAllowed, mayLeaveHost } from "../../acl";
import { longTextParagraphs } from "../../archive/long-text-blocks";
import { type PrepareOptions, translateForReading } from "./bridge-text";
import { type DetectedLanguage, type DetectLanguageOptions, detectContext, detectLanguage, type LanguageContext } from "./detect-language";
import { processTranslationBridge, type TranslationBridge } from "./translate";
import { createTranslationCache, translationKey } from "./translation-cache";

/**
 * The English beside each paragraph of a long text (a publication's body, a testimony written
 * down): every paragraph's language detected on its own, with the whole text as context (the
 * detection the index uses), and the Spanish and Catalan ones translated by the language bridge
 * (Apertium, on this machine), names kept as written. English paragraphs, and those too short or
 * too name-like to have a language, are not translated.
 *
 * As for a transcript's English turns (caption-translation.ts), the result is kept by the text's
 * content hash and the bridge's version, so a second reader does not run Apertium again; a
 * bridge that sends text off the host (`external`) gets nothing of a section whose egress policy
 * keeps its text local. Only the first `maxCharacters` of paragraphs are translated at once.
 */
export interface TextTranslatorOptions {
  bridge?: TranslationBridge & EgressReceiver;
  detect?: (text: string, options?: DetectLanguageOptions) => Promise<DetectedLanguage>;
  detectContext?: (text: string) => Promise<LanguageContext>;
  /** Texts kept translated (least recently used dropped first; default 100). */
  cacheSize?: number;
  /** Characters of paragraphs translated per text (default 60,000, about 25 printed pages). */
  maxCharacters?: number;
}

export interface TextTranslationInput {
  text: string;
  /** Hash of the text: changes exactly when it does. */
  contentHash: string;
  egressPolicy: string;
}

export interface EnglishParagraph {
  /** The paragraph's detected language ("und" when it has none to tell). */
  language: string;
  /** Its English, or null when it is not translated (English already, no language, unknown to the bridge). */
  english: string | null;
}

export interface EnglishParagraphs {
  /** One entry per paragraph, in order, for the first paragraphs up to the size cap. */
  paragraphs: EnglishParagraph[];
  /** Paragraphs in the text; more than `paragraphs.length` when the cap cut the translation short. */
  total: number;
  /** The languages translated from, most paragraphs first ("ca", "es"). */
  from: ("es" | "ca")[];
}

export interface TextTranslator {
  /** Whether an English can be made (a Spanish or Catalan paragraph, the pair installed, egress permitting), without making it. */
  offersEnglish(input: TextTranslationInput): Promise<boolean>;
  /** The English beside each paragraph, or null when none can be made for this text. */
  englishParagraphs(input: TextTranslationInput): Promise<EnglishParagraphs | null>;
}

const bridged = (language: string): language is "es" | "ca" => language === "es" || language === "ca";

/** The paragraphs up to the cap: whole paragraphs, at least one. */
function capped(paragraphs: readonly string[], maxCharacters: number): string[] {
  const kept: string[] = [];
  let used = 0;
  for (const paragraph of paragraphs) {
    if (kept.length > 0 && used + paragraph.length > maxCharacters) break;
    kept.push(paragraph.length > maxCharacters ? paragraph.slice(0, maxCharacters) : paragraph);
    used += paragraph.length;
  }
  return kept;
}

export function createTextTranslator(options: TextTranslatorOptions = {}): TextTranslator {
  const bridge: TranslationBridge & EgressReceiver = options.bridge ?? processTranslationBridge;
  const detect = options.detect ?? detectLanguage;
  const contextOf = options.detectContext ?? ((text: string) => detectContext(text));
  const maxCharacters = Math.max(1, options.maxCharacters ?? 60_000);
  const cacheSize = options.cacheSize ?? 100;
  const languages = createTranslationCache<string[]>(cacheSize);
  const translations = createTranslationCache<EnglishParagraphs | null>(cacheSize);

  /** Each paragraph's language as the index would detect it (Spanish or Catalan when detection was unsure between them). */
  function paragraphLanguages(input: TextTranslationInput): Promise<string[]> {
    return languages.remember(input.contentHash, async () => {
      const paragraphs = capped(longTextParagraphs(input.text), maxCharacters);
      const context = await contextOf(input.text);
      return Promise.all(
        paragraphs.map(async (paragraph) => {
          const detected = await detect(paragraph, { context });
          const unsure = (detected.unsure ?? []).filter(bridged);
          return unsure.length > 0 && !bridged(detected.language) ? (unsure[0] as string) : detected.language;
        }),
      );
    });
  }

  async function mayTranslate(input: TextTranslationInput): Promise<boolean> {
    if (!mayLeaveHost(bridge, egressAllowed([input.egressPolicy]))) return false;
    const status = await bridge.status();
    if (!status.pairs.es && !status.pairs.ca) return false;
    const found = await paragraphLanguages(input);
    return found.some((language) => bridged(language) && status.pairs[language]);
  }

  async function translate(input: TextTranslationInput): Promise<EnglishParagraphs | null> {
    const all = longTextParagraphs(input.text);
    const paragraphs = capped(all, maxCharacters);
    const bridgeOptions: PrepareOptions = { bridge, detect, detectContext: contextOf };
    const prepared = await translateForReading(
      paragraphs.map((text) => ({ text, context: input.text })),
      bridgeOptions,
    );
    const result = prepared.map((item): EnglishParagraph => ({
      language: item.language,
      english: bridged(item.language) && item.translatedText ? item.translatedText.replace(/[ \t]+/g, " ").trim() : null,
    }));
    if (!result.some((paragraph) => paragraph.english !== null)) return null;
    const counts = new Map<"es" | "ca", number>();
    for (const paragraph of result)
      if (paragraph.english !== null && bridged(paragraph.language)) counts.set(paragraph.language, (counts.get(paragraph.language) ?? 0) + 1);
    const from = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([language]) => language);
    return { paragraphs: result, total: all.length, from };
  }

  return {
    offersEnglish: mayTranslate,
    async englishParagraphs(input) {
      if (!(await mayTranslate(input))) return null;
      return translations.remember(translationKey("paragraphs", input.contentHash), () => translate(input));
    },
  };
}

/** The process's translator: the process's bridge, one cache for every request. */
export const processTextTranslator = createTextTranslator();
