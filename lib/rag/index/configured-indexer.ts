import "server-only";
import { type Config, getConfig } from "../../config";
import type { SqlExecutor } from "../../db/sql-executor";
import { CHUNKER_VERSION } from "../chunk";
import { createEmbedder, embedderConfigFromEnv } from "../embed/create-embedder";
import type { Embedder } from "../embed/embedder";
import { createImageEmbedders } from "../embed/create-image-embedders";
import type { ImageEmbedder } from "../embed/image-embedder";
import { ensureIndexSpace, type IndexSpace } from "./index-spaces";

/**
 * The embedder configured by the environment and the index space it writes to, and what the
 * worker needs for objects: the media storage and the image embedders.
 */
export async function configuredIndexer(
  sql: SqlExecutor,
  config: Config = getConfig(),
): Promise<{ embedder: Embedder; space: IndexSpace; objects: { storageDir: string; imageEmbedders: ImageEmbedder[] } }> {
  const embedder = createEmbedder(embedderConfigFromEnv(config.environment));
  const space = await ensureIndexSpace(sql, {
    provider: embedder.provider,
    model: embedder.model,
    dimension: embedder.dimension,
    chunkerVersion: CHUNKER_VERSION,
  });
  return { embedder, space, objects: { storageDir: config.storageDir, imageEmbedders: createImageEmbedders(config.environment).all } };
}
