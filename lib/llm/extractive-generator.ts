import "server-only";
import { splitSentences } from "../rag/chunk";
import { prepareForEmbedding, type PrepareOptions } from "../rag/embed/bridge-text";
import type { Embedder } from "../rag/embed/embedder";
import { findHighlights, queryTerms } from "../rag/search/highlight";
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

export async function scoreSentences(options: ExtractiveOptions, request: Pick<GenerationRequest, "question" | "sources">): Promise<ScoredSentence[]> {
  const candidates = request.sources.flatMap((source) => sentencesOf(source.text).slice(0, 40).map((text) => ({ source: source.number, text })));
  if (candidates.length === 0) return [];
  const [questionPrepared] = await prepareForEmbedding([{ text: request.question }], options.embedder, options.prepare);
  const prepared = await prepareForEmbedding(candidates.map((candidate) => ({ text: candidate.text })), options.embedder, options.prepare);
  const [questionVector] = await options.embedder.embed([questionPrepared?.embeddedText ?? request.question], "query");
  const vectors = await options.embedder.embed(prepared.map((item) => item.embeddedText), "passage");
  const terms = queryTerms(request.question);
  const termsOf = (text: string) => new Set(findHighlights(text, terms).map((range) => text.slice(range.start, range.end).toLowerCase())).size;
  const sourceCount = request.sources.length;
  return candidates.map((candidate, index) => {
    const vector = vectors[index]!;
    const words = Math.max(termsOf(candidate.text), termsOf(prepared[index]?.translatedText ?? ""));
    const lexical = terms.length > 0 ? Math.min(1, words / terms.length) : 0;
    // Earlier sources ranked higher in retrieval: a slight prior, never decisive.
    const prior = sourceCount > 1 ? 0.03 * (1 - (candidate.source - 1) / (sourceCount - 1)) : 0.03;
    return { ...candidate, vector, score: dot(questionVector!, vector) + 0.15 * lexical + prior };
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
    external: false,
    async *generate(request: GenerationRequest) {
      const chosen = selectSentences(await scoreSentences(options, request), options);
      for (const [index, sentence] of chosen.entries()) {
        request.signal?.throwIfAborted();
        yield `${index > 0 ? " " : ""}${sentence.text} [${sentence.source}]`;
      }
    },
  };
}
