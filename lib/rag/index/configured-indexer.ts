import "server-only";
import type { SqlExecutor } from "../../db/sql-executor";
import { CHUNKER_VERSION } from "../chunk";
import { createEmbedder, embedderConfigFromEnv } from "../embed/create-embedder";
import type { Embedder } from "../embed/embedder";
import { ensureIndexSpace, type IndexSpace } from "./index-spaces";

/** The embedder configured by the environment, and the index space it writes to. */
export async function configuredIndexer(sql: SqlExecutor, env: NodeJS.ProcessEnv = process.env): Promise<{ embedder: Embedder; space: IndexSpace }> {
  const embedder = createEmbedder(embedderConfigFromEnv(env));
  const space = await ensureIndexSpace(sql, {
    provider: embedder.provider,
    model: embedder.model,
    dimension: embedder.dimension,
    chunkerVersion: CHUNKER_VERSION,
  });
  return { embedder, space };
}
