import "server-only";
import { getConfig } from "../../config";
import { getDatabase } from "../../db";
import type { SqlExecutor } from "../../db/sql-executor";
import { createEmbedder, embedderConfigFromEnv } from "../embed/create-embedder";
import type { Embedder } from "../embed/embedder";
import { getActiveIndexSpace, type IndexSpace } from "../index/index-spaces";
import { embedderForSpace } from "../index/space-embedders";
import { createReranker, rerankerConfigFromConfig, type Reranker } from "./rerank";
import type { SearchContext } from "./search-archive";
import { withQueryCache } from "../embed/query-cache";

/**
 * The search part of the web process's runtime (lib/runtime.ts composes it with the database,
 * the generator and the limiter): the query embedder and reranker of each index space, built
 * once per space from the configuration (the model loads on first use).
 */
const globalForSearch = globalThis as unknown as { mnemoQueryModels?: Map<string, { embedder: Embedder; reranker: Reranker }> };

/** The key models are kept under: the space's id, or "env" before any space exists. */
export function spaceKey(space: IndexSpace | null): string {
  return space?.id ?? "env";
}

/**
 * Query models per index space: the active space's own embedder when it has one (a space an
 * admin switched to), else the configured one (the start-up space). Built once per space.
 */
export function queryModels(space: IndexSpace | null): { embedder: Embedder; reranker: Reranker } {
  globalForSearch.mnemoQueryModels ??= new Map();
  const key = spaceKey(space);
  let models = globalForSearch.mnemoQueryModels.get(key);
  if (!models) {
    const config = getConfig();
    const embedder = withQueryCache((space && embedderForSpace(space)) || createEmbedder(embedderConfigFromEnv(config.environment)));
    models = { embedder, reranker: createReranker(rerankerConfigFromConfig(config), embedder) };
    globalForSearch.mnemoQueryModels.set(key, models);
  }
  return models;
}

/** The web process's query embedder (the model of the active index space, loaded once). */
export function getQueryEmbedder(space: IndexSpace | null): Embedder {
  return queryModels(space).embedder;
}

/** The search context over `sql` in `space`: that space's models. */
export function searchContextFor(sql: SqlExecutor, space: IndexSpace | null): SearchContext {
  const { embedder, reranker } = queryModels(space);
  return { sql, embedder, reranker, space };
}

/** The search context in the active space; app code takes it from the runtime (lib/runtime.ts). */
export async function getSearchContext(): Promise<SearchContext> {
  const { sql } = await getDatabase();
  return searchContextFor(sql, await getActiveIndexSpace(sql));
}
