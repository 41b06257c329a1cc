import "server-only";
import { prepareForEmbedding, type PrepareOptions } from "../embed/bridge-text";
import { type Embedder, dot } from "../embed/embedder";
import { type TranslationBridge, isArchiveLanguage, processTranslationBridge } from "../embed/translate";
import { translateQuestion } from "../embed/question-translation";
import { translateForReader } from "./reader-translation";
import { foldWord, heldTerms, wordMatches } from "../search/highlight";
import { whyNotSaid } from "./answer-preface";
import { type SourceSentence, asksForExplanation, isQuestion, mayAnswer, questionNames, questionTerms, sourceSentences } from "./answer-sentences";
import {
  askedActionPatterns,
  askedRolePatterns,
  asks,
  decadeTerms,
  foldText,
  foldedWords,
  givesCause,
  namePatterns,
  notNameWords,
  numberWords,
  wordSet,
  yearsIn,
} from "../../language/language-data";
import { literalBrackets } from "../../llm/citation-markers";
import { answerSettings } from "../config/settings";
import type { GenerationRequest, Generator } from "../../llm/generator";
import { translationNote } from "../../llm/translation-note";

/**
 * The offline answerer, and the default: it reads the sources sentence by sentence, scores
 * each against the question with the index's embedder (Spanish and Catalan sentences in their
 * English translation, as passages are indexed) plus the question's content words it contains
 * (in the question or its English translation), keeps the best few that are not near-repeats
 * of one another, and answers with exactly those sentences, each followed by its source number.
 * An interviewer's turn, a question and — for how and why — a bare catalogue field never answer;
 * a narrator's sentence that answers an interviewer's question like the asker's gains by it. A
 * sentence in another language than the question's is followed by its machine translation,
 * marked as such. It never writes a word of its own, so every statement is a verifiable quotation.
 * A quoted sentence's own bracketed numbers ("as table [3] shows") are written literal, "［3］",
 * so that only the number it appends is a citation.
 */
export interface ExtractiveOptions {
  embedder: Embedder;
  prepare?: PrepareOptions;
  /** At most this many sentences in an answer (default answerSettings.maxSentences). */
  maxSentences?: number;
  /** A sentence must score at least this (default answerSettings.minSentenceScore). */
  minScore?: number;
  /** And be within this of the best sentence (default answerSettings.sentenceWindow). */
  window?: number;
  /** Refuse a when/how-many/where/who question no chosen sentence answers in kind (default true). */
  requireAnswerType?: boolean;
}

export interface ScoredSentence extends SourceSentence {
  score: number;
  vector: Float32Array;
  /** The sentence's language (its passage's, or detected). */
  language: string;
  /** Whether it gives the kind of thing the question asks for (a date for when…; see answerTypeBonus). */
  fitsType: boolean;
  /** The share of the question's words it holds (in either language, or by the question it answers), weighted by their rarity among the sentences. */
  lexical: number;
  /** The question's words it holds, as in `lexical`, folded. */
  held: string[];
  /** Heard in a recording or read on a document's page, not written about it (SourcePassage.testimony). */
  testimony: boolean;
  /** For a why-question: it gives a cause ("because", "perquè"…) or replies to the interviewer's why. */
  explains: boolean;
  /** It gives a year or a month: with no cause, a when-answer, which answers no why. */
  dated: boolean;
  /**
   * For a why- or how-question: it says again what the question says and gives no cause — as
   * close to the question as a paraphrase, or few of its words (in either reading) not the
   * question's ("Why did he not look back?" → "He did not want to look back"). It may be quoted
   * around the sentence that explains, never lead.
   */
  restates: boolean;
  /**
   * It is about whom or what the question names: it, its passage or its record's title holds one of
   * the question's names, or its passage's narrator is one. A narrator's reply to an interviewer the
   * question names is not about the interviewer. Always true for a question without names.
   */
  aboutSubject: boolean;
  /** It holds something the question asks besides its names (or replies to a question that does). */
  holdsPredicate: boolean;
  /**
   * It is of the time the question names: a question after "the drought of 2005" or "the 1950s" is
   * not answered by a sentence that gives only other years ("In October 2022 the reservoir fell…").
   * Always true for a question without a year, or a sentence without one.
   */
  atAskedTime: boolean;
}

const months = wordSet("months");
const hasDate = (sentence: string) => yearsIn(sentence).length > 0 || foldedWords(sentence).some((word) => months.has(word));
/** A digit or a number word (en, es, ca: lib/language). */
const hasQuantity = (sentence: string) => /\d/.test(sentence) || foldedWords(sentence).some((word) => numberWords.has(word));
const quantityWord = (word: string) => /^\d[\d.,]*$/.test(word) || numberWords.has(foldText(word));

/** A year ("the 1989 finds"), not a count: counts of a thousand or more are written 1,284 or 1.284. */
const yearLike = /^(1[0-9]|20)\d\d$/;

const wordsOf = (sentence: string) => [...sentence.matchAll(/[\p{L}\p{N}][\p{L}\p{N}.,]*/gu)].map((match) => match[0].replace(/[.,]+$/, ""));

/** "one" after a determiner is a pronoun, not a count: "the one who visits", "which one", "each one" (lib/language). */
const pronounDeterminers = wordSet("pronounDeterminers");

/** Whether the word at `index` gives a quantity: a number word that is no year and no pronoun. */
function isQuantity(words: readonly string[], index: number): boolean {
  const word = words[index]!;
  if (!quantityWord(word) || yearLike.test(word)) return false;
  return !(numberWords.get(foldText(word)) === 1 && index > 0 && pronounDeterminers.has(foldText(words[index - 1]!)));
}

const durationWords = wordSet("durationWords");

/**
 * Whether the sentence gives an amount: a number that is no year ("4.41 grams", "eighteen per
 * cent") — nor a duration ("for twenty-six years"), unless the question asks how long.
 */
function hasMeasure(sentence: string, question: string): boolean {
  const words = wordsOf(sentence);
  // "Als anys cinquanta" names a decade, not a duration.
  const asked = foldedWords(question);
  const decade = decadeTerms(asked);
  const durationAsked = asked.some((word) => durationWords.has(word) && !decade.has(word));
  return words.some((_, index) => {
    if (!isQuantity(words, index)) return false;
    if (durationAsked) return true;
    // The word after the number ("twenty-six years": after its last part) says what it measures.
    let next = index + 1;
    while (next < words.length && quantityWord(words[next]!)) next++;
    return !durationWords.has(foldText(words[next] ?? ""));
  });
}

/**
 * Whether the sentence counts something the question names: a number followed, within a few
 * words, by one of the question's words ("1,284 finds were recorded", "37 Republican denarii").
 * A bare number (a date range, an inventory number) is no count of what was asked.
 */
function countsAskedThing(sentence: string, terms: readonly string[]): boolean {
  const words = wordsOf(sentence);
  return words.some(
    (_, index) =>
      isQuantity(words, index) &&
      words.slice(index + 1, index + 1 + answerSettings.countWordDistance.value).some((next) => terms.some((term) => wordMatches(foldWord(next), term))),
  );
}

/** A place after a word that locates, a person's name, a common noun placed: built from lib/language's words. */
const { locatedName, personName, locativePhrase } = namePatterns;

/**
 * The places a question names after a word that locates, every word of each name ("at Port de la
 * Calma", "de Sant Romà de Vall"). A locating word inside a name is part of it: "la Cofradía de
 * Pescadores de San Pedro" names a confraternity, not two places, and its words stay names the
 * answer must speak of.
 */
export function namedPlaces(question: string): Set<string> {
  const places = new Set<string>();
  for (const match of question.matchAll(locatedName)) {
    const previous = question.slice(0, match.index).match(/(\p{L}+)\P{L}*$/u)?.[1];
    if (previous !== undefined && /^\p{Lu}/u.test(previous) && !places.has(foldWord(previous))) continue;
    const rest = question.slice(match.index + match[0].length).match(/^(?:\s+(?:\p{Ll}{1,3}\s+)?\p{Lu}\p{L}*)*/u)?.[0] ?? "";
    for (const term of questionTerms(`${match[1]!}${rest}`)) places.add(term);
  }
  return places;
}

/** Whether a name the sentence gives is one the question does not already hold. */
function newName(names: string[], terms: readonly string[]): boolean {
  return names.some((name) => {
    const word = foldWord(name);
    return !notNameWords.has(word) && !terms.some((term) => wordMatches(word, term));
  });
}

/**
 * Whether a sentence places something, for a where-question, though the place has no proper
 * name: enough not to refuse ("hidden in the cellar"), not enough to be preferred.
 */
function locatesAsked(question: string, sentence: string): boolean {
  return asks(question, "where") && locativePhrase.test(sentence);
}

/** Words before the role that are not it: "the first mayor", "el primer alcalde". */
const roleQualifier = wordSet("roleQualifiers");

/**
 * "Who was the mayor…?", "¿Quién era el médico…?", "Qui era l'alcalde…?": the role a who-question
 * asks to be filled, folded; without one, the action it asks who did ("Who painted the
 * altarpiece?" → "painted", "Qui va trobar el plat?" → "trobar"). A person's name answers it only in
 * a sentence that speaks of that role or action (or after an interviewer's question that does):
 * "Josep Farré remembers the expropriation" names a person, not the mayor, and "the altarpiece is
 * now in the church of Vilanova" names no painter. The caller keeps the question's content words.
 */
export function askedRoles(...questions: (string | null | undefined)[]): string[] {
  const roles = questions.flatMap((question) => {
    const folded = question ? foldText(question) : "";
    const role = askedRolePatterns.flatMap((pattern) => {
      const match = pattern.exec(folded);
      if (!match) return [];
      const first = foldWord(match[1]!);
      return [roleQualifier.has(first) && match[2] ? foldWord(match[2]) : first];
    });
    if (role.length > 0 || !question) return role;
    return askedActionPatterns.flatMap((pattern) => {
      const match = pattern.exec(folded);
      return match ? [foldWord(match[1]!)] : [];
    });
  });
  return [...new Set(roles)];
}

/** Whether the question asks for a date, a count, a place, a person or a name (see answerTypeBonus). */
export function asksForType(question: string): boolean {
  return (["when", "howMany", "howMuch", "where", "who", "name"] as const).some((kind) => asks(question, kind));
}

/**
 * A small nudge towards sentences of the kind the question asks for: a date for "when"; for
 * "how many", a count of the thing asked about (or, without the question's words to go by, any
 * number); for "where", a place the question does not name, after a word that locates; for
 * "who", a person's name the question does not hold; for "what was … called", any name it does not hold.
 */
export function answerTypeBonus(question: string, sentence: string, terms: readonly string[] = []): number {
  const bonus = answerSettings.answerTypeBonus.value;
  if (asks(question, "when")) return hasDate(sentence) ? bonus : 0;
  if (asks(question, "howMany")) return (terms.length > 0 ? countsAskedThing(sentence, terms) : hasQuantity(sentence)) ? bonus : 0;
  if (asks(question, "howMuch")) return hasMeasure(sentence, question) ? bonus : 0;
  if (asks(question, "where"))
    return newName(
      [...sentence.matchAll(locatedName)].map((match) => match[1]!),
      terms,
    )
      ? bonus
      : 0;
  // "Com es deia la mula…?": a name the question does not hold, capitalised inside the sentence ("la Mora").
  if (asks(question, "name"))
    return newName(
      [...sentence.matchAll(/(?<=\s[«"“(]?)(\p{Lu}\p{Ll}+)/gu)].map((match) => match[1]!),
      terms,
    )
      ? bonus
      : 0;
  if (asks(question, "who"))
    return newName(
      [...sentence.matchAll(personName)].flatMap((match) => [match[1]!, match[2]!]),
      terms,
    )
      ? bonus
      : 0;
  return 0;
}

/**
 * Whether a catalogue entry has a field the question asks for by its name ("Which mint…?" →
 * "Mint: Antioch"; "…made, and when?" → "Year made: 1895") with a value the question lacks.
 */
export function answersByFieldName(entry: string, terms: readonly string[]): boolean {
  return entry.split(/;\s+/).some((part) => {
    const field = /^([^:]{1,40}):\s*(.+)$/u.exec(part);
    if (!field) return false;
    const labelWords = [...field[1]!.matchAll(/\p{L}+/gu)].map((match) => foldWord(match[0]));
    const valueWords = [...field[2]!.matchAll(/[\p{L}\p{N}]+/gu)].map((match) => foldWord(match[0]));
    // The label's own word, not a longer one that starts like it ("finds" is no "Findspot").
    const named = labelWords.some((word) => terms.some((term) => word.replace(/s$/, "") === term.replace(/s$/, "")));
    return named && valueWords.some((word) => !terms.some((term) => wordMatches(word, term)));
  });
}

/**
 * A narrator's answer is as close to the asker's question as the interviewer's question it
 * answers, less a margin: "The dolphins, especially." says nothing about nets until it is read
 * after "What broke the nets?". A catalogue field (a title, a keyword list) answers only when no
 * running text comes close, unless the question names it ("Which mint…?" → "Mint: Antioch").
 * The weights are answerSettings (lib/rag/config/settings.ts).
 */
const {
  inheritedAnswerMargin: { value: answerMargin },
  sameQuestionSimilarity: { value: sameQuestion },
  fieldPenalty: { value: fieldPenalty },
  fieldNameBonus: { value: fieldNameBonus },
  titleBonus: { value: titleBonus },
  lexicalWeight: { value: lexicalWeight },
  retrievalPrior: { value: retrievalPrior },
  nearDuplicateSentence: { value: nearDuplicate },
  disagreementWindow: { value: disagreementWindow },
  kindWindow: { value: kindWindow },
  testimonyBonus: { value: testimonyBonus },
  causeBonus: { value: causeBonus },
  dateForWhyPenalty: { value: dateForWhyPenalty },
  restatedNewWords: { value: restatedNewWords },
  restatedSimilarity: { value: restatedSimilarity },
  sameQuestionShare: { value: sameQuestionShare },
  sameQuestionWords: { value: sameQuestionWords },
} = answerSettings;

/**
 * The question's names as the people and things they name: runs of consecutive names ("Lucía
 * Ferrer Bosch", "Dolors Bosch" and "Arnau" in "Dolors Bosch i Arnau"), each a run of `names`.
 * A run of three names or more is spoken of only when all its words are ("Lucía Ferrer Navarro" is
 * no "Lucía Ferrer Bosch"); a shorter one when any is ("the Sant Romà solidus" in a text on the coin
 * that says "Romà" once).
 */
export function nameGroups(question: string, names: readonly string[]): string[][] {
  const groups: string[][] = [];
  let current: string[] = [];
  for (const match of [...question.matchAll(/[\p{L}\p{N}]+/gu)].slice(1)) {
    const word = foldWord(match[0]);
    if (/^\p{Lu}/u.test(match[0]) && names.includes(word)) current.push(word);
    else if (current.length > 0) {
      groups.push(current);
      current = [];
    }
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

export interface ScoredSentences {
  /** `why`: it asks why (as written or in English); `explaining`: why, how or what happened. */
  question: { language: string; english: string | null; why: boolean; explaining: boolean };
  /** Sentences that may answer, scored; the interviewer's and questions are left out. */
  sentences: ScoredSentence[];
}

export async function scoreSentences(options: ExtractiveOptions, request: Pick<GenerationRequest, "question" | "sources">): Promise<ScoredSentences> {
  const all = request.sources.flatMap((source) => sourceSentences(source).slice(0, answerSettings.sentencesPerSource.value));
  const [questionPrepared] = await prepareForEmbedding([{ text: request.question }], options.embedder, options.prepare);
  const questionEnglish = questionPrepared?.translatedText ?? null;
  const either = (read: (text: string) => boolean) => read(request.question) || (questionEnglish !== null && read(questionEnglish));
  const question = {
    language: questionPrepared?.language ?? "und",
    english: questionEnglish,
    why: either((text) => asks(text, "why")),
    explaining: either(asksForExplanation),
  };
  if (all.length === 0) return { question, sentences: [] };
  const languageOf = new Map(request.sources.map((source) => [source.number, source.language]));
  // Sentences the passage's translation did not align get their own pass through the bridge.
  const unaligned = all.flatMap((sentence, index) => (sentence.english === null ? [index] : []));
  const prepared = await prepareForEmbedding(
    unaligned.map((index) => ({ text: all[index]!.text, language: languageOf.get(all[index]!.source) })),
    options.embedder,
    options.prepare,
  );
  const english = all.map((sentence) => sentence.english);
  const languages = all.map((sentence) => languageOf.get(sentence.source) ?? "und");
  unaligned.forEach((index, position) => {
    english[index] = prepared[position]?.translatedText ?? null;
    languages[index] = prepared[position]?.language ?? languages[index]!;
  });
  const [questionVector] = await options.embedder.embed([question.english ?? request.question], "query");
  const vectors = await options.embedder.embed(
    all.map((sentence, index) => english[index] ?? sentence.text),
    "passage",
  );
  const similarity = vectors.map((vector) => dot(questionVector!, vector));

  const terms = [...new Set([...questionTerms(request.question), ...(question.english ? questionTerms(question.english) : [])])];
  const answering = all.flatMap((sentence, index) => (mayAnswer(sentence, request.question) ? [index] : []));
  const matchedIn = (index: number) => new Set([...heldTerms(terms, all[index]!.text), ...heldTerms(terms, english[index] ?? "")]);
  const matched = new Map(answering.map((index) => [index, matchedIn(index)]));
  // A question word found in most sentences (a place name everywhere) tells little: weight by rarity.
  const weight = new Map(
    terms.map((term) => {
      const frequency = [...matched.values()].filter((set) => set.has(term)).length;
      return [term, frequency === 0 ? 0 : Math.log((answering.length + 1) / (frequency + 0.5))];
    }),
  );
  const totalWeight = [...weight.values()].reduce((sum, value) => sum + value, 0);
  // How like the asker's question each interviewer's turn is: its narrator's answer inherits it.
  const askedLike = new Map<string, number>();
  const askedWords = new Map<string, Set<string>>();
  const askedWhy = new Set<string>();
  const lastInterviewerLine = new Map<number, number>();
  // A turn's question, not its preamble, is what the narrator answers: "Dolores, Ramón, you knew the
  // old auction. How was it?" is close to any question about Dolores by her name alone.
  const turnsAsking = new Set(
    all.filter((sentence) => sentence.role === "interviewer" && isQuestion(sentence.text)).map((sentence) => `${sentence.source}:${sentence.line}`),
  );
  // The interviewer may have asked the asker's question in the interview's language, where the
  // bridge's English of it is poor ("Com les van portar al poble nou?" → "How the took at the new
  // people?"): the asker's question is put into that language and the two compared word for word.
  const sameWords = await askedInTheirWords(
    all.flatMap((sentence, index) =>
      sentence.role === "interviewer" && isQuestion(sentence.text) ? [{ index, text: sentence.text, language: languages[index]! }] : [],
    ),
    request.question,
    question.language,
    options.prepare?.bridge ?? processTranslationBridge,
    question.english,
  );
  all.forEach((sentence, index) => {
    if (sentence.role !== "interviewer") return;
    const key = `${sentence.source}:${sentence.line}`;
    const closeness = Math.max(similarity[index]!, sameWords.get(index) ?? -1);
    if (!turnsAsking.has(key) || isQuestion(sentence.text)) askedLike.set(key, Math.max(askedLike.get(key) ?? -1, closeness));
    askedWords.set(key, new Set([...(askedWords.get(key) ?? []), ...matchedIn(index)]));
    if (asks(sentence.text, "why") || asks(english[index] ?? "", "why")) askedWhy.add(key);
    lastInterviewerLine.set(sentence.source, sentence.line);
  });
  // The first turn of a passage that continues another answers the question that one ended on.
  const continues = new Map(request.sources.flatMap((source) => (source.continues === undefined ? [] : [[source.number, source.continues] as const])));
  const askedKey = (sentence: SourceSentence): string | null => {
    if (sentence.answers !== null) return `${sentence.source}:${sentence.answers}`;
    const previous = continues.get(sentence.source);
    if (sentence.line !== 0 || previous === undefined || !lastInterviewerLine.has(previous)) return null;
    return `${previous}:${lastInterviewerLine.get(previous)}`;
  };
  // The answer's first sentence answers most directly; the rest of the turn less so.
  const turnPosition = new Map<number, number>();
  const firstOfTurn = new Set<number>();
  all.forEach((sentence, index) => {
    const key = sentence.source * 100_000 + sentence.line;
    if (!turnPosition.has(key)) {
      turnPosition.set(key, index);
      firstOfTurn.add(index);
    }
  });
  const sourceCount = request.sources.length;
  // A source the question names by its title ("the bronze follis of Justinian I") is the one it asks about.
  const named = new Set(request.sources.filter((source) => namesTitle(source.title, terms)).map((source) => source.number));
  // Only a content word of the question can be looked for in a sentence's matched words.
  const roles = askedRoles(request.question, question.english).filter((role) => terms.includes(role) && !questionNames(request.question).includes(role));
  const whyQuestion = question.why;
  const nameAsked = asks(request.question, "name");
  // The people and things it names: a place after a word that locates ("at Port de la Calma") is
  // where, not whom, the question asks about, and a passage need not repeat it.
  const places = namedPlaces(request.question);
  const names = questionNames(request.question).filter((name) => !places.has(name));
  const groups = nameGroups(request.question, names);
  const testimony = new Set(request.sources.filter((source) => source.testimony === true).map((source) => source.number));
  // What each passage speaks of: its record's title, the question's words in any of its sentences
  // (an interviewer's question too, but never the interviewer's own name: a speaker label is not in
  // a sentence's text) and its narrators' names.
  const passageHolds = new Map<number, Set<string>>(request.sources.map((source) => [source.number, new Set(questionTerms(source.title))]));
  if (names.length > 0)
    all.forEach((sentence, index) => {
      const held = passageHolds.get(sentence.source) ?? new Set<string>();
      for (const word of matchedIn(index)) held.add(word);
      if (sentence.role !== "interviewer") for (const word of questionTerms(sentence.speaker ?? "")) held.add(word);
      passageHolds.set(sentence.source, held);
    });
  // The years and decades the question names, a year of its own or in a decade ("the 1950s").
  const askedYears = new Set([request.question, question.english ?? ""].flatMap(yearsIn));
  const askedDecades = [...decadeTerms(questionTerms(request.question)).values(), ...decadeTerms(questionTerms(question.english ?? "")).values()];
  const askedTime =
    askedYears.size + askedDecades.length === 0
      ? null
      : (year: number) => askedYears.has(year) || askedDecades.some((first) => year >= first && year < first + 10);
  // A cause is often given in the sentence after the one that tells what happened ("Everyday objects
  // … were found in almost every house. These objects were … left where they lay, at the request of
  // the former residents"): for why and how, an explaining sentence says what the one before it in
  // the same turn or paragraph says the question asks about.
  const saysWhatIsAsked = (previous: number, sentence: SourceSentence) => {
    const before = all[previous];
    return (
      before !== undefined &&
      before.source === sentence.source &&
      before.line === sentence.line &&
      [...matchedIn(previous)].some((word) => !names.includes(word))
    );
  };
  const passageNames = (source: number, name: string) => [...(passageHolds.get(source) ?? [])].some((word) => wordMatches(word, name));
  return {
    question,
    sentences: answering.map((index) => {
      const sentence = all[index]!;
      const key = askedKey(sentence);
      // Read after the question it answers, when that question is nearer the asker's than the sentence alone.
      const asked = key === null ? -1 : (askedLike.get(key) ?? -1);
      const inherited = asked < sameQuestion ? -1 : asked - (firstOfTurn.has(index) ? answerMargin : 2 * answerMargin);
      const closeness = Math.max(similarity[index]!, inherited);
      const words = inherited > similarity[index]! ? new Set([...matched.get(index)!, ...(askedWords.get(key!) ?? [])]) : matched.get(index)!;
      const lexical = totalWeight > 0 ? [...words].reduce((sum, term) => sum + (weight.get(term) ?? 0), 0) / totalWeight : 0;
      // Earlier sources ranked higher in retrieval: a slight prior, never decisive.
      const prior = sourceCount > 1 ? retrievalPrior * (1 - (sentence.source - 1) / (sourceCount - 1)) : retrievalPrior;
      // A who-question after a role ("Who was the mayor?") is answered only where that role is spoken of.
      const fillsRole = roles.length === 0 || [...words].some((word) => roles.some((role) => wordMatches(word, role)));
      // A name is read as written: the bridge's English capitalises what it misreads ("of the. Dredger").
      const readings = nameAsked ? [sentence.text] : [english[index] ?? sentence.text, sentence.text];
      const typed = fillsRole ? Math.max(...readings.map((reading) => answerTypeBonus(request.question, reading, terms))) : 0;
      const byFieldName =
        sentence.role === "field" && (answersByFieldName(sentence.text, terms) || answersByFieldName(english[index] ?? "", terms)) ? fieldNameBonus : 0;
      const bonus = Math.max(typed, byFieldName);
      const explains = givesCause(sentence.text) || givesCause(english[index] ?? "") || (key !== null && askedWhy.has(key));
      const dated = hasDate(sentence.text) || hasDate(english[index] ?? "");
      const restates =
        question.explaining &&
        !explains &&
        (similarity[index]! >= restatedSimilarity ||
          Math.min(newWordShare(sentence.text, terms), english[index] ? newWordShare(english[index]!, terms) : 1) <= restatedNewWords);
      const holdsName = (name: string) => words.has(name) || passageNames(sentence.source, name);
      // A full name of three words or more (given name and both surnames) tells namesakes apart: all of it must be there.
      const aboutSubject = groups.length === 0 || groups.some((group) => (group.length >= 3 ? group.every(holdsName) : group.some(holdsName)));
      const years = [sentence.text, english[index] ?? ""].flatMap(yearsIn);
      const atAskedTime = years.length === 0 || !askedTime || years.some(askedTime);
      const holdsPredicate =
        names.length === 0 ||
        inherited > similarity[index]! ||
        sentence.role === "field" ||
        [...words].some((word) => !names.includes(word)) ||
        (question.explaining && explains && saysWhatIsAsked(index - 1, sentence));
      return {
        ...sentence,
        english: english[index] ?? null,
        language: languages[index]!,
        vector: vectors[index]!,
        lexical,
        held: [...words],
        testimony: testimony.has(sentence.source),
        explains,
        dated,
        restates,
        aboutSubject,
        holdsPredicate,
        atAskedTime,
        fitsType:
          typed > 0 || byFieldName > 0 || locatesAsked(request.question, english[index] ?? sentence.text) || locatesAsked(request.question, sentence.text),
        // A field the question asks for by name is no bare catalogue line: it is the answer.
        score:
          closeness +
          lexicalWeight * lexical +
          prior +
          bonus +
          (named.has(sentence.source) ? titleBonus : 0) +
          (testimony.has(sentence.source) ? testimonyBonus : 0) +
          (whyQuestion && explains ? causeBonus : 0) -
          (whyQuestion && !explains && dated ? dateForWhyPenalty : 0) -
          (sentence.role === "field" && byFieldName === 0 ? fieldPenalty : 0),
      };
    }),
  };
}

/**
 * For each interviewer's question (by index) that asks the asker's question in its own words — in
 * the interview's language, the asker's question translated into it when the two differ — the
 * closeness that passes to its reply: `sameQuestionWords` when at least `sameQuestionShare` of its
 * content words (two at least) are the asker's. Nothing when the bridge cannot translate.
 */
export async function askedInTheirWords(
  asked: readonly { index: number; text: string; language: string }[],
  question: string,
  questionLanguage: string,
  bridge: TranslationBridge,
  /** The bridge's English of the question, which a translation into Spanish or Catalan goes on from. */
  english: string | null = null,
): Promise<Map<number, number>> {
  const found = new Map<number, number>();
  const languages = [...new Set(asked.map((item) => item.language))].filter(isArchiveLanguage);
  for (const language of languages) {
    let terms = questionTerms(question);
    if (language !== questionLanguage) {
      if (!isArchiveLanguage(questionLanguage)) continue;
      const translated = await translateQuestion(question, questionLanguage, language, bridge, english);
      if (!translated) continue;
      terms = questionTerms(translated);
    }
    for (const item of asked.filter((one) => one.language === language)) {
      const words = questionTerms(item.text);
      const shared = words.filter((word) => terms.some((term) => wordMatches(word, term))).length;
      if (shared >= 2 && shared >= sameQuestionShare * words.length) found.set(item.index, sameQuestionWords);
    }
  }
  return found;
}

/**
 * The share of a text's content words that are none of the question's (1 for a text without
 * content words): how much it says beyond the question.
 */
export function newWordShare(text: string, terms: readonly string[]): number {
  const words = questionTerms(text);
  if (words.length === 0) return 1;
  return words.filter((word) => !terms.some((term) => wordMatches(word, term))).length / words.length;
}

/** Whether the question holds most of a title's words (two at least): it names that record. */
export function namesTitle(title: string, terms: readonly string[]): boolean {
  const words = questionTerms(title).filter((word) => !/^\d/.test(word));
  const held = words.filter((word) => terms.some((term) => wordMatches(word, term))).length;
  return held >= 2 && held * 2 >= words.length;
}

/**
 * The best sentences that clear the bars, without near-duplicates, best first. Of two sentences
 * that say the same, the testimony's is kept (the recording's, not the biography that repeats it),
 * even below the window: it carries the same fact.
 */
export function selectSentences<T extends Pick<ScoredSentence, "text" | "score" | "vector"> & { testimony?: boolean }>(
  scored: T[],
  options: Pick<ExtractiveOptions, "maxSentences" | "minScore" | "window">,
): T[] {
  const maxSentences = options.maxSentences ?? answerSettings.maxSentences.value;
  const minScore = options.minScore ?? answerSettings.minSentenceScore.value;
  const window = options.window ?? answerSettings.sentenceWindow.value;
  const ranked = [...scored].sort((a, b) => b.score - a.score);
  const best = ranked[0]?.score ?? 0;
  const chosen: T[] = [];
  const seen = new Set<string>();
  for (const sentence of ranked) {
    if (sentence.score < minScore) break;
    const key = sentence.text.toLowerCase();
    if (seen.has(key)) continue;
    const twin = chosen.findIndex((other) => dot(other.vector, sentence.vector) > nearDuplicate);
    if (twin !== -1) {
      if (sentence.testimony === true && chosen[twin]!.testimony !== true) chosen[twin] = sentence;
      seen.add(key);
      continue;
    }
    // Below the window a sentence may only stand in for its twin.
    if (chosen.length >= maxSentences || sentence.score < best - window) continue;
    seen.add(key);
    chosen.push(sentence);
  }
  return chosen;
}

/*
 * Another record's different date or count is still shown within answerSettings.disagreementWindow
 * of the best sentence: the archive's sources disagree more often than they err (a testimony
 * remembers the bells lowered on 8 September 1965, an essay says 1964), and a researcher must see
 * both, not the one that happened to score higher.
 */
const yearPattern = /\b(1[5-9]\d\d|20\d\d)\b/g;
const countPattern = /\b\d+(?:[.,]\d+)?\b/g;

/** The years (for when…) or numbers (for how many/much…) a sentence gives, in either language. */
function valuesGiven(question: string, sentence: Pick<ScoredSentence, "text" | "english">): Set<string> {
  const pattern = asks(question, "when") ? yearPattern : asks(question, "howMany") || asks(question, "howMuch") ? countPattern : null;
  if (!pattern) return new Set();
  return new Set([sentence.text, sentence.english ?? ""].flatMap((text) => [...text.matchAll(pattern)].map((match) => match[0].replace(",", "."))));
}

/**
 * The chosen sentences, and — when they answer a when/how-many question — the best sentence of
 * another record that answers it with a different value, if it scores within the disagreement
 * window of the best and holds at least as much of the question's words, weighted by rarity (it
 * speaks of the same thing, not of another event with a date): conflicting sources are quoted
 * side by side.
 */
export function withDisagreement<
  T extends Pick<ScoredSentence, "text" | "english" | "score" | "vector" | "fitsType" | "source" | "lexical" | "held"> & { testimony?: boolean },
>(question: string, chosen: T[], scored: readonly T[], recordOf: (source: number) => string): T[] {
  const given = new Set(chosen.filter((sentence) => sentence.fitsType).flatMap((sentence) => [...valuesGiven(question, sentence)]));
  if (given.size === 0) return chosen;
  const top = chosen.reduce((best, sentence) => (sentence.score > best.score ? sentence : best));
  // Testimony decides which source is quoted first, not whether a source that disagrees is shown.
  const unweighted = (sentence: T) => sentence.score - (sentence.testimony === true ? testimonyBonus : 0);
  const best = unweighted(top);
  const records = new Set(chosen.map((sentence) => recordOf(sentence.source)));
  // The names the question and the chosen sentence share must be spoken of by the other one too (in
  // it, the question it answers or its record's title): "When did Gillian Hart arrive…?" is not
  // answered otherwise by the year another narrator arrived.
  const named = questionNames(question).filter((name) => top.held.includes(name));
  const speaksOfThem = (sentence: T) => {
    const title = questionTerms(recordOf(sentence.source));
    return named.every((name) => sentence.held.includes(name) || title.some((word) => wordMatches(word, name)));
  };
  const other = [...scored]
    .sort((a, b) => b.score - a.score)
    .find((sentence) => {
      if (unweighted(sentence) < best - disagreementWindow || !sentence.fitsType || records.has(recordOf(sentence.source))) return false;
      if (sentence.lexical < top.lexical || !speaksOfThem(sentence)) return false;
      const values = valuesGiven(question, sentence);
      return values.size > 0 && [...values].every((value) => !given.has(value)) && !chosen.some((one) => dot(one.vector, sentence.vector) > nearDuplicate);
    });
  return other ? [...chosen, other] : chosen;
}

/**
 * A why- or how-answer: the sentence that explains best in its context — the sentence before it in
 * the same turn or paragraph (whatever it scores: "El muelle era nuestro periódico" says why only
 * after "nos contábamos todo lo que pasaba"), and those after it while they stay relevant — one
 * passage, not single sentences from several records. The testimony's best sentence leads when it
 * is within the window of the best. For why, a sentence that gives a date and no cause never leads
 * (a when-answer is no why-answer; with nothing else the question is refused), and a reply to the
 * interviewer's why is quoted from its first sentence.
 */
export function explanation<
  T extends Pick<ScoredSentence, "source" | "line" | "score" | "explains" | "dated"> & { testimony?: boolean; restates?: boolean; lexical?: number },
>(
  scored: readonly T[],
  why: boolean,
  options: Pick<ExtractiveOptions, "minScore" | "window"> = {},
  /** Every sentence of the sources, in reading order, for the context around the one that leads (default: `scored`). */
  context: readonly T[] = scored,
): T[] {
  const minScore = options.minScore ?? answerSettings.minSentenceScore.value;
  const window = options.window ?? answerSettings.sentenceWindow.value;
  const limit = answerSettings.explanationSentences.value;
  // A sentence that shares no word with the question (nor with the interviewer's question it answers)
  // and gives no cause is near it in meaning only: it may follow the one that leads, never lead.
  const pool = scored.filter(
    (sentence) =>
      sentence.score >= minScore &&
      (!why || sentence.explains || !sentence.dated) &&
      sentence.restates !== true &&
      (sentence.explains || (sentence.lexical ?? 1) > 0),
  );
  const highest = (sentences: readonly T[]) =>
    sentences.reduce<T | null>((top, sentence) => (top === null || sentence.score > top.score ? sentence : top), null);
  const top = highest(pool);
  if (!top) return [];
  const heard = highest(pool.filter((sentence) => sentence.testimony === true));
  const best = heard && heard.score >= top.score - window ? heard : top;
  const sameTurn = context.filter((sentence) => sentence.source === best.source && sentence.line === best.line);
  const at = sameTurn.indexOf(best);
  const before = sameTurn[at - 1];
  const first =
    why && best.explains
      ? Math.max(
          at - limit + 1,
          sameTurn.findIndex((sentence) => sentence.explains),
        )
      : before
        ? at - 1
        : at;
  const run = sameTurn.slice(first, at + 1);
  for (const sentence of sameTurn.slice(at + 1)) {
    if (run.length >= limit || sentence.score < minScore) break;
    run.push(sentence);
  }
  return run;
}

/**
 * Testimony first: sentences heard in a recording or read on a document's page lead, and a
 * description written about it (a biography, a place's or catalogue text) follows only when it adds
 * something the testimony does not give — another of the question's words besides its names,
 * another date or count, or the kind of thing asked for when no testimony gives it — as corroboration.
 */
export function testimonyFirst<T extends Pick<ScoredSentence, "testimony" | "held" | "text" | "english" | "fitsType">>(
  question: string,
  chosen: readonly T[],
): T[] {
  const heard = chosen.filter((sentence) => sentence.testimony);
  if (heard.length === 0) return [...chosen];
  const names = new Set(questionNames(question));
  const words = new Set(heard.flatMap((sentence) => sentence.held));
  const values = new Set(heard.flatMap((sentence) => answerValues(question, sentence)));
  const answersInKind = heard.some((sentence) => sentence.fitsType);
  const adds = (sentence: T) =>
    (sentence.fitsType && !answersInKind) ||
    sentence.held.some((word) => !names.has(word) && !words.has(word)) ||
    answerValues(question, sentence).some((value) => !values.has(value));
  return [...heard, ...chosen.filter((sentence) => !sentence.testimony && adds(sentence))];
}

/** The dates or counts a sentence gives (valuesGiven), and for where or who the places or people it names. */
function answerValues(question: string, sentence: Pick<ScoredSentence, "text" | "english">): string[] {
  const pattern = asks(question, "where") ? locatedName : asks(question, "who") ? personName : null;
  const named = pattern
    ? [...sentence.text.matchAll(pattern)].flatMap((match) =>
        match
          .slice(1)
          .filter(Boolean)
          .map((name) => foldText(name)),
      )
    : [];
  return [...valuesGiven(question, sentence), ...named];
}

/**
 * For a question after a date, a count, a place or a person whose best sentences give none: the best
 * sentence that gives that kind of thing and holds one of the question's words, if it scores within
 * answerSettings.kindWindow of the best and clears the floor every quoted sentence clears ("How low
 * did the reservoir fall in 2005?" → "in the summer of 2005 the level reached 783 metres", below a
 * narrator's "In the summer of 2005 I went alone").
 */
export function answerOfKind<T extends Pick<ScoredSentence, "score" | "fitsType" | "lexical">>(
  sentences: readonly T[],
  minScore: number = answerSettings.minSentenceScore.value,
): T | null {
  const best = sentences.reduce((top, sentence) => Math.max(top, sentence.score), Number.NEGATIVE_INFINITY);
  const floor = Math.max(minScore, best - kindWindow);
  const kinds = sentences.filter((sentence) => sentence.fitsType && sentence.lexical > 0 && sentence.score >= floor);
  return kinds.reduce<T | null>((top, sentence) => (top === null || sentence.score > top.score ? sentence : top), null);
}

export function createExtractiveGenerator(options: ExtractiveOptions): Generator {
  return {
    name: "extractive",
    model: `extractive/${options.embedder.model}`,
    // Sentences go through the embedder: an external one makes this answerer external too.
    external: options.embedder.external === true,
    async *generate(request: GenerationRequest) {
      const { question, sentences: scored } = await scoreSentences(options, request);
      // Only sentences about whom the question names, saying something it asks of them, of the time it names, may answer.
      const sentences = scored.filter((sentence) => sentence.aboutSubject && sentence.holdsPredicate && sentence.atAskedTime);
      // A question after a date, a count, a place or a person is not answered by sentences that only
      // share its words: when none of those chosen gives that kind of thing, nothing is said
      // ("Who photographed the flooding?" → "It was flooded in 1966 by the reservoir").
      const titles = new Map(request.sources.map((source) => [source.number, source.title]));
      const typed = options.requireAnswerType !== false && asksForType(request.question);
      const answer = () => {
        if (question.explaining) return explanation(sentences, question.why, options, scored);
        const selected = withDisagreement(request.question, selectSentences(sentences, options), sentences, (source) => titles.get(source) ?? String(source));
        if (!typed) return selected;
        // A catalogue line that does not give the kind of thing asked adds nothing beside one that does
        // ("Where did Lucía Ferrer learn…?": not "Authors: Lucía Ferrer Navarro; Subjects: … net menders").
        if (selected.some((sentence) => sentence.fitsType)) return selected.filter((sentence) => sentence.fitsType || sentence.role !== "field");
        const kind = answerOfKind(sentences, options.minScore);
        return kind ? [kind] : [];
      };
      const answered = answer();
      const chosen = testimonyFirst(request.question, answered);
      const translations = await translateForReader(chosen, question.language, options.prepare?.bridge ?? processTranslationBridge);
      // A why-answer that dates the thing and explains nothing says so before it quotes: the reader
      // is told that the records give the when, not the why.
      if (question.why && chosen.some((sentence) => sentence.dated) && !chosen.some((sentence) => sentence.explains))
        yield `${whyNotSaid[question.language] ?? whyNotSaid.en} `;
      for (const [index, sentence] of chosen.entries()) {
        request.signal?.throwIfAborted();
        const translation = translations[index];
        const note = translation ? ` ${literalBrackets(translationNote(translation, question.language))}` : "";
        yield `${index > 0 ? " " : ""}${literalBrackets(sentence.text)} [${sentence.source}]${note}`;
      }
    },
  };
}
