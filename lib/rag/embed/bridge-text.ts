import "server-only";
import { wordSet } from "../../language/language-data";
import { detectContext, detectLanguage, undetermined, type DetectedLanguage, type DetectLanguageOptions, type LanguageContext } from "./detect-language";
import type { Embedder } from "./embedder";
import { capitaliseSentences, lowerSentenceStarters, namesInContext, protectNames, restoreNames, type ProtectedText } from "./protect-names";
import { rephraseForBridge, rephraseFromBridge } from "./rephrase";
import { processTranslationBridge, type BridgeLanguage, type TranslationBridge } from "./translate";

/**
 * Decides what text a model embeds for each passage. An English-only model (USE lite) gets
 * Spanish and Catalan passages translated to English when the bridge is installed; a
 * multilingual model, English text and any other language get the text as written. The
 * caller keeps the original for citation and keyword search either way.
 *
 * The indexer and the query path (embedQuery) both come through here, so a passage and a
 * query in the same words are bridged the same way:
 * - the language is the declared one when there is one, else detected (with the record's text
 *   as context when the caller gives it); numbers, identifiers and bare names are "und" and are
 *   embedded as written;
 * - names are kept out of the translation (protect-names.ts): "Roser" stays "Roser", not
 *   "Rosebush"; a name Apertium only knows as a name ("França") gets its own translation;
 * - a text detection could not place between Spanish and Catalan goes through both pairs and
 *   keeps the one that knew more of its words; when neither knew most of them it is embedded
 *   as written rather than mistranslated.
 */
export interface TextToPrepare {
  text: string;
  /** The record's declared language; detected from the text when absent. */
  language?: string;
  /**
   * The whole record's text, when the caller has it (the indexer does): its language mix guides
   * detection of a short passage, and the names it uses are kept even at a sentence's start.
   */
  context?: string;
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
  detect?: (text: string, options?: DetectLanguageOptions) => Promise<DetectedLanguage>;
  /** The language mix of a record's text (defaults to fastText's, see detectContext). */
  detectContext?: (text: string) => Promise<LanguageContext>;
}

const bridgedLanguages: readonly BridgeLanguage[] = ["es", "ca"];

/**
 * The version of this language handling (detection, names, the choice of pair). It is part of
 * each passage's content hash, so a reindex applies a new version to passages whose text did not
 * change; the embedding cache still spares the model every text that comes out the same.
 */
export const BRIDGE_VERSION = "9";

/**
 * A text both pairs found mostly unknown is not translated: more than this share of its words
 * unknown to the better pair.
 */
const maxUnknownShare = 0.5;

function isBridged(language: string | undefined): language is BridgeLanguage {
  return language === "es" || language === "ca";
}

interface Plan {
  language: string;
  /** The pairs to try, likelier first: one, or both when Spanish and Catalan were unsure. */
  pairs: BridgeLanguage[];
  protectedText?: ProtectedText;
}

export async function prepareForEmbedding(items: TextToPrepare[], embedder: Embedder, options: PrepareOptions = {}): Promise<PreparedText[]> {
  return bridgeTexts(items, embedder.language === "en", options);
}

/**
 * The same language handling for a reader rather than a model: each text's language, and the
 * English of those in Spanish or Catalan (null for English, undetermined or untranslatable text).
 */
export async function translateForReading(items: TextToPrepare[], options: PrepareOptions = {}): Promise<PreparedText[]> {
  return bridgeTexts(items, true, options);
}

/**
 * A line of a Spanish or Catalan record that is written in English (the demo's interviews are
 * catalogued in English: "Keywords: church bells, bell tower, …") is not translated from the
 * record's language: Apertium read "bells" as Catalan for "beautiful" and "salt fish" as
 * Spanish for "jump fish". A line counts as English when its value (after a "Label: ") has at
 * least this many words and detection is sure of English to at least `englishLineConfidence`.
 */
const englishLineWords = 3;
const englishLineConfidence = 0.9;
const lineLabel = /^[\p{Lu}][\p{L}\p{N} ›'’()./&,-]{0,40}:\s+/u;

async function isEnglishLine(line: string, detect: NonNullable<PrepareOptions["detect"]>): Promise<boolean> {
  const value = line.replace(lineLabel, "");
  if ((value.match(/\p{L}+/gu)?.length ?? 0) < englishLineWords) return false;
  const detected = await detect(value, { context: null });
  return detected.language === "en" && !(detected.unsure ?? []).length && detected.confidence >= englishLineConfidence;
}

/**
 * Texts with a declared Spanish or Catalan language go to the bridge without their English
 * lines: each run of other lines is bridged as a piece, and the English lines are put back as
 * written between the pieces' translations.
 */
async function bridgeTexts(items: TextToPrepare[], toEnglish: boolean, options: PrepareOptions): Promise<PreparedText[]> {
  if (!toEnglish) return bridgeWhole(items, toEnglish, options);
  const detect = options.detect ?? detectLanguage;
  const layouts = await Promise.all(
    items.map(async (item) => {
      if (!isBridged(item.language)) return null;
      const lines = item.text.split("\n");
      const english = await Promise.all(lines.map((line) => isEnglishLine(line, detect)));
      if (!english.some(Boolean)) return null;
      // Runs of lines: English ones kept, the others bridged together.
      const runs: { english: boolean; lines: string[] }[] = [];
      lines.forEach((line, index) => {
        const last = runs[runs.length - 1];
        if (last && last.english === english[index]) last.lines.push(line);
        else runs.push({ english: english[index] ?? false, lines: [line] });
      });
      return runs;
    }),
  );
  const pieces: TextToPrepare[] = [];
  items.forEach((item, index) => {
    const runs = layouts[index];
    if (!runs) pieces.push(item);
    else for (const run of runs) if (!run.english) pieces.push({ ...item, text: run.lines.join("\n") });
  });
  const bridged = await bridgeWhole(pieces, toEnglish, options);
  let next = 0;
  return items.map((item, index) => {
    const runs = layouts[index];
    if (!runs) return bridged[next++]!;
    let translated = false;
    const text = runs
      .map((run) => {
        if (run.english) return run.lines.join("\n");
        const piece = bridged[next++]!;
        if (piece.translatedText !== null) translated = true;
        return piece.embeddedText;
      })
      .join("\n");
    // Wholly English: nothing to translate, and the text says which language it is.
    if (runs.every((run) => run.english)) return { language: "en", embeddedText: item.text, translatedText: null };
    return { language: item.language ?? undetermined, embeddedText: translated ? text : item.text, translatedText: translated ? text : null };
  });
}

async function bridgeWhole(items: TextToPrepare[], toEnglish: boolean, options: PrepareOptions): Promise<PreparedText[]> {
  const detect = options.detect ?? detectLanguage;
  const contextOf = memoise(options.detectContext ?? ((text: string) => detectContext(text)));
  const plans: Plan[] = await Promise.all(
    items.map(async (item): Promise<Plan> => {
      if (item.language) return { language: item.language, pairs: isBridged(item.language) ? [item.language] : [] };
      const context = item.context ? await contextOf(item.context) : null;
      const detected = await detect(item.text, context ? { context } : undefined);
      const unsure = (detected.unsure ?? []).filter(isBridged);
      const pairs = unsure.length > 1 ? unsure : isBridged(detected.language) ? [detected.language] : [];
      return { language: detected.language || undetermined, pairs };
    }),
  );
  const prepared: PreparedText[] = items.map((item, index) => ({
    language: plans[index]?.language ?? undetermined,
    embeddedText: item.text,
    translatedText: null,
  }));
  if (!toEnglish || plans.every((plan) => plan.pairs.length === 0)) return prepared;

  const bridge = options.bridge ?? processTranslationBridge;
  const status = await bridge.status();
  const namesOf = memoise(async (context: string) => namesInContext(context));
  for (const [index, plan] of plans.entries()) {
    plan.pairs = plan.pairs.filter((language) => status.pairs[language]);
    const item = items[index];
    if (!item || plan.pairs.length === 0) continue;
    const known = new Set([...(item.context ? await namesOf(item.context) : []), ...namesInContext(item.text)]);
    plan.protectedText = protectNames(item.text, known);
  }

  // One Apertium run per pair: every text that may be in that language, and the names to probe.
  // The two runs go side by side (a query unsure between Spanish and Catalan waits for one).
  const results = new Map<number, Partial<Record<BridgeLanguage, Translation>>>();
  const runs = await Promise.all(
    bridgedLanguages.map(async (language) => {
      const indexes = plans.flatMap((plan, index) => (plan.pairs.includes(language) ? [index] : []));
      if (indexes.length === 0) return { language, indexes, translations: [] };
      const translations = await translateProtected(
        bridge,
        indexes.map((index) => plans[index]?.protectedText ?? { text: items[index]?.text ?? "", names: [], placeholders: [] }),
        language,
      );
      return { language, indexes, translations };
    }),
  );
  for (const { language, indexes, translations } of runs) {
    indexes.forEach((itemIndex, position) => {
      const translation = translations[position];
      if (translation) results.set(itemIndex, { ...results.get(itemIndex), [language]: translation });
    });
  }

  plans.forEach((plan, index) => {
    const byPair = results.get(index);
    const item = prepared[index];
    if (!byPair || !item) return;
    const choice = choosePair(plan.pairs, byPair);
    if (!choice) return;
    item.language = choice.language;
    // A blank translation of real text would embed nothing: keep the original instead.
    if (choice.translation.text.trim()) {
      item.translatedText = choice.translation.text;
      item.embeddedText = choice.translation.text;
    }
  });
  return prepared;
}

interface Translation {
  text: string;
  /** Words the pair did not know (or could not translate). */
  unknown: number;
  words: number;
}

/**
 * The pair to keep: the only one, or of two the one with fewer unknown words (the likelier on a
 * tie). When both pairs were tried and even the better one knew fewer than half the words, the
 * text is most likely in neither language: no translation, and the likelier language stays.
 */
function choosePair(
  pairs: readonly BridgeLanguage[],
  byPair: Partial<Record<BridgeLanguage, Translation>>,
): { language: BridgeLanguage; translation: Translation } | null {
  const tried = pairs.flatMap((language) => (byPair[language] ? [{ language, translation: byPair[language] }] : []));
  if (tried.length === 0) return null;
  if (tried.length === 1) return tried[0] ?? null;
  const best = tried.reduce((a, b) => (b.translation.unknown < a.translation.unknown ? b : a));
  if (best.translation.words > 0 && best.translation.unknown / best.translation.words > maxUnknownShare) return null;
  return best;
}

/** Apertium's marks: `*` unknown, `@` untranslatable, `#` not inflected; only `*` and `@` count as unknown. */
const markPattern = /(^|[^\p{L}\p{N}])([*#@]+)(?=[\p{L}\p{N}])/gu;

function stripMarks(text: string): string {
  return text.replace(markPattern, "$1");
}

function countUnknown(marked: string, placeholders: readonly string[]): number {
  let count = 0;
  for (const match of marked.matchAll(/(?:^|[^\p{L}\p{N}])[*@]+([\p{L}\p{N}][\p{L}\p{N}'’·-]*)/gu)) {
    const word = match[1] ?? "";
    if (!placeholders.some((placeholder) => word.toUpperCase().startsWith(placeholder))) count++;
  }
  return count;
}

function countWords(text: string, placeholders: readonly string[]): number {
  return (text.match(/\p{L}[\p{L}'’·-]*/gu) ?? []).filter((word) => !placeholders.some((placeholder) => word.toUpperCase().startsWith(placeholder))).length;
}

/** Particles do not decide whether Apertium knows a name's words ("de", "la" always are). */
const nameParticles = wordSet("nameParticles", ["es", "ca"]);

/**
 * Translates protected texts with one Apertium run, probing each distinct name twice in the
 * same run: lower-cased, to learn whether Apertium knows its words as ordinary words ("roser" →
 * "rosebush"), and as written, for the names it knows as names ("França" → "France"). A name
 * whose words are ordinary words goes back as written; otherwise its own translation does.
 * Without a marked mode (a test double), names go back as written.
 */
async function translateProtected(bridge: TranslationBridge, texts: ProtectedText[], language: BridgeLanguage): Promise<Translation[]> {
  if (!bridge.translateMarked) {
    const plain = await bridge.translateToEnglish(
      texts.map((item) => item.text),
      language,
    );
    return texts.map((item, index) => ({ text: restoreNames(plain[index] ?? "", item), unknown: 0, words: countWords(item.text, item.placeholders) }));
  }
  const names = [...new Set(texts.flatMap((item) => item.names.filter((name) => !/^[*#@]/.test(name))))];
  const probes = names.flatMap((name) => [name.toLowerCase(), name]);
  // Apertium misreads some capitalised function words that open a sentence (see lowerSentenceStarters).
  // "dejar de" is said as "parar de", which Apertium reads as "stop" (rephrase.ts).
  const lowered = texts.map((item) => lowerSentenceStarters(item.text));
  const sent = lowered.map((text) => rephraseForBridge(text, language));
  const marked = await bridge.translateMarked([...sent, ...probes], language);
  const nameTranslation = new Map<string, string>();
  names.forEach((name, position) => {
    const lower = marked[texts.length + 2 * position] ?? "";
    const asWritten = marked[texts.length + 2 * position + 1] ?? "";
    const words = lower.match(/[*#@]*[\p{L}][\p{L}'’·-]*/gu) ?? [];
    const knowsOrdinaryWords = words.some((word) => !/^[*@]/.test(word) && !nameParticles.has(word.replace(/^#/, "").toLowerCase()));
    nameTranslation.set(name, knowsOrdinaryWords || !asWritten.trim() ? name : stripMarks(asWritten).trim());
  });
  return texts.map((item, index) => {
    const rephrased = sent[index] !== lowered[index];
    const output = keepCaseAfterPlaceholders(rephrased ? rephraseFromBridge(marked[index] ?? "") : (marked[index] ?? ""), item);
    const restored = restoreNames(stripMarks(output), item, (nameIndex) => {
      const name = item.names[nameIndex] ?? "";
      return nameTranslation.get(name) ?? name;
    });
    return {
      text: capitaliseSentences(restored, item.text),
      unknown: countUnknown(output, item.placeholders),
      words: countWords(item.text, item.placeholders),
    };
  });
}

/**
 * Apertium capitalises the first word it knows after an unknown word that opens a sentence
 * ("MNEMONAMEAQ murió" → "MNEMONAMEAQ Died"); the word keeps the source's lower case.
 */
function keepCaseAfterPlaceholders(output: string, item: ProtectedText): string {
  let fixed = output;
  for (const placeholder of item.placeholders) {
    if (!new RegExp(`${placeholder}\\s+\\p{Ll}`, "u").test(item.text)) continue;
    fixed = fixed.replace(
      new RegExp(`([*#@]?${placeholder}\\s+)(\\p{Lu})(?=\\p{Ll})`, "gu"),
      (_, before: string, letter: string) => `${before}${letter.toLowerCase()}`,
    );
  }
  return fixed;
}

/** One evaluation per distinct argument (contexts repeat for every passage of a record). */
function memoise<T>(compute: (key: string) => Promise<T>): (key: string) => Promise<T> {
  const cache = new Map<string, Promise<T>>();
  return (key) => {
    let value = cache.get(key);
    if (!value) {
      value = compute(key);
      cache.set(key, value);
    }
    return value;
  };
}
