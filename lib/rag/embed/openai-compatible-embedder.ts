import "server-only";
import { z } from "zod";
import { EmbeddingError, assertEmbeddable, errorMessage, inBatches, normaliseVector, type EmbedKind, type Embedder } from "./embedder";

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

const responseSchema = z.object({
  data: z.array(
    z.object({
      embedding: z.array(z.number()),
      index: z.number().int().nonnegative(),
    }),
  ),
});

/** Longest piece of an error body quoted in a message: enough to diagnose, not to flood logs. */
const quotedBodyLength = 300;

export function createOpenAiCompatibleEmbedder(options: OpenAiCompatibleEmbedderOptions): Embedder {
  const endpoint = embeddingsEndpoint(options.baseUrl);
  const batchSize = options.batchSize ?? 64;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxInputTokens = options.maxInputTokens ?? 512;
  const prefixes: Record<EmbedKind, string> = { query: options.queryPrefix ?? "", passage: options.passagePrefix ?? "" };
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;

  async function embedBatch(input: string[]): Promise<Float32Array[]> {
    const body: Record<string, unknown> = { model: options.model, input, encoding_format: "float" };
    if (options.requestDimensions) body.dimensions = options.dimension;
    let response: Response;
    let text: string;
    try {
      response = await fetch(endpoint, {
        method: "POST",
        headers,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
      const reason = timedOut ? `no answer within ${timeoutMs} ms` : networkReason(error);
      throw new EmbeddingError(`Embedding server ${redacted(endpoint)}: ${reason}.`, { retryable: true, cause: error });
    }
    if (!response.ok) {
      const retryable = response.status === 408 || response.status === 429 || response.status >= 500;
      throw new EmbeddingError(
        `Embedding server ${redacted(endpoint)} answered HTTP ${response.status}: ${text.slice(0, quotedBodyLength)}`,
        { retryable },
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new EmbeddingError(`Embedding server ${redacted(endpoint)} answered with something that is not JSON: ${text.slice(0, quotedBodyLength)}`, {
        retryable: false,
        cause: error,
      });
    }
    const parsed = responseSchema.safeParse(json);
    if (!parsed.success) {
      throw new EmbeddingError(`Embedding server ${redacted(endpoint)} answered with an unexpected shape: ${z.prettifyError(parsed.error)}`, {
        retryable: false,
      });
    }
    return inInputOrder(parsed.data.data, input.length);
  }

  function inInputOrder(items: z.infer<typeof responseSchema>["data"], expected: number): Float32Array[] {
    if (items.length !== expected) {
      throw new EmbeddingError(`Embedding server returned ${items.length} vectors for ${expected} texts.`, { retryable: false });
    }
    const vectors: (Float32Array | undefined)[] = new Array(expected);
    for (const item of items) {
      if (item.index >= expected || vectors[item.index]) {
        throw new EmbeddingError(`Embedding server returned index ${item.index}, out of range or repeated, for ${expected} texts.`, { retryable: false });
      }
      if (item.embedding.length !== options.dimension) {
        throw new EmbeddingError(
          `Embedding model "${options.model}" returned ${item.embedding.length} dimensions, but ${options.dimension} are configured.`,
          { retryable: false },
        );
      }
      vectors[item.index] = normaliseVector(item.embedding);
    }
    // Counts match and no index repeats, so every slot is filled.
    return vectors as Float32Array[];
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

/** {baseUrl}/v1/embeddings, whether or not the configured base URL already ends in /v1. */
export function embeddingsEndpoint(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "");
  return `${trimmed}/v1/embeddings`;
}

/** The endpoint without any user:password a base URL might carry. */
function redacted(endpoint: string): string {
  const url = new URL(endpoint);
  url.username = "";
  url.password = "";
  return url.toString();
}

function networkReason(error: unknown): string {
  // fetch wraps the socket error ("ECONNREFUSED …") in a generic "fetch failed".
  const cause = error instanceof Error ? error.cause : undefined;
  return cause ? `${errorMessage(error)} (${errorMessage(cause)})` : errorMessage(error);
}

/** Is the URL's host this machine (127.0.0.0/8, ::1, localhost)? */
export function isLoopback(url: string): boolean {
  try {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
    return host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
  } catch {
    return false;
  }
}
