import { z } from "zod";
import { type Environment, envReader, parseEnvConfig } from "./env-config";

/**
 * What every image-vector provider offers the object indexer and the search: encoded images in,
 * unit vectors of one fixed dimension out, and — for CLIP-style models — a text tower whose
 * vectors live in the same space, so a query can find images. The default ("descriptor") runs
 * offline on the pixels; "clip-http" sends images to an HTTP endpoint, which is why `external`
 * exists: a section whose images must not leave the host has to be kept from such a provider.
 */
export interface ImageEmbedder {
  /** "descriptor" | "clip-http" */
  readonly provider: string;
  readonly model: string;
  readonly dimension: number;
  /** True when images leave the host (an HTTP endpoint): callers must apply the section's egress policy. */
  readonly external: boolean;
  /** Unit vectors in the order of `images` (encoded image bytes: PNG/JPEG/WebP); throws EmbeddingError. */
  embedImages(images: { bytes: Uint8Array; mime: string }[]): Promise<Float32Array[]>;
  /** The text tower, when the model has one (CLIP-style): unit vectors comparable with embedImages'. */
  embedTexts?(texts: string[]): Promise<Float32Array[]>;
}

const descriptorConfigSchema = z.object({ kind: z.literal("descriptor") });

const clipHttpConfigSchema = z.object({
  kind: z.literal("clip-http"),
  baseUrl: z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" }),
  model: z.string().min(1, "must name the model"),
  dimension: z.int().min(1).max(4000),
  apiKey: z.string().min(1).optional(),
  timeoutMs: z.int().min(100).max(600_000).default(30_000),
  batchSize: z.int().min(1).max(256).optional(),
});

export const imageEmbedderConfigSchema = z.discriminatedUnion("kind", [descriptorConfigSchema, clipHttpConfigSchema]);

export type ImageEmbedderConfig =
  { kind: "descriptor" } | { kind: "clip-http"; baseUrl: string; model: string; dimension: number; apiKey?: string; timeoutMs?: number; batchSize?: number };

/** Each clip-http config field and the environment variable it is read from, for error messages. */
const variableByField = {
  kind: "MNEMO_IMAGE_EMBEDDER",
  baseUrl: "MNEMO_IMAGE_EMBED_URL",
  model: "MNEMO_IMAGE_EMBED_MODEL",
  dimension: "MNEMO_IMAGE_EMBED_DIMENSION",
  apiKey: "MNEMO_IMAGE_EMBED_API_KEY",
  timeoutMs: "MNEMO_IMAGE_EMBED_TIMEOUT_MS",
} as const;

/**
 * Reads the image embedder from MNEMO_IMAGE_EMBEDDER (descriptor | clip-http, default
 * descriptor) and, for clip-http, the MNEMO_IMAGE_EMBED_* variables. A bad value throws an
 * error that names the variable, so start-up stops with something a person can fix. The API
 * key is never quoted back.
 */
export function imageEmbedderConfigFromEnv(env: Environment): ImageEmbedderConfig {
  const { problems, number, texts } = envReader(env, variableByField);
  const kind = texts("kind").kind ?? "descriptor";
  let config: Record<string, unknown> = { kind };
  if (kind === "clip-http") {
    config = { kind, ...texts("baseUrl", "model", "apiKey"), dimension: number("dimension"), timeoutMs: number("timeoutMs") };
  } else if (kind !== "descriptor") {
    problems.push(`  MNEMO_IMAGE_EMBEDDER: must be descriptor or clip-http, got "${kind}"`);
    config = {};
  }
  return parseEnvConfig(imageEmbedderConfigSchema, config, {
    problems,
    variableByField,
    fallbackVariable: "MNEMO_IMAGE_EMBEDDER",
    title: "Invalid image embedder configuration",
  });
}
