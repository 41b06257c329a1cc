import "server-only";
import { getDatabase } from "../../db";
import { createEmbedder, embedderConfigFromEnv } from "../embed/create-embedder";
import type { Embedder } from "../embed/embedder";
import { getActiveIndexSpace, type IndexSpace } from "../index/index-spaces";
import { embedderForSpace } from "../index/space-embedders";
import { createReranker, rerankerConfigFromEnv, type Reranker } from "./rerank";
import type { SearchContext } from "./search-archive";

/**
 * The web process's search context: its database, the query embedder and reranker built once
 * from the environment (the model loads on first use), and the active index space, read per
 * request so an admin's switch takes effect at once.
 */
const globalForSearch = globalThis as unknown as { mnemoQueryModels?: Map<string, { embedder: Embedder; reranker: Reranker }> };

/**
 * Query models per index space: the active space's own embedder when it has one (a space an
 * admin switched to), else the environment's (the start-up space). Built once per space.
 */
function queryModels(space: IndexSpace | null): { embedder: Embedder; reranker: Reranker } {
  globalForSearch.mnemoQueryModels ??= new Map();
  const key = space?.id ?? "env";
  let models = globalForSearch.mnemoQueryModels.get(key);
  if (!models) {
    const embedder = (space && embedderForSpace(space)) || createEmbedder(embedderConfigFromEnv(process.env));
    models = { embedder, reranker: createReranker(rerankerConfigFromEnv(process.env), embedder) };
    globalForSearch.mnemoQueryModels.set(key, models);
  }
  return models;
}

/** The web process's query embedder (the model of the active index space, loaded once). */
export function getQueryEmbedder(space: IndexSpace | null): Embedder {
  return queryModels(space).embedder;
}

/** MNEMO_SEARCH_RRF_K: the fusion constant (default 60); smaller favours each leg's top ranks. */
export function rrfKFromEnv(env: Record<string, string | undefined>): number | undefined {
  const raw = env.MNEMO_SEARCH_RRF_K?.trim();
  if (!raw) return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || value > 1000) throw new Error(`MNEMO_SEARCH_RRF_K: must be a number from 0 to 1000, got "${raw}"`);
  return value;
}

export async function getSearchContext(): Promise<SearchContext> {
  const { sql } = await getDatabase();
  const space = await getActiveIndexSpace(sql);
  const { embedder, reranker } = queryModels(space);
  return { sql, embedder, reranker, rrfK: rrfKFromEnv(process.env), space };
}
