import "server-only";
import { splitSentences } from "../rag/chunk";
import { prepareForEmbedding, type PrepareOptions } from "../rag/embed/bridge-text";
import type { Embedder } from "../rag/embed/embedder";
import { findHighlights, foldWord, queryTerms, wordMatches } from "../rag/search/highlight";
import type { GenerationRequest, Generator } from "./generator";

/**
 * The offline answerer, and the default: it reads the sources sentence by sentence, scores
 * each against the question with the index's embedder (Spanish and Catalan sentences through
 * the translation bridge, as passages are indexed) plus the question's words it contains,
 * keeps the best few that are not near-repeats of one another, and answers with exactly those
 * sentences, each followed by its source number. It never writes a word that is not in a
 * source, so every statement is a verifiable quotation.
 */
export interface ExtractiveOptions {
  embedder: Embedder;
  prepare?: PrepareOptions;
  /** At most this many sentences in an answer (default 3). */
  maxSentences?: number;
  /** A sentence must score at least this (default 0.25). */
  minScore?: number;
  /** And be within this of the best sentence (default 0.08). */
  window?: number;
}

export interface ScoredSentence {
  source: number;
  text: string;
  score: number;
  vector: Float32Array;
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let index = 0; index < a.length; index++) sum += a[index]! * b[index]!;
  return sum;
}

const minWords = 4;

export function sentencesOf(text: string): string[] {
  return splitSentences(text)
    .flatMap((range) => text.slice(range.start, range.end).split(/\n+/))
    .map((sentence) => sentence.replace(/\s+/g, " ").trim())
    // Questions (an interviewer's, usually) state nothing, so they never answer one.
    .filter((sentence) => sentence.split(" ").length >= minWords && !/[?？]["”»)]?$/.test(sentence));
}

const askedWhen = /^\s*(when|what year|in what year|¿?\s*cu[aá]ndo|quan|en qu[eé] a[nñ]o|quin any)\b/i;
const askedHowMany = /\b(how many|how much|how long|what percentage|cu[aá]nt[oa]s?|qu[eé] porcentaje|quant[ae]s?|quin percentatge)\b/i;
const hasDate = /\b(1[5-9]\d\d|20\d\d)\b|\b(january|february|march|april|may|june|july|august|september|october|november|december|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre|gener|febrer|març|maig|juny|juliol|setembre|octubre|novembre|desembre)\b/i;
const hasQuantity = /\d|\b(one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty|hundred|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|veinte|treinta|cuarenta|cincuenta|quatre|cinc|sis|set|vuit|nou|deu|vint|trenta|quaranta)\b/i;

/** A small nudge towards sentences of the kind the question asks for: a date for "when", a number for "how many". */
export function answerTypeBonus(question: string, sentence: string): number {
  if (askedWhen.test(question)) return hasDate.test(sentence) ? 0.06 : 0;
  if (askedHowMany.test(question)) return hasQuantity.test(sentence) ? 0.06 : 0;
  return 0;
}

export async function scoreSentences(options: ExtractiveOptions, request: Pick<GenerationRequest, "question" | "sources">): Promise<ScoredSentence[]> {
  const candidates = request.sources.flatMap((source) => sentencesOf(source.text).slice(0, 40).map((text) => ({ source: source.number, text })));
  if (candidates.length === 0) return [];
  const [questionPrepared] = await prepareForEmbedding([{ text: request.question }], options.embedder, options.prepare);
  const prepared = await prepareForEmbedding(candidates.map((candidate) => ({ text: candidate.text })), options.embedder, options.prepare);
  const [questionVector] = await options.embedder.embed([questionPrepared?.embeddedText ?? request.question], "query");
  const vectors = await options.embedder.embed(prepared.map((item) => item.embeddedText), "passage");
  const terms = queryTerms(request.question);
  const matchedTerms = (text: string) =>
    new Set(findHighlights(text, terms).flatMap((range) => terms.filter((term) => wordMatches(foldWord(text.slice(range.start, range.end)), term))));
  const matched = candidates.map((candidate, index) => new Set([...matchedTerms(candidate.text), ...matchedTerms(prepared[index]?.translatedText ?? "")]));
  // A question word found in most sentences (a place name everywhere) tells little: weight by rarity.
  const weight = new Map(
    terms.map((term) => {
      const frequency = matched.filter((set) => set.has(term)).length;
      return [term, frequency === 0 ? 0 : Math.log((candidates.length + 1) / (frequency + 0.5))];
    }),
  );
  const totalWeight = [...weight.values()].reduce((sum, value) => sum + value, 0);
  const sourceCount = request.sources.length;
  return candidates.map((candidate, index) => {
    const vector = vectors[index]!;
    const lexical = totalWeight > 0 ? [...matched[index]!].reduce((sum, term) => sum + (weight.get(term) ?? 0), 0) / totalWeight : 0;
    // Earlier sources ranked higher in retrieval: a slight prior, never decisive.
    const prior = sourceCount > 1 ? 0.03 * (1 - (candidate.source - 1) / (sourceCount - 1)) : 0.03;
    const bonus = answerTypeBonus(request.question, prepared[index]?.translatedText ?? candidate.text) || answerTypeBonus(request.question, candidate.text);
    return { ...candidate, vector, score: dot(questionVector!, vector) + 0.2 * lexical + prior + bonus };
  });
}

/** The best sentences that clear the bars, without near-duplicates, best first. */
export function selectSentences(scored: ScoredSentence[], options: Pick<ExtractiveOptions, "maxSentences" | "minScore" | "window">): ScoredSentence[] {
  const maxSentences = options.maxSentences ?? 3;
  const minScore = options.minScore ?? 0.25;
  const window = options.window ?? 0.08;
  const ranked = [...scored].sort((a, b) => b.score - a.score);
  const best = ranked[0]?.score ?? 0;
  const chosen: ScoredSentence[] = [];
  const seen = new Set<string>();
  for (const sentence of ranked) {
    if (chosen.length >= maxSentences || sentence.score < minScore || sentence.score < best - window) break;
    const key = sentence.text.toLowerCase();
    if (seen.has(key)) continue;
    if (chosen.some((other) => dot(other.vector, sentence.vector) > 0.85)) continue;
    seen.add(key);
    chosen.push(sentence);
  }
  return chosen;
}

export function createExtractiveGenerator(options: ExtractiveOptions): Generator {
  return {
    name: "extractive",
    model: `extractive/${options.embedder.model}`,
    // Sentences go through the embedder: an external one makes this answerer external too.
    external: options.embedder.external === true,
    async *generate(request: GenerationRequest) {
      const chosen = selectSentences(await scoreSentences(options, request), options);
      for (const [index, sentence] of chosen.entries()) {
        request.signal?.throwIfAborted();
        yield `${index > 0 ? " " : ""}${sentence.text} [${sentence.source}]`;
      }
    },
  };
}
