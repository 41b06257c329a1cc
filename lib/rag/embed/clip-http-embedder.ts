import "server-only";
import { z } from "zod";
import { EmbeddingError, errorMessage, inBatches, normaliseVector } from "./embedder";
import { embeddingsEndpoint } from "./openai-compatible-embedder";
import type { ImageEmbedder } from "./image-embedder";

/**
 * A CLIP-style multimodal model behind HTTP (Jina's API, self-hosted CLIP servers speaking the
 * same shape): POST {baseUrl}/v1/embeddings with `input: [{ image: "data:…;base64,…" }]` or
 * `input: [{ text: "…" }]`, answered OpenAI-style with `data: [{ index, embedding }]`. Image and
 * text vectors share one space, which is what text→image search needs. Images leave the host,
 * so the embedder says `external: true` and callers apply the section's egress policy. Every
 * answer is validated before a vector leaves this module: a wrong count, a wrong dimension or
 * a garbled body fails loudly instead of poisoning an index space.
 */
export interface ClipHttpEmbedderOptions {
  /** e.g. https://api.jina.ai or http://127.0.0.1:51000; a trailing /v1 or / is accepted too. */
  baseUrl: string;
  model: string;
  /** The model's output dimension; every returned vector is checked against it. */
  dimension: number;
  /** Sent as a bearer token when set; never logged nor quoted in errors. */
  apiKey?: string;
  /** Per request, including reading the answer (default 30 s). */
  timeoutMs?: number;
  /** Images or texts per request (default 16: images are large). */
  batchSize?: number;
}

/** Formats the endpoint is promised; callers convert anything else (TIFF, GIF …) first. */
const acceptedMimes = new Set(["image/png", "image/jpeg", "image/webp"]);

const responseSchema = z.object({
  data: z.array(
    z.object({
      // Zod 4 numbers refuse ±Infinity (1e400 in JSON parses to Infinity).
      embedding: z.array(z.number()),
      index: z.int().nonnegative(),
    }),
  ),
});

/** Longest piece of an error body quoted in a message: enough to diagnose, not to flood logs. */
const quotedBodyLength = 300;

type Input = { image: string } | { text: string };

export function createClipHttpEmbedder(options: ClipHttpEmbedderOptions): ImageEmbedder {
  const endpoint = embeddingsEndpoint(options.baseUrl);
  const shownEndpoint = redacted(endpoint);
  const batchSize = options.batchSize ?? 16;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;

  async function embedBatch(input: Input[], what: "images" | "texts"): Promise<Float32Array[]> {
    let response: Response;
    let text: string;
    try {
      response = await fetch(endpoint, {
        method: "POST",
        headers,
        body: JSON.stringify({ model: options.model, input }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
      const reason = timedOut ? `no answer within ${timeoutMs} ms` : networkReason(error);
      throw new EmbeddingError(`Image embedding server ${shownEndpoint}: ${reason}.`, { retryable: true, cause: error });
    }
    if (!response.ok) {
      const retryable = response.status === 408 || response.status === 429 || response.status >= 500;
      throw new EmbeddingError(`Image embedding server ${shownEndpoint} answered HTTP ${response.status}: ${text.slice(0, quotedBodyLength)}`, {
        retryable,
      });
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new EmbeddingError(`Image embedding server ${shownEndpoint} answered with something that is not JSON: ${text.slice(0, quotedBodyLength)}`, {
        retryable: false,
        cause: error,
      });
    }
    const parsed = responseSchema.safeParse(json);
    if (!parsed.success) {
      throw new EmbeddingError(`Image embedding server ${shownEndpoint} answered with an unexpected shape: ${z.prettifyError(parsed.error)}`, {
        retryable: false,
      });
    }
    return inInputOrder(parsed.data.data, input.length, what);
  }

  function inInputOrder(items: z.infer<typeof responseSchema>["data"], expected: number, what: "images" | "texts"): Float32Array[] {
    if (items.length !== expected) {
      throw new EmbeddingError(`Image embedding server returned ${items.length} vectors for ${expected} ${what}.`, { retryable: false });
    }
    const vectors: (Float32Array | undefined)[] = new Array(expected);
    for (const item of items) {
      if (item.index >= expected || vectors[item.index]) {
        throw new EmbeddingError(`Image embedding server returned index ${item.index}, out of range or repeated, for ${expected} ${what}.`, {
          retryable: false,
        });
      }
      if (item.embedding.length !== options.dimension) {
        throw new EmbeddingError(
          `Image embedding model "${options.model}" returned ${item.embedding.length} dimensions, but ${options.dimension} are configured.`,
          { retryable: false },
        );
      }
      vectors[item.index] = normaliseVector(item.embedding);
    }
    // Counts match and no index repeats, so every slot is filled.
    return vectors as Float32Array[];
  }

  async function embedAll(inputs: Input[], what: "images" | "texts"): Promise<Float32Array[]> {
    const vectors: Float32Array[] = [];
    for (const batch of inBatches(inputs, batchSize)) vectors.push(...(await embedBatch(batch, what)));
    return vectors;
  }

  return {
    provider: "clip-http",
    model: options.model,
    dimension: options.dimension,
    external: true,
    async embedImages(images) {
      return embedAll(images.map(toImageInput), "images");
    },
    async embedTexts(texts) {
      texts.forEach((text, index) => {
        if (text.trim().length === 0) throw new EmbeddingError(`Text ${index} is empty: there is nothing to embed.`, { retryable: false });
      });
      return embedAll(
        texts.map((text) => ({ text })),
        "texts",
      );
    },
  };
}

/** One image as the endpoint takes it, refusing what it could never embed before anything is sent. */
function toImageInput(image: { bytes: Uint8Array; mime: string }, index: number): Input {
  const mime = image.mime.trim().toLowerCase();
  if (!acceptedMimes.has(mime)) {
    throw new EmbeddingError(`Image ${index} is ${JSON.stringify(image.mime)}; only PNG, JPEG or WebP can be embedded.`, { retryable: false });
  }
  if (image.bytes.length === 0) throw new EmbeddingError(`Image ${index} is empty: there is nothing to embed.`, { retryable: false });
  const base64 = Buffer.from(image.bytes.buffer, image.bytes.byteOffset, image.bytes.byteLength).toString("base64");
  return { image: `data:${mime};base64,${base64}` };
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
