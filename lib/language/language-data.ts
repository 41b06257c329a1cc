import { ca } from "./ca";
import { en } from "./en";
import { es } from "./es";
import { foldAccents } from "./fold-accents";
import type { LanguageData, QuestionKind } from "./language-data.types";

/**
 * The archive's languages as data (en.ts, es.ts, ca.ts): question words, months, weekdays,
 * number words, stop words, name particles, words that locate a place or join a person's names,
 * and function words, and the lookups the answerer, the search's highlighter, the name finder and
 * the vocabulary finder build from them. Every lookup compares folded words: lower
 * case, without accents ("Cuándo" is "cuando", "març" is "marc"). Pure.
 */
export type { LanguageData, QuestionKind } from "./language-data.types";

export const languageData = { en, es, ca } as const satisfies Record<string, LanguageData>;
export type DataLanguage = keyof typeof languageData;
export const dataLanguages = Object.keys(languageData) as DataLanguage[];

/** A word or text as the lookups compare it: lower case, no accents, ’ as '. */
export function foldText(text: string): string {
  return foldAccents(text).toLowerCase().replace(/[’‘]/g, "'");
}

type WordList =
  | "interrogatives"
  | "months"
  | "weekdays"
  | "stopWords"
  | "nameParticles"
  | "markerWords"
  | "roleQualifiers"
  | "notNames"
  | "pronounDeterminers"
  | "functionWords"
  | "durationWords";

/** Particles of names from other languages the records cite: "Vasco da Gama", "Ludwig van Beethoven". */
export const foreignNameParticles: readonly string[] = ["da", "das", "do", "dos", "di", "du", "van", "von", "der", "den", "le"];

const folded = (words: readonly string[]) => new Set(words.map(foldText));

/** One of the word lists, folded, of the given languages (default all three). */
export function wordSet(list: WordList, languages: readonly DataLanguage[] = dataLanguages): ReadonlySet<string> {
  return new Set(languages.flatMap((language) => [...folded(languageData[language][list])]));
}

/** Number words of all three languages (folded) and their values. */
export const numberWords: ReadonlyMap<string, number> = new Map(
  dataLanguages.flatMap((language) => Object.entries(languageData[language].numbers).map(([word, value]) => [foldText(word), value] as const)),
);

/** The years a text gives (1500–2099, as four digits), as numbers, in order. */
export function yearsIn(text: string): number[] {
  return [...text.matchAll(/\b(1[5-9]\d\d|20\d\d)\b/g)].map((match) => Number(match[1]));
}

const yearsWords = new Set(dataLanguages.flatMap((language) => languageData[language].yearsWords.map(foldText)));
const tens = new Map(dataLanguages.flatMap((language) => Object.entries(languageData[language].tens).map(([word, value]) => [foldText(word), value] as const)));

/**
 * The decades a question's content words name (folded, in the question's order), each word of the
 * phrase with its decade's first year: "1950s" and "50s", "the nineties", "los años noventa", "els
 * anys noranta" and "the years ninety" as the bridge writes it. A decade named without its century
 * is of the twentieth. A year of the decade in a passage holds these words: "the 1990s" is answered
 * by "in 1993".
 */
export function decadeTerms(terms: readonly string[]): Map<string, number> {
  const found = new Map<string, number>();
  terms.forEach((term, index) => {
    const withCentury = /^(1[5-9]\d|20\d)0s$/.exec(term);
    const withoutCentury = /^(\d)0s$/.exec(term);
    if (withCentury || withoutCentury) {
      found.set(term, withCentury ? Number(withCentury[1]) * 10 : 1900 + Number(withoutCentury![1]) * 10);
      return;
    }
    const value = tens.get(term);
    if (value === undefined) return;
    const previous = terms[index - 1];
    if (previous !== undefined && yearsWords.has(previous)) found.set(previous, 1900 + value).set(term, 1900 + value);
    else if (term.endsWith("ies")) found.set(term, 1900 + value);
  });
  return found;
}

/** Month names of all three languages (folded) and their numbers, 1 to 12. */
export const monthNumbers: ReadonlyMap<string, number> = new Map(
  dataLanguages.flatMap((language) => languageData[language].months.map((month, index) => [foldText(month), index + 1] as const)),
);

/** Words of the text, folded ("¿Cuándo?" → ["cuando"]). */
export function foldedWords(text: string): string[] {
  return foldText(text).match(/\p{L}+/gu) ?? [];
}

/**
 * The languages a question is probably in, by the stop words and question words it holds: those
 * that hold the most (several on a tie, all three when none holds any).
 */
export function questionLanguages(question: string): DataLanguage[] {
  const words = foldText(question).match(/\p{L}+/gu) ?? [];
  const counts = dataLanguages.map((language) => words.filter((word) => languageWords.get(language)!.has(word)).length);
  const best = Math.max(...counts);
  return best === 0 ? dataLanguages : dataLanguages.filter((_, index) => counts[index] === best);
}

const languageWords = new Map(
  dataLanguages.map((language) => [language, new Set([...wordSet("stopWords", [language]), ...wordSet("interrogatives", [language])])]),
);

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A phrase as a pattern: its words in order, "…" for any words between. */
const phrasePattern = (phrase: string) =>
  foldText(phrase)
    .split(/\s*…\s*/)
    .map((part) => escape(part).replace(/ /g, "\\s+"))
    .join("(?!\\p{L}).*(?<!\\p{L})");
/** Kinds asked anywhere in the question ("And how many…?"); the others open it. */
const askedAnywhere: ReadonlySet<QuestionKind> = new Set(["howMany", "howMuch", "happened"]);
/** Kinds whose word may follow a preposition ("¿A quién…?", "D'on…?"). */
const afterPreposition: ReadonlySet<QuestionKind> = new Set(["who", "where"]);

function kindPattern(language: DataLanguage, kind: QuestionKind, phrases: readonly string[]): RegExp | null {
  if (phrases.length === 0) return null;
  const data = languageData[language];
  const alternatives = phrases.map(phrasePattern).join("|");
  if (askedAnywhere.has(kind)) return new RegExp(`(?<!\\p{L})(?:${alternatives})(?!\\p{L})`, "u");
  const prepositions = afterPreposition.has(kind) ? data.questionPrepositions.map((word) => escape(foldText(word)) + (word.endsWith("'") ? "" : "\\s+")) : [];
  // A phrase that asks for a name ("com es deia…") starts like a how-question and is none.
  const notHowPhrases = [...data.notHow, ...data.questionPhrases.name];
  const notHow = kind === "how" && notHowPhrases.length > 0 ? `(?!(?:${notHowPhrases.map(phrasePattern).join("|")})(?!\\p{L}))` : "";
  const before = prepositions.length > 0 ? `(?:${prepositions.join("|")})?` : "";
  return new RegExp(`^[\\s¿¡]*${notHow}${before}(?:${alternatives})(?!\\p{L})`, "u");
}

/**
 * Per language and kind, two patterns: one for phrases whose first word no other language uses,
 * which count in any question, and one for the rest ("on" is Catalan for where and an English
 * preposition; "en" opens "en quin any" and "en qué año"), which count only in a question of their
 * own language (questionLanguages).
 */
const kinds: QuestionKind[] = ["when", "where", "who", "howMany", "howMuch", "why", "how", "happened", "name"];
const patterns = new Map(
  dataLanguages.map((language) => {
    const others = new Set(dataLanguages.filter((other) => other !== language).flatMap((other) => [...languageWords.get(other)!]));
    const ambiguous = (phrase: string) => others.has(foldText(phrase).split(" ")[0]!);
    const byKind = kinds.map((kind) => {
      const phrases = languageData[language].questionPhrases[kind];
      return [
        kind,
        {
          plain: kindPattern(
            language,
            kind,
            phrases.filter((phrase) => !ambiguous(phrase)),
          ),
          ownLanguage: kindPattern(language, kind, phrases.filter(ambiguous)),
        },
      ] as const;
    });
    return [language, new Map(byKind)];
  }),
);

/**
 * Whether the question asks for this kind of thing: "¿En qué año…?" and "En quin any…?" ask
 * when, "How many…?" a count, "D'on…?" where, but "On the night of the flood, who…?" no place.
 */
export function asks(question: string, kind: QuestionKind): boolean {
  const text = foldText(question);
  let own: DataLanguage[] | null = null;
  return dataLanguages.some((language) => {
    const { plain, ownLanguage } = patterns.get(language)!.get(kind)!;
    if (plain?.test(text)) return true;
    if (!ownLanguage?.test(text)) return false;
    own ??= questionLanguages(question);
    return own.includes(language);
  });
}

/**
 * The words of a why-phrase that opens the question with a verb of its own ("What made…", "¿Qué
 * llevaba a…?", "Què va fer que…"): they say that a cause is asked, not what it is about, so they are
 * no content words of the question.
 */
export function askingWords(question: string): string[] {
  const text = foldText(question).replace(/^[\s¿¡]+/, "");
  return askingPhrases.find(({ pattern }) => pattern.test(text))?.words ?? [];
}

/** The why-phrases of several words, longest first, each with its pattern at a question's start. */
const askingPhrases = dataLanguages
  .flatMap((language) => languageData[language].questionPhrases.why.filter((phrase) => phrase.includes(" ")))
  .sort((a, b) => b.length - a.length)
  .map((phrase) => ({ pattern: new RegExp(`^${phrasePattern(phrase)}(?!\\p{L})`, "u"), words: foldText(phrase).split(/\s+/) }));

const causePattern = new RegExp(
  `(?<!\\p{L})(?:${dataLanguages.flatMap((language) => languageData[language].causeCues.map(phrasePattern)).join("|")})(?!\\p{L})`,
  "u",
);

const openerPattern = new RegExp(
  `^[\\s"«“¡¿-]*(?:${dataLanguages.flatMap((language) => languageData[language].causeOpeners.map(phrasePattern)).join("|")})(?!\\p{L})`,
  "u",
);

/**
 * Whether a sentence gives a cause or a purpose, in any of the three languages ("because",
 * "perquè", "ya que"), or opens on what came before what it tells ("After the mine closed…").
 */
export function givesCause(sentence: string): boolean {
  const folded = foldText(sentence);
  return causePattern.test(folded) || openerPattern.test(folded);
}

/**
 * "Who was the mayor…?", "¿Quién era el médico…?", "Qui era l'alcalde…?": per language, a pattern
 * whose first group is the word after the who-word, the verb "to be" and an article, the second the
 * word after it (for "the first mayor"). Matched against foldText(question).
 */
export const askedRolePatterns: readonly RegExp[] = dataLanguages.map((language) => {
  const data = languageData[language];
  const alternatives = (words: readonly string[]) => words.map(phrasePattern).join("|");
  const articles = data.articles.map((word) => escape(foldText(word)) + (word.endsWith("'") ? "\\s*" : "\\s+")).join("|");
  return new RegExp(
    `^[\\s¿¡]*(?:${alternatives(data.questionPhrases.who)})\\s+(?:${alternatives(data.copulas)})\\s+(?:${articles})(\\p{L}+)(?:\\s+(\\p{L}+))?`,
    "u",
  );
});

/**
 * "Who painted the altarpiece?", "¿Quién inventó la litografía?", "Qui va trobar el plat?": per
 * language, a pattern whose group is the word after the who-word and maybe an auxiliary or the
 * verb "to be" — the action the question asks who did. Matched against foldText(question).
 */
export const askedActionPatterns: readonly RegExp[] = dataLanguages.map((language) => {
  const data = languageData[language];
  const auxiliaries = [...data.copulas, ...data.auxiliaries].map(phrasePattern).join("|");
  return new RegExp(`^[\\s¿¡]*(?:${data.questionPhrases.who.map(phrasePattern).join("|")})\\s+(?:(?:${auxiliaries})\\s+)?(\\p{L}+)`, "u");
});

/** One list of every language's words, as written, without repeats (English first). */
const writtenWords = (list: "definiteArticles" | "indefiniteArticles" | "placeNamePrepositions" | "placingPrepositions" | "ofWords" | "personNameJoiners") => [
  ...new Set(dataLanguages.flatMap((language) => languageData[language][list])),
];
/** Words as written, as alternatives of a pattern: the words of a phrase apart by any space. */
const writtenAlternatives = (words: readonly string[]) => words.map((word) => escape(word).replace(/ /g, "\\s+")).join("|");

/**
 * How the answerer finds a place or a person a sentence names, built from the three languages'
 * words (matched as written, against the sentence itself):
 * - `locatedName`: a place named after a word that locates, its name the first group ("dredged
 *   from Port de la Calma", "junto al río Segrell", "prop de Girona");
 * - `personName`: a person's name, two capitalised words maybe joined ("Frederic Remington",
 *   "Mercè Roig i Puig"), each a group;
 * - `locativePhrase`: a common noun placed by a locating word and an article ("in the cellar",
 *   "en los barracones", "al costat de la font"), any case.
 */
export const namePatterns = {
  locatedName: new RegExp(
    `(?<!\\p{L})(?:${writtenAlternatives(writtenWords("placeNamePrepositions"))})\\s+(?:(?:${writtenAlternatives(writtenWords("definiteArticles"))})\\s*)?(?:\\p{Ll}+\\s+(?:(?:${writtenAlternatives(writtenWords("ofWords"))})\\s+)?)?(\\p{Lu}\\p{L}+)`,
    "gu",
  ),
  personName: new RegExp(
    `(?<!\\p{L})(\\p{Lu}\\p{Ll}+)\\s+(?:(?:${writtenAlternatives(writtenWords("personNameJoiners"))})\\s+)?(\\p{Lu}\\p{Ll}+)(?!\\p{L})`,
    "gu",
  ),
  locativePhrase: new RegExp(
    `(?<!\\p{L})(?:${writtenAlternatives(writtenWords("placingPrepositions"))})\\s+(?:${writtenAlternatives([...writtenWords("definiteArticles"), ...writtenWords("indefiniteArticles")])})\\s*\\p{L}{3,}`,
    "iu",
  ),
} as const;

/** Capitalised words that name nothing, folded: each language's notNames, months and weekdays. */
export const notNameWords: ReadonlySet<string> = new Set([...wordSet("notNames"), ...wordSet("months"), ...wordSet("weekdays")]);
