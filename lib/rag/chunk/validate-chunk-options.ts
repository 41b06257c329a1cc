export const CHUNKING_MODES = ["short", "long_document", "transcription", "auto"] as const;

/** How a group document is cut; `auto` picks `transcription` when the document has turn markers. */
export type ChunkingMode = (typeof CHUNKING_MODES)[number];

export interface ChunkOptions {
  mode: ChunkingMode;
  /** Upper bound of a chunk, in countTokens() tokens; overlap included. */
  maxTokens: number;
  /** Chunks below this merge with a neighbour in the same section when they fit. */
  minTokens: number;
  /** Tokens of whole sentences a chunk repeats from the end of its predecessor; 0 = none. */
  overlap: number;
}

const SMALLEST_MAX_TOKENS = 16;

/** Throws a RangeError naming the first option out of bounds. */
export function validateChunkOptions(options: ChunkOptions): void {
  const { mode, maxTokens, minTokens, overlap } = options;
  if (!(CHUNKING_MODES as readonly string[]).includes(mode)) {
    throw new RangeError(`Chunking mode must be one of ${CHUNKING_MODES.join(", ")}; got "${String(mode)}".`);
  }
  requireInteger("maxTokens", maxTokens);
  requireInteger("minTokens", minTokens);
  requireInteger("overlap", overlap);
  if (maxTokens < SMALLEST_MAX_TOKENS) {
    throw new RangeError(`maxTokens must be at least ${SMALLEST_MAX_TOKENS}; got ${maxTokens}.`);
  }
  if (minTokens < 0 || minTokens >= maxTokens) {
    throw new RangeError(`minTokens must be at least 0 and below maxTokens (${maxTokens}); got ${minTokens}.`);
  }
  if (overlap < 0 || overlap >= maxTokens / 2) {
    throw new RangeError(`overlap must be at least 0 and below half of maxTokens (${maxTokens / 2}); got ${overlap}.`);
  }
}

function requireInteger(name: string, value: number): void {
  if (!Number.isInteger(value)) throw new RangeError(`${name} must be an integer; got ${String(value)}.`);
}
