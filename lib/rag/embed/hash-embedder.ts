import { foldAccents } from "../../language/fold-accents";
import { getConfig, parseConfig } from "../../config";
import { assertEmbeddable, normaliseVector, type EmbedKind, type Embedder } from "./embedder";

/**
 * A deterministic stand-in for a real model, for tests: feature hashing of lower-cased,
 * accent-folded words and their character trigrams into `dimension` signed buckets. Texts that
 * share words or word pieces land closer together, which is enough to exercise indexing and
 * search end to end without loading weights.
 *
 * It understands nothing: synonyms, paraphrases and other languages are strangers to it. An
 * archive indexed with it would return keyword-ish noise that looks like semantic search, so
 * it refuses to start in production unless someone asks for it by name.
 */
export interface HashEmbedderOptions {
  dimension?: number;
  /** What the bridge should assume; "multilingual" embeds every text as it is. */
  language?: "en" | "multilingual";
  /** Allow it in production from code, e.g. a demo that documents the choice. */
  allowInProduction?: boolean;
  /** Where NODE_ENV and MNEMO_ALLOW_HASH_EMBEDDER are read; defaults to the process's configuration. */
  env?: Record<string, string | undefined>;
}

export const hashEmbedderModel = "feature-hash-word-trigram-v1";

const trigramWeight = 0.5;

export function createHashEmbedder(options: HashEmbedderOptions = {}): Embedder {
  const config = options.env ? parseConfig(options.env) : getConfig();
  if (options.allowInProduction !== true && !config.hashEmbedderAllowed) {
    throw new Error("The hash embedder is for tests and understands no meaning; refusing it in production. Set MNEMO_ALLOW_HASH_EMBEDDER=1 to use it anyway.");
  }
  const dimension = options.dimension ?? 256;
  if (!Number.isInteger(dimension) || dimension < 2) {
    throw new Error(`The hash embedder needs an integer dimension of at least 2, got ${dimension}.`);
  }
  const maxInputTokens = 512;
  return {
    provider: "hash",
    model: hashEmbedderModel,
    dimension,
    maxInputTokens,
    language: options.language ?? "multilingual",
    async embed(texts: string[], _kind: EmbedKind): Promise<Float32Array[]> {
      assertEmbeddable(texts, maxInputTokens);
      return texts.map((text) => hashText(text, dimension));
    },
  };
}

function hashText(text: string, dimension: number): Float32Array {
  const buckets = new Float64Array(dimension);
  const add = (feature: string, weight: number) => {
    const hash = fnv1a(feature);
    // The top bit picks the sign, so unrelated features cancel out on average instead of
    // piling up in shared buckets.
    const sign = hash & 0x80000000 ? -1 : 1;
    const bucket = (hash & 0x7fffffff) % dimension;
    buckets[bucket] = (buckets[bucket] ?? 0) + sign * weight;
  };
  const folded = foldAccents(text).toLowerCase();
  let words = 0;
  for (const [word] of folded.matchAll(/[\p{L}\p{N}]+/gu)) {
    words++;
    add(`w:${word}`, 1);
    const padded = `#${word}#`;
    for (let i = 0; i + 3 <= padded.length; i++) add(`t:${padded.slice(i, i + 3)}`, trigramWeight);
  }
  // Punctuation-only text ("…", "—") still gets a vector of its own.
  if (words === 0) add(`s:${folded.trim()}`, 1);
  return normaliseVector(buckets);
}

/** 32-bit FNV-1a over UTF-16 code units: fast, stable across runs and platforms. */
function fnv1a(value: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) {
    hash ^= value.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
