import "server-only";
import { type Config, getConfig } from "../../config";
import type { SqlExecutor } from "../../db/sql-executor";
import { speechToTextFromConfig } from "../../archive/speech-to-text";
import { CHUNKER_VERSION } from "../chunk";
import { createEmbedder, embedderConfigFromEnv } from "../embed/create-embedder";
import type { Embedder } from "../embed/embedder";
import { createImageEmbedders } from "../embed/create-image-embedders";
import type { ImageEmbedder } from "../embed/image-embedder";
import type { PrismaClient } from "../../db/generated/client";
import { ensureIndexSpace, type IndexSpace } from "./index-spaces";
import type { WorkerOptions } from "./run-worker";
import { writableSpaces } from "./space-embedders";
import { configuredScanReading } from "./read-scans";

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

/** Batches in flight per index worker unless MNEMO_INDEX_CONCURRENCY says otherwise. */
export const defaultIndexConcurrency = 2;

/**
 * What every index worker of this process runs with — the web process's background worker,
 * `npm run worker` and `npm run reindex`: the database, the configured embedder and its space,
 * object indexing, and every other space still being written (candidates, the active one after
 * a switch), recordings' intake and the speech-to-text endpoint. Callers add how they wait, stop
 * and report.
 */
export async function configuredWorker(
  database: { prisma: PrismaClient; sql: SqlExecutor },
  config: Config = getConfig(),
): Promise<
  Pick<WorkerOptions, "prisma" | "sql" | "embedder" | "space" | "objects" | "audio" | "extraSpaces" | "scans" | "concurrency"> & { space: IndexSpace }
> {
  const { embedder, space, objects } = await configuredIndexer(database.sql, config);
  const audio = { storageDir: config.storageDir, speechToText: speechToTextFromConfig(config) };
  return {
    prisma: database.prisma,
    sql: database.sql,
    embedder,
    space,
    objects,
    audio,
    scans: configuredScanReading(config),
    extraSpaces: () => writableSpaces(database.sql),
    concurrency: config.MNEMO_INDEX_CONCURRENCY ?? defaultIndexConcurrency,
  };
}
