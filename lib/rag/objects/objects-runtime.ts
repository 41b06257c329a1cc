import "server-only";
import { getDatabase } from "../../db";
import { getActiveIndexSpace } from "../index/index-spaces";
import { getQueryEmbedder } from "../search/search-context";
import { createImageEmbedders } from "../embed/create-image-embedders";
import type { ImageEmbedder } from "../embed/image-embedder";
import { type ObjectsRuntime, nearDuplicateFloorFromEnv } from "./similar-objects";

/**
 * The web process's objects runtime: the database, the text embedder shared with search, the
 * image embedders from the environment (built once), and the active text space, read per
 * request so a switch takes effect at once.
 */
const globalForObjects = globalThis as unknown as { mnemoImageEmbedders?: { descriptor: ImageEmbedder; multimodal: ImageEmbedder | null } };

export async function getObjectsRuntime(): Promise<ObjectsRuntime> {
  const { sql } = await getDatabase();
  globalForObjects.mnemoImageEmbedders ??= createImageEmbedders(process.env);
  const { descriptor, multimodal } = globalForObjects.mnemoImageEmbedders;
  const textSpace = await getActiveIndexSpace(sql);
  return {
    sql,
    embedder: getQueryEmbedder(textSpace),
    textSpace,
    descriptor,
    multimodal,
    nearDuplicateFloor: nearDuplicateFloorFromEnv(process.env),
  };
}
