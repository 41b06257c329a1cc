import "server-only";
import { type EgressReceiver, egressAllowed, mayLeaveHost } from "../../acl";
import type { TranscriptTurn } from "../../archive/field-definitions";
import { type DetectedLanguage, detectLanguage } from "./detect-language";
import { namesInContext, protectNames, restoreNames } from "./protect-names";
import { type BridgeLanguage, processTranslationBridge, type TranslationBridge } from "./translate";
import { createTranslationCache, translationKey } from "./translation-cache";

/**
 * The English caption track of a Spanish or Catalan transcript: every turn through the language
 * bridge (Apertium, on this machine), names kept as written, speakers untouched, the turns'
 * timing kept so the English cues fall where the original ones do. Computed once per transcript:
 * the result is cached by the transcript's content hash (and the bridge's version), so a second
 * request — from the player, a download, another reader — does not run Apertium again; a changed
 * transcript has another hash. A bridge that sends text off the host (`external`) gets nothing
 * from a section whose egress policy keeps its text local: that transcript has no English track.
 */
export interface CaptionTranslatorOptions {
  bridge?: TranslationBridge & EgressReceiver;
  detect?: (text: string) => Promise<DetectedLanguage>;
  /** Transcripts kept translated (least recently used dropped first; default 100). */
  cacheSize?: number;
}

export interface CaptionTranslationInput {
  turns: readonly TranscriptTurn[];
  contentHash: string;
  declaredLanguage: string | null;
  egressPolicy: string;
}

export interface CaptionTranslator {
  /** The transcript's language: the declared one, else detected from its text ("und" when unsure). */
  languageOf(input: CaptionTranslationInput): Promise<string>;
  /** Whether an English track can be made, without making it (the record page asks). */
  offersEnglish(input: CaptionTranslationInput): Promise<boolean>;
  /** The English turns, or null when there is no English track for this transcript. */
  englishTurns(input: CaptionTranslationInput): Promise<TranscriptTurn[] | null>;
}

/** Characters of the transcript detection reads when no language is declared. */
const detectionSample = 2_000;

function isBridged(language: string): language is BridgeLanguage {
  return language === "es" || language === "ca";
}

export function createCaptionTranslator(options: CaptionTranslatorOptions = {}): CaptionTranslator {
  const bridge: TranslationBridge & EgressReceiver = options.bridge ?? processTranslationBridge;
  const detect = options.detect ?? ((text: string) => detectLanguage(text));
  const cacheSize = options.cacheSize ?? 100;
  const translations = createTranslationCache<TranscriptTurn[] | null>(cacheSize);
  const detected = createTranslationCache<string>(cacheSize);

  async function languageOf(input: CaptionTranslationInput): Promise<string> {
    if (input.declaredLanguage) return input.declaredLanguage;
    return detected.remember(input.contentHash, async () => {
      const sample = input.turns
        .map((turn) => turn.text)
        .join("\n")
        .slice(0, detectionSample);
      const result = await detect(sample);
      return result.language;
    });
  }

  async function pairFor(input: CaptionTranslationInput): Promise<BridgeLanguage | null> {
    if (!mayLeaveHost(bridge, egressAllowed([input.egressPolicy]))) return null;
    const language = await languageOf(input);
    if (!isBridged(language)) return null;
    const status = await bridge.status();
    return status.pairs[language] ? language : null;
  }

  async function translate(input: CaptionTranslationInput, from: BridgeLanguage): Promise<TranscriptTurn[] | null> {
    const known = namesInContext(input.turns.map((turn) => `${turn.speaker}\n${turn.text}`).join("\n"));
    const guarded = input.turns.map((turn) => protectNames(turn.text, known));
    const texts = guarded.map((item) => item.text);
    const english = bridge.translate ? await bridge.translate(texts, from, "en") : await bridge.translateToEnglish(texts, from);
    if (!english) return null;
    return input.turns.map((turn, index) => {
      const item = guarded[index];
      const text = english[index] ?? "";
      return { ...turn, text: (item ? restoreNames(text, item) : text).replace(/\s+/g, " ").trim() };
    });
  }

  return {
    languageOf,
    async offersEnglish(input) {
      return (await pairFor(input)) !== null;
    },
    async englishTurns(input) {
      const from = await pairFor(input);
      if (!from) return null;
      return translations.remember(translationKey(from, input.contentHash), () => translate(input, from));
    },
  };
}

/** The process's translator: the process's bridge, one cache for every request. */
export const processCaptionTranslator = createCaptionTranslator();
