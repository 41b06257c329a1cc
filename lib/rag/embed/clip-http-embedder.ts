import "server-only";
import { EmbeddingError, inBatches } from "./embedder";
import { embeddingsEndpoint, postEmbeddings } from "./embeddings-endpoint";
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

type Input = { image: string } | { text: string };

export function createClipHttpEmbedder(options: ClipHttpEmbedderOptions): ImageEmbedder {
  const endpoint = embeddingsEndpoint(options.baseUrl);
  const batchSize = options.batchSize ?? 16;
  const timeoutMs = options.timeoutMs ?? 30_000;

  async function embedBatch(input: Input[], what: "images" | "texts"): Promise<Float32Array[]> {
    return postEmbeddings({
      endpoint,
      apiKey: options.apiKey,
      body: { model: options.model, input },
      expected: input.length,
      timeoutMs,
      model: options.model,
      dimension: options.dimension,
      serverLabel: "Image embedding server",
      modelLabel: "Image embedding model",
      what,
    });
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
