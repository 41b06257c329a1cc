import "server-only";
import { assertEmbeddable, inBatches, type EmbedKind, type Embedder } from "./embedder";
import { embeddingsEndpoint, isLoopback, postEmbeddings } from "./embeddings-endpoint";

export { embeddingsEndpoint, isLoopback } from "./embeddings-endpoint";

/**
 * Any server that speaks OpenAI's embeddings API: Ollama, vLLM, Hugging Face TEI, OpenAI.
 * Every answer is validated before a vector leaves this module: a server that returns the
 * wrong number of vectors, the wrong dimension or a garbled body fails loudly instead of
 * poisoning an index space.
 */
export interface OpenAiCompatibleEmbedderOptions {
  /** e.g. http://127.0.0.1:11434 (Ollama); a trailing /v1 is accepted too. */
  baseUrl: string;
  /** Sent as a bearer token when set; local servers usually need none. */
  apiKey?: string;
  model: string;
  /** The model's output dimension; every returned vector is checked against it. */
  dimension: number;
  /** Texts per request (default 64). */
  batchSize?: number;
  /** Per request, including reading the answer (default 30 s). */
  timeoutMs?: number;
  /** Prepended to queries, e.g. "query: " for e5 models. */
  queryPrefix?: string;
  /** Prepended to passages, e.g. "passage: " for e5 models. */
  passagePrefix?: string;
  /** The model's context window in tokens (default 512). */
  maxInputTokens?: number;
  /**
   * Send `dimensions` in the request. Only for models that can shorten their output
   * (OpenAI text-embedding-3-*, Matryoshka models); others reject the field.
   */
  requestDimensions?: boolean;
  /** "en" routes Spanish and Catalan through the translation bridge (default "multilingual"). */
  language?: "en" | "multilingual";
  /**
   * Whether texts leave this host. Default: true unless the endpoint is on loopback (a local
   * Ollama or vLLM); MNEMO_EMBEDDING_EXTERNAL overrides (e.g. a server inside the institution).
   */
  external?: boolean;
}

export function createOpenAiCompatibleEmbedder(options: OpenAiCompatibleEmbedderOptions): Embedder {
  const endpoint = embeddingsEndpoint(options.baseUrl);
  const batchSize = options.batchSize ?? 64;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxInputTokens = options.maxInputTokens ?? 512;
  const prefixes: Record<EmbedKind, string> = { query: options.queryPrefix ?? "", passage: options.passagePrefix ?? "" };

  async function embedBatch(input: string[]): Promise<Float32Array[]> {
    const body: Record<string, unknown> = { model: options.model, input, encoding_format: "float" };
    if (options.requestDimensions) body.dimensions = options.dimension;
    return postEmbeddings({
      endpoint,
      apiKey: options.apiKey,
      body,
      expected: input.length,
      timeoutMs,
      model: options.model,
      dimension: options.dimension,
      serverLabel: "Embedding server",
      modelLabel: "Embedding model",
      what: "texts",
    });
  }

  return {
    provider: "openai-compatible",
    external: options.external ?? !isLoopback(options.baseUrl),
    model: options.model,
    dimension: options.dimension,
    maxInputTokens,
    language: options.language ?? "multilingual",
    async embed(texts: string[], kind: EmbedKind): Promise<Float32Array[]> {
      assertEmbeddable(texts, maxInputTokens);
      const prefix = prefixes[kind];
      const vectors: Float32Array[] = [];
      for (const batch of inBatches(texts, batchSize)) {
        vectors.push(...(await embedBatch(batch.map((text) => prefix + text))));
      }
      return vectors;
    },
  };
}
