import "server-only";
import { type Config, getConfig } from "../../config";
import { z } from "zod";
import type { SqlExecutor } from "../../db/sql-executor";
import { CHUNKER_VERSION } from "../chunk";
import { createEmbedder, embedderConfigFromEnv } from "../embed/create-embedder";
import type { Embedder } from "../embed/embedder";
import { type IndexSpace, registerIndexSpace, toSpace } from "./index-spaces";

/**
 * Each index space knows how to build its embedder, so the worker can fill a candidate space
 * beside the active one and search can follow an admin's switch. A space registered from the
 * environment has no stored config and uses the environment's embedder; a space an admin
 * registered stores its provider, URL, model and dimension, and the NAME of the environment
 * variable holding its API key — never the key.
 */
export const spaceConfigSchema = z.discriminatedUnion("provider", [
  z.object({ provider: z.literal("local-use") }),
  z.object({
    provider: z.literal("openai-compatible"),
    baseUrl: z.url({ protocol: /^https?$/, error: "Give an http:// or https:// URL." }),
    model: z.string().trim().min(1, "Name the model.").max(200),
    dimension: z.int("The dimension is a whole number.").min(2, "At least 2 dimensions.").max(4000, "At most 4000 dimensions."),
    apiKeyEnv: z
      .string()
      .regex(/^[A-Z][A-Z0-9_]{0,63}$/, "The name of an environment variable, e.g. MNEMO_CANDIDATE_API_KEY.")
      .optional(),
    language: z.enum(["en", "multilingual"]).optional(),
    queryPrefix: z.string().max(40).optional(),
    passagePrefix: z.string().max(40).optional(),
  }),
  z.object({ provider: z.literal("hash"), dimension: z.int().min(2).max(4096) }),
]);
export type SpaceConfig = z.infer<typeof spaceConfigSchema>;

const cache = new Map<string, Embedder>();

/** The embedder of a space: from its stored config, or the environment's when that is the space's model. */
export function embedderForSpace(space: IndexSpace & { config?: unknown }, config: Config = getConfig()): Embedder | null {
  const key = `${space.id}:${JSON.stringify(space.config ?? null)}`;
  const cached = cache.get(key);
  if (cached) return cached;
  let embedder: Embedder | null = null;
  const parsed = spaceConfigSchema.safeParse(space.config);
  if (parsed.success) {
    const hashRefused = parsed.data.provider === "hash" && !config.hashEmbedderAllowed;
    if (!hashRefused) embedder = identityOf(parsed.data);
  } else {
    const fromEnv = createEmbedder(embedderConfigFromEnv(config.environment));
    if (fromEnv.provider === space.provider && fromEnv.model === space.model && fromEnv.dimension === space.dimension) embedder = fromEnv;
  }
  if (embedder && (embedder.provider !== space.provider || embedder.model !== space.model || embedder.dimension !== space.dimension)) embedder = null;
  if (embedder) cache.set(key, embedder);
  return embedder;
}

export interface StoredSpace extends IndexSpace {
  config: unknown;
  createdAt: Date;
  activatedAt: Date | null;
}

export async function listSpaces(sql: SqlExecutor): Promise<StoredSpace[]> {
  const rows = await sql.query<Record<string, unknown>>(`SELECT * FROM index_spaces ORDER BY created_at`);
  return rows.map((row) => ({
    ...toSpace(row),
    config: row.config ?? null,
    createdAt: new Date(row.created_at as string),
    activatedAt: row.activated_at ? new Date(row.activated_at as string) : null,
  }));
}

/** The spaces the worker writes to: the active one and any being built, with their embedders. */
export async function writableSpaces(sql: SqlExecutor, config: Config = getConfig()): Promise<{ space: IndexSpace; embedder: Embedder }[]> {
  const spaces = (await listSpaces(sql)).filter((space) => space.status === "active" || space.status === "building");
  return spaces.flatMap((space) => {
    const embedder = embedderForSpace(space, config);
    return embedder ? [{ space, embedder }] : [];
  });
}

/** Registers a space from a validated config (idempotent by name) with its partial HNSW index. */
export async function registerConfiguredSpace(sql: SqlExecutor, config: SpaceConfig): Promise<IndexSpace> {
  const embedder = identityOf(config);
  const space = await registerIndexSpace(sql, {
    provider: embedder.provider,
    model: embedder.model,
    dimension: embedder.dimension,
    chunkerVersion: CHUNKER_VERSION,
  });
  await sql.query(`UPDATE index_spaces SET config = $2::jsonb WHERE id = $1 AND status <> 'active'`, [space.id, JSON.stringify(config)]);
  return space;
}

function identityOf(config: SpaceConfig): Embedder {
  // The key's variable is named by the admin who registered the space, so it is read where it is.
  if (config.provider === "openai-compatible")
    return createEmbedder({ ...config, apiKey: config.apiKeyEnv ? process.env[config.apiKeyEnv] || undefined : undefined });
  if (config.provider === "hash") return createEmbedder({ provider: "hash", dimension: config.dimension, allowInProduction: true });
  return createEmbedder({ provider: "local-use" });
}
