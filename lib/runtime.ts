import "server-only";
import { type Config, getConfig } from "./config";
import { getDatabase, type Database } from "./db";
import { type RateLimiter, createRateLimiter, rateLimitFromConfig } from "./rate-limit";
import { askContextFor } from "./rag/ask/ask-context";
import { generatorFromConfig } from "./rag/ask/create-generator";
import { researchModelFromConfig } from "./llm/research-model";
import { embedderConfigFromEnv } from "./rag/embed/create-embedder";
import { createHashEmbedder } from "./rag/embed/hash-embedder";
import { imageEmbedderConfigFromEnv } from "./rag/embed/image-embedder";
import { rerankerConfigFromConfig } from "./rag/search/rerank";
import { speechToTextFromConfig } from "./archive/speech-to-text";
import type { AskContext } from "./rag/ask/ask";
import { getActiveIndexSpace, type IndexSpace } from "./rag/index/index-spaces";
import { objectsRuntimeFor } from "./rag/objects/objects-runtime";
import type { ObjectsRuntime } from "./rag/objects/similar-objects";
import type { SearchContext } from "./rag/search/search-archive";
import { searchContextFor } from "./rag/search/search-context";

/**
 * The process's composition root: what actions, routes and pages work with, handed to them by
 * their wrappers (lib/http/authorized.ts) so app code never assembles it. The configuration,
 * the database and the API's rate limiter are built once per process; the models — query
 * embedder, reranker and answer generator — once per index space (lib/rag/search/search-context.ts,
 * lib/rag/ask/ask-context.ts), and a runtime reads the active space when first asked, so an
 * admin's switch takes effect at the next request and no answer uses a stale space's model.
 */
export interface Runtime {
  config: Config;
  database: Database;
  /** The API's per-token rate limiter (one per process). */
  limiter: RateLimiter;
  /** The active index space, read once per runtime. */
  space(): Promise<IndexSpace | null>;
  search(): Promise<SearchContext>;
  ask(): Promise<AskContext>;
  objects(): Promise<ObjectsRuntime>;
}

const globalForRuntime = globalThis as unknown as { mnemoLimiter?: RateLimiter };

/** The process's rate limiter, from MNEMO_API_RATE_LIMIT and MNEMO_API_RATE_BURST. */
export function processLimiter(): RateLimiter {
  globalForRuntime.mnemoLimiter ??= createRateLimiter(rateLimitFromConfig(getConfig()));
  return globalForRuntime.mnemoLimiter;
}

/** A runtime over `database` (the process's, or a test's) in its active index space. */
export function runtimeOver(database: Database, limiter: RateLimiter = processLimiter()): Runtime {
  let space: Promise<IndexSpace | null> | undefined;
  const activeSpace = () => (space ??= getActiveIndexSpace(database.sql));
  const search = async () => searchContextFor(database.sql, await activeSpace());
  return {
    config: getConfig(),
    database,
    limiter,
    space: activeSpace,
    search,
    ask: async () => askContextFor(database, await search()),
    objects: async () => objectsRuntimeFor(database.sql, await activeSpace()),
  };
}

/** This process's runtime, for one request. */
export async function getRuntime(): Promise<Runtime> {
  return runtimeOver(await getDatabase());
}

/**
 * The configuration, checked whole: every variable (lib/config.ts), then how the variables of
 * each model combine (an http reranker needs its URL, a chat generator its model…). Throws an
 * error naming the variable; the start-up of the web process and of `npm run worker` calls it
 * before anything else, so a bad value stops the process instead of failing on first use.
 */
export function checkConfiguration(): Config {
  const config = getConfig();
  embedderConfigFromEnv(config.environment);
  imageEmbedderConfigFromEnv(config.environment);
  rerankerConfigFromConfig(config);
  speechToTextFromConfig(config);
  // Only whether it can be built: the extractive generator takes the space's embedder later.
  generatorFromConfig(config, createHashEmbedder({ allowInProduction: true }));
  researchModelFromConfig(config);
  return config;
}

/** For process entry points: the checked configuration, or the problem on stderr and exit code 1. */
export function checkConfigurationOrExit(): Config {
  try {
    return checkConfiguration();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
