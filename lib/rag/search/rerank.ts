import "server-only";
import { z } from "zod";
import { type EgressPolicy, egressAllowed, mayLeaveHost } from "../../acl";
import { type Config, parseConfig } from "../../config";
import { startDeadline } from "../../deadline";
import { splitSentences } from "../chunk";
import { searchSettings } from "../config/settings";
import { type Embedder, dot, errorMessage } from "../embed/embedder";

/**
 * The rerank seam: after fusion, the best candidates may be re-ordered by a model that reads
 * the query and the passage together. Three implementations:
 *   - pass-through (the default): fusion order stands;
 *   - local: every sentence of a passage is embedded and the passage scores as its best
 *     sentence against the query, so one precise sentence in a long passage counts;
 *   - http: a cross-encoder behind a `/rerank` endpoint (Hugging Face TEI, Jina, Cohere).
 * A reranker that sends text off this machine only ever receives passages of sections whose
 * egress policy allows it; the others keep their fused positions.
 */
export interface RerankCandidate {
  id: string;
  text: string;
  /** The section's egress policy; `local_only` text never leaves the server. */
  egressPolicy: EgressPolicy;
}

export interface Reranker {
  readonly name: string;
  /** Whether candidates' text is sent to another machine. */
  readonly external: boolean;
  /** Scores for the given candidates (higher is better), in input order. */
  score(query: string, candidates: RerankCandidate[]): Promise<number[]>;
}

/** What the reader is told when the reranker fails and the fused order stands. */
export const rerankSkippedNote = "The reranker is not working right now, so the results keep their usual order (meaning and words combined).";

export class RerankError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "RerankError";
  }
}

export const passThroughReranker: Reranker = {
  name: "none",
  external: false,
  async score(_query, candidates) {
    return candidates.map((_, index) => -index);
  },
};

/** Sentence-level re-scoring with the index's own embedder; nothing leaves the machine. */
export function createLocalReranker(embedder: Embedder, options: { maxSentences?: number } = {}): Reranker {
  const maxSentences = options.maxSentences ?? searchSettings.localRerankSentences.value;
  return {
    name: "local",
    // Sentences go through the index's embedder: if that is a remote service, so is this.
    external: embedder.external === true,
    async score(query, candidates) {
      if (candidates.length === 0) return [];
      const sentencesOf = candidates.map((candidate) => {
        const sentences = splitSentences(candidate.text)
          .map((range) => candidate.text.slice(range.start, range.end).trim())
          .filter((sentence) => sentence.length > 0);
        return (sentences.length > 0 ? sentences : [candidate.text]).slice(0, maxSentences);
      });
      const [queryVector] = await embedder.embed([query], "query");
      const vectors = await embedder.embed(sentencesOf.flat(), "passage");
      let offset = 0;
      return sentencesOf.map((sentences) => {
        let best = -1;
        for (let index = 0; index < sentences.length; index++) best = Math.max(best, dot(queryVector!, vectors[offset + index]!));
        offset += sentences.length;
        return best;
      });
    },
  };
}

export interface HttpRerankerOptions {
  /** Base URL; `/rerank` is appended unless the URL already ends with it. */
  url: string;
  model?: string;
  apiKey?: string;
  timeoutMs?: number;
}

// TEI answers [{index, score}]; Jina and Cohere {results: [{index, relevance_score}]}.
const teiAnswer = z.array(z.object({ index: z.number().int().nonnegative(), score: z.number() }));
const cohereAnswer = z.object({ results: z.array(z.object({ index: z.number().int().nonnegative(), relevance_score: z.number() })) });

export function rerankEndpoint(url: string): string {
  const trimmed = url.replace(/\/+$/, "");
  return /\/rerank$/.test(trimmed) ? trimmed : `${trimmed}/rerank`;
}

/** A cross-encoder behind an HTTP `/rerank` endpoint. */
export function createHttpReranker(options: HttpRerankerOptions): Reranker {
  const endpoint = rerankEndpoint(options.url);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  return {
    name: "http",
    external: true,
    async score(query, candidates) {
      if (candidates.length === 0) return [];
      const texts = candidates.map((candidate) => candidate.text);
      // Both vocabularies in one body: TEI reads `texts`, Jina and Cohere read `documents`.
      const body = { query, texts, documents: texts, top_n: texts.length, ...(options.model ? { model: options.model } : {}) };
      let response: Response;
      let text: string;
      const deadline = startDeadline(timeoutMs);
      try {
        response = await deadline.race(fetch(endpoint, { method: "POST", headers, body: JSON.stringify(body), signal: deadline.signal }));
        text = await deadline.race(response.text());
      } catch (error) {
        throw new RerankError(`Reranker ${endpoint}: ${errorMessage(error)}`, { cause: error });
      } finally {
        deadline.clear();
      }
      if (!response.ok) throw new RerankError(`Reranker ${endpoint} answered HTTP ${response.status}: ${text.slice(0, 200)}`);
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (error) {
        throw new RerankError(`Reranker ${endpoint} answered with something that is not JSON.`, { cause: error });
      }
      const tei = teiAnswer.safeParse(json);
      const cohere = tei.success ? undefined : cohereAnswer.safeParse(json);
      const items = tei.success
        ? tei.data.map((item) => ({ index: item.index, score: item.score }))
        : cohere?.success
          ? cohere.data.results.map((item) => ({ index: item.index, score: item.relevance_score }))
          : undefined;
      if (!items) throw new RerankError(`Reranker ${endpoint} answered with an unexpected shape.`);
      const scores = new Array<number>(candidates.length).fill(Number.NEGATIVE_INFINITY);
      for (const item of items) {
        if (item.index >= candidates.length) throw new RerankError(`Reranker ${endpoint} returned index ${item.index} for ${candidates.length} texts.`);
        scores[item.index] = item.score;
      }
      return scores;
    },
  };
}

/**
 * Re-orders candidates with a reranker. With an external reranker, only candidates whose
 * section allows egress are sent; each withheld candidate keeps its fused position and the
 * sent ones fill the remaining positions in their new order. A failing reranker leaves the
 * fused order and reports why, so search degrades instead of failing.
 */
export async function rerankCandidates<T extends RerankCandidate>(
  reranker: Reranker,
  query: string,
  candidates: T[],
): Promise<{ ordered: T[]; reranked: boolean; withheld: number; error?: string }> {
  if (reranker === passThroughReranker || candidates.length < 2) return { ordered: candidates, reranked: false, withheld: 0 };
  const sendable = candidates.filter((candidate) => mayLeaveHost(reranker, egressAllowed([candidate.egressPolicy])));
  const withheld = candidates.length - sendable.length;
  if (sendable.length < 2) return { ordered: candidates, reranked: false, withheld };
  let scores: number[];
  try {
    scores = await reranker.score(query, sendable);
  } catch (error) {
    return { ordered: candidates, reranked: false, withheld, error: errorMessage(error) };
  }
  const reordered = sendable
    .map((candidate, index) => ({ candidate, score: scores[index] ?? Number.NEGATIVE_INFINITY, index }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((entry) => entry.candidate);
  const sent = new Set(sendable);
  let next = 0;
  const ordered = candidates.map((candidate) => (sent.has(candidate) ? reordered[next++]! : candidate));
  return { ordered, reranked: true, withheld };
}

export type RerankerConfig = { kind: "none" } | { kind: "local" } | ({ kind: "http" } & HttpRerankerOptions);

/** MNEMO_RERANKER = none | local | http; MNEMO_RERANK_URL, _MODEL, _API_KEY, _TIMEOUT_MS. */
export function rerankerConfigFromConfig(config: Config): RerankerConfig {
  const kind = config.MNEMO_RERANKER;
  if (kind === "none" || kind === "local") return { kind };
  const url = config.MNEMO_RERANK_URL;
  if (!url) throw new Error("MNEMO_RERANK_URL: an http(s) URL is required when MNEMO_RERANKER=http");
  return { kind, url, model: config.MNEMO_RERANK_MODEL, apiKey: config.MNEMO_RERANK_API_KEY, timeoutMs: config.MNEMO_RERANK_TIMEOUT_MS };
}

/** The same from an environment map (scripts, tests). */
export function rerankerConfigFromEnv(env: Record<string, string | undefined>): RerankerConfig {
  return rerankerConfigFromConfig(parseConfig(env));
}

export function createReranker(config: RerankerConfig, embedder: Embedder): Reranker {
  if (config.kind === "local") return createLocalReranker(embedder);
  if (config.kind === "http") return createHttpReranker(config);
  return passThroughReranker;
}
