import "server-only";
import { getConfig } from "../../config";
import { getDatabase } from "../../db";
import type { SqlExecutor } from "../../db/sql-executor";
import { getActiveIndexSpace, type IndexSpace } from "../index/index-spaces";
import { getQueryEmbedder } from "../search/search-context";
import { createImageEmbedders } from "../embed/create-image-embedders";
import type { ImageEmbedder } from "../embed/image-embedder";
import type { ObjectsRuntime } from "./similar-objects";

/**
 * The objects part of the web process's runtime: the text embedder shared with search (per
 * space), and the image embedders from the configuration (built once).
 */
const globalForObjects = globalThis as unknown as { mnemoImageEmbedders?: { descriptor: ImageEmbedder; multimodal: ImageEmbedder | null } };

/** The objects runtime over `sql` with `textSpace` as the text space. */
export function objectsRuntimeFor(sql: SqlExecutor, textSpace: IndexSpace | null): ObjectsRuntime {
  globalForObjects.mnemoImageEmbedders ??= createImageEmbedders(getConfig().environment);
  const { descriptor, multimodal } = globalForObjects.mnemoImageEmbedders;
  return { sql, embedder: getQueryEmbedder(textSpace), textSpace, descriptor, multimodal };
}

/** The objects runtime in the active space; app code takes it from the runtime (lib/runtime.ts). */
export async function getObjectsRuntime(): Promise<ObjectsRuntime> {
  const { sql } = await getDatabase();
  return objectsRuntimeFor(sql, await getActiveIndexSpace(sql));
}
