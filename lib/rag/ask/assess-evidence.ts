import "server-only";
import { type PassageForm, asksForExplanation, mayAnswer, passageForm, questionNames, questionTerms, sourceSentences } from "./answer-sentences";

export { questionNames };
import type { PrepareOptions } from "../embed/bridge-text";
import { type Embedder, dot } from "../embed/embedder";
import { heldTerms } from "../search/highlight";
import { processTranslationBridge } from "../embed/translate";
import { translateQuestion } from "../embed/question-translation";
import { type SearchHit, prepareQuery } from "../search/search-archive";

/**
 * The evidence test of the ask pipeline: does a retrieved passage carry the answer? A passage is
 * evidence when its similarity to the question reaches `strongSimilarity` and it shares at
 * least one of the question's content words, or reaches `minSimilarity` with at least
 * `minTermCoverage` of them (content words of the question or its English translation, found in
 * the passage or its translation) — counted by weight when the caller gives each word's idf over
 * the readable records: "Port de la Calma" is in hundreds of passages, "inhabitants" in none, and a
 * passage that names the place but not the thing asked about covers little of the question. The
 * passage's record title counts as part of it: what the record is about, the passage is about. A
 * passage near in meaning that shares no word at all is a neighbour of the topic (a gazpacho
 * recipe and a chapter on amphorae), not an answer.
 *
 * Its similarity is the better of the whole passage's and its closest sentence's: a transcript
 * passage of ten turns is far from a question even when one turn answers it, so the sentences
 * that share a content word with the question (a narrator's, or an interviewer's question that
 * is answered in the passage or the next) are compared one by one, in one batch of the embedder. A bare
 * catalogue field is no evidence for how or why.
 */
export interface EvidenceThresholds {
  minSimilarity: number;
  strongSimilarity: number;
  minTermCoverage: number;
}

export interface AssessedHit {
  hit: SearchHit;
  form: PassageForm;
  /** Share of the question's content words in the passage or its translation. */
  coverage: number;
  /** The same share weighted by each word's readable idf (equal to coverage without weights). */
  weightedCoverage: number;
  /** The closest sentence's similarity, when one shares a word with the question. */
  sentenceSimilarity: number | null;
  /** The better of the passage's and its closest sentence's similarity (-1 when neither is known). */
  similarity: number;
  evidence: boolean;
}

export interface AssessOptions {
  embedder: Embedder;
  /** The question as the bridge read it, when the caller already has it (one Apertium run per question). */
  reading?: QuestionReading;
  prepare?: PrepareOptions;
  thresholds: EvidenceThresholds;
  /** Interviewers' names by record, for transcript passages. */
  interviewers?: ReadonlyMap<string, string[]>;
  /** The question's words weighted by their readable idf (readableTermWeights), for weightedCoverage. */
  termWeights?: ReadonlyMap<string, number>;
}

/**
 * Share of the question's content words found in the passage or its translation; with weights
 * (each word's idf over the readable passages), the share of their weight, so a place named in
 * half the archive counts for less than the thing the question asks about.
 */
export function termCoverage(terms: string[], text: string, translation?: string, weights?: ReadonlyMap<string, number>): number {
  if (terms.length === 0) return 0;
  const matched = new Set([...heldTerms(terms, text), ...(translation ? heldTerms(terms, translation) : [])]);
  if (!weights) return matched.size / terms.length;
  const weightOf = (term: string) => weights.get(term) ?? 0;
  const total = terms.reduce((sum, term) => sum + weightOf(term), 0);
  return total > 0 ? [...matched].reduce((sum, term) => sum + weightOf(term), 0) / total : matched.size / terms.length;
}

/** A question's English translation (null when it is English or untranslated) and its content words in both. */
export interface QuestionReading {
  english: string | null;
  terms: string[];
  englishTerms: string[];
  /** A Spanish question's content words in Catalan, a Catalan one's in Spanish, as the bridge put it (none for English). */
  translatedTerms: string[][];
  /** Its content words written with a capital inside the question: the names it asks about, folded. */
  names: string[];
}

export async function readQuestion(question: string, embedder: Embedder, prepare?: PrepareOptions): Promise<QuestionReading> {
  // The search just read the same question: its remembered reading costs no second Apertium run.
  const prepared = await prepareQuery({ embedder, prepare }, question);
  const english = prepared?.translatedText ?? null;
  const language = prepared?.language;
  // A Spanish question is read in Catalan too, a Catalan one in Spanish: the archive's other language.
  const translated =
    language === "es" || language === "ca"
      ? await translateQuestion(question, language, language === "es" ? "ca" : "es", prepare?.bridge ?? processTranslationBridge, english)
      : null;
  const translatedTerms = translated ? [questionTerms(translated)] : [];
  return { english, terms: questionTerms(question), englishTerms: english ? questionTerms(english) : [], translatedTerms, names: questionNames(question) };
}

export async function assessEvidence(hits: readonly SearchHit[], question: string, options: AssessOptions): Promise<AssessedHit[]> {
  const { english, terms, englishTerms, translatedTerms } = options.reading ?? (await readQuestion(question, options.embedder, options.prepare));
  const allTerms = [...new Set([...terms, ...englishTerms])];
  const explanatory = asksForExplanation(question) || (english !== null && asksForExplanation(english));

  const units: { hit: number; text: string }[] = [];
  const forms = hits.map((hit, index) => {
    const form = passageForm(hit.passage.text, hit.passage.timeStart !== null);
    const sentences = sourceSentences({
      number: index,
      title: hit.recordTitle,
      text: hit.passage.text,
      translation: hit.passage.translatedText,
      form,
      interviewers: options.interviewers?.get(hit.recordId),
    });
    // The interviewer's question counts when the passage answers it — or ends on it, and the next
    // passage (given with it, see answer-continuations.ts) answers it.
    const answeredLines = new Set(sentences.flatMap((sentence) => (sentence.answers === null ? [] : [sentence.answers])));
    const last = sentences.at(-1);
    if (last?.role === "interviewer") answeredLines.add(last.line);
    for (const sentence of sentences) {
      const counts = mayAnswer(sentence, question) || (sentence.role !== "field" && answeredLines.has(sentence.line));
      const shares = heldTerms(allTerms, sentence.text).size > 0 || (sentence.english !== null && heldTerms(allTerms, sentence.english).size > 0);
      if (counts && shares) units.push({ hit: index, text: sentence.english ?? sentence.text });
    }
    return form;
  });

  const best = hits.map((): number | null => null);
  if (units.length > 0) {
    const [questionVector] = await options.embedder.embed([english ?? question], "query");
    const vectors = await options.embedder.embed(
      units.map((unit) => unit.text),
      "passage",
    );
    units.forEach((unit, index) => {
      const similarity = dot(questionVector!, vectors[index]!);
      best[unit.hit] = Math.max(best[unit.hit] ?? -1, similarity);
    });
  }

  const { minSimilarity, strongSimilarity, minTermCoverage } = options.thresholds;
  return hits.map((hit, index) => {
    const translation = hit.passage.translatedText ?? undefined;
    // A passage is read in its record: a scanned notice's page need not name the village and the
    // expropriation its title names ("Avís als veïns de Sant Romà … sobre l'expropiació").
    const text = `${hit.passage.text}\n${hit.recordTitle}`;
    const readings = [terms, englishTerms, ...translatedTerms].filter((reading) => reading.length > 0);
    const coverage = Math.max(0, ...readings.map((reading) => termCoverage(reading, text, translation)));
    const weights = options.termWeights;
    const weightedCoverage = weights ? Math.max(0, ...readings.map((reading) => termCoverage(reading, text, translation, weights))) : coverage;
    const sentenceSimilarity = best[index] ?? null;
    const similarity = Math.max(hit.similarity ?? -1, sentenceSimilarity ?? -1);
    const form = forms[index]!;
    const sharesAWord = coverage > 0 || allTerms.length === 0;
    const evidence =
      !(explanatory && form === "fields") &&
      ((similarity >= strongSimilarity && sharesAWord) || (similarity >= minSimilarity && weightedCoverage >= minTermCoverage));
    return { hit, form, coverage, weightedCoverage, sentenceSimilarity, similarity, evidence };
  });
}
