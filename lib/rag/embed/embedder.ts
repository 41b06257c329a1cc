import type { ModelWork } from "./model-work";

/**
 * What every embedding provider offers the indexer and the search: a model that turns texts
 * into unit vectors of one fixed dimension. (provider, model, dimension) names an index space.
 */
export type EmbedKind = "passage" | "query";

export interface Embedder {
  /** "local-use" | "openai-compatible" | "hash" */
  readonly provider: string;
  /** e.g. "universal-sentence-encoder-lite" */
  readonly model: string;
  readonly dimension: number;
  /** The chunker keeps passages under this many tokens. */
  readonly maxInputTokens: number;
  /** Language the model understands; "en" for USE lite, "multilingual" otherwise. */
  readonly language: "en" | "multilingual";
  /**
   * True when texts leave this host (a remote HTTP endpoint): passages of a section that is not
   * `allow_external` are then never sent to it, and stay keyword-searchable only. Absent: false.
   */
  readonly external?: boolean;
  /**
   * Unit-normalised vectors in the order of `texts`; throws EmbeddingError on failure. `work`
   * says who waits (lib/rag/embed/model-work.ts; unset, the caller's context): a provider that
   * runs on the model threads queues by it, and may refuse when full (ModelPoolBusyError).
   */
  embed(texts: string[], kind: EmbedKind, work?: Partial<ModelWork>): Promise<Float32Array[]>;
}

/**
 * Why embedding failed, and whether trying the same input again later may succeed (a busy or
 * unreachable server) or never will (bad input, a misconfigured model, a garbled answer).
 */
export class EmbeddingError extends Error {
  readonly retryable: boolean;

  constructor(message: string, options: { retryable: boolean; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.name = "EmbeddingError";
    this.retryable = options.retryable;
  }
}

/** How far past its token budget a text may go before it is refused rather than embedded. */
const absurdLengthFactor = 8;

/**
 * Refuses input no provider should see: empty texts have no meaning to embed, and a text far
 * longer than the model's window would be truncated by the model without anyone knowing.
 * Tokens are approximated by whitespace-separated words; the chunker enforces the real bound.
 */
export function assertEmbeddable(texts: readonly string[], maxInputTokens: number): void {
  const wordLimit = absurdLengthFactor * maxInputTokens;
  texts.forEach((text, index) => {
    if (text.trim().length === 0) {
      throw new EmbeddingError(`Text ${index} is empty: there is nothing to embed.`, { retryable: false });
    }
    const words = countWords(text);
    if (words > wordLimit) {
      throw new EmbeddingError(
        `Text ${index} has ${words} words, more than ${wordLimit} (${absurdLengthFactor} × the model's ${maxInputTokens} tokens); chunk it first.`,
        { retryable: false },
      );
    }
  });
}

function countWords(text: string): number {
  let count = 0;
  for (const _word of text.matchAll(/\S+/g)) count += 1;
  return count;
}

/** The dot product of two vectors over `a`'s length: for the unit vectors embedders return, their cosine. */
export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let sum = 0;
  for (let index = 0; index < a.length; index++) sum += a[index]! * b[index]!;
  return sum;
}

/** Scales a model's raw output to length 1, so cosine distance is a plain dot product. */
export function normaliseVector(values: ArrayLike<number>): Float32Array {
  const vector = Float32Array.from(values);
  let sumOfSquares = 0;
  for (const value of vector) sumOfSquares += value * value;
  const norm = Math.sqrt(sumOfSquares);
  if (!Number.isFinite(norm) || norm === 0) {
    throw new EmbeddingError("The model returned a zero or non-finite vector.", { retryable: false });
  }
  for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] ?? 0) / norm;
  return vector;
}

/** Splits `items` into consecutive batches of at most `size`. */
export function inBatches<T>(items: readonly T[], size: number): T[][] {
  const batches: T[][] = [];
  for (let start = 0; start < items.length; start += size) batches.push(items.slice(start, start + size));
  return batches;
}

/** A thrown value as one line of text for an error message. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
