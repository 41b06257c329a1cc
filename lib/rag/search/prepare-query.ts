import "server-only";
import { prepareForEmbedding, type PrepareOptions, type PreparedText } from "../embed/bridge-text";
import { EmbeddingError, type Embedder } from "../embed/embedder";
import { createTranslationCache } from "../embed/translation-cache";

/**
 * A query read by the translation bridge (language, English translation) and embedded for the
 * space's model. The bridge's readings are cached per process: Apertium costs a second or more a
 * run, and paging through results or switching modes asks for the same query again.
 */
export interface QueryEmbedding {
  embedder: Embedder;
  /** Translation bridge and language detection for the query (tests substitute them). */
  prepare?: PrepareOptions;
}

// Queries prepared by the process's bridge: the 500 read most recently, a reading still running
// shared (a question the ask pipeline reads while its search reads it too goes through Apertium once).
const preparedQueries = createTranslationCache<PreparedText | undefined>(500);

/**
 * The bridge's reading of a query (language, English translation), remembered per model
 * language: the search and the ask pipeline that follows it read a question once.
 */
export async function prepareQuery(context: QueryEmbedding, query: string): Promise<PreparedText | undefined> {
  // Tests substitute the bridge: their answers are never remembered for the process.
  if (context.prepare) return (await prepareForEmbedding([{ text: query }], context.embedder, context.prepare))[0];
  const key = `${context.embedder.language}\u0000${query}`;
  return preparedQueries.remember(key, async () => (await prepareForEmbedding([{ text: query }], context.embedder))[0]);
}

/** Embeds a query for the space's model: translated to English first when the model needs it. */
export async function embedQuery(context: QueryEmbedding, query: string): Promise<Float32Array> {
  return (await embedQueryDetected(context, query)).vector;
}

/**
 * embedQuery, with the query's language as detected for the bridge ("und" when too short) and
 * the bridge's English translation of it (null when none was made).
 */
export async function embedQueryDetected(
  context: QueryEmbedding,
  query: string,
): Promise<{ vector: Float32Array; language: string; translatedText: string | null }> {
  const prepared = await prepareQuery(context, query);
  const [vector] = await context.embedder.embed([prepared?.embeddedText ?? query], "query");
  if (!vector) throw new EmbeddingError("The embedder returned no vector for the query.", { retryable: false });
  return { vector, language: prepared?.language ?? "und", translatedText: prepared?.translatedText ?? null };
}
