import "server-only";
import { z } from "zod";
import type { Embedder } from "./embedder";
import { createHashEmbedder } from "./hash-embedder";
import { createLocalUseEmbedder } from "./local-use-embedder";
import { createOpenAiCompatibleEmbedder } from "./openai-compatible-embedder";
import { type Environment, envReader, parseEnvConfig, present } from "./env-config";

/**
 * Which embedding model the app uses, validated once. The default runs in process with no
 * setup; an OpenAI-compatible server brings a multilingual model; the hash embedder exists
 * for tests and must be asked for by name.
 */
const localUseConfigSchema = z.object({
  provider: z.literal("local-use"),
  batchSize: z.int().min(1).max(256).optional(),
});

const openAiCompatibleConfigSchema = z.object({
  provider: z.literal("openai-compatible"),
  baseUrl: z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" }),
  apiKey: z.string().min(1).optional(),
  model: z.string().min(1, "must name the model"),
  dimension: z.int().min(1).max(16_000),
  batchSize: z.int().min(1).max(2048).optional(),
  timeoutMs: z.int().min(100).max(600_000).optional(),
  queryPrefix: z.string().optional(),
  passagePrefix: z.string().optional(),
  maxInputTokens: z.int().min(16).max(131_072).optional(),
  requestDimensions: z.boolean().optional(),
  language: z.enum(["en", "multilingual"]).optional(),
  external: z.boolean().optional(),
});

const hashConfigSchema = z.object({
  provider: z.literal("hash"),
  dimension: z.int().min(2).max(4096).default(256),
  language: z.enum(["en", "multilingual"]).optional(),
  allowInProduction: z.boolean().optional(),
});

export const embedderConfigSchema = z.discriminatedUnion("provider", [localUseConfigSchema, openAiCompatibleConfigSchema, hashConfigSchema]);

export type EmbedderConfig = z.input<typeof embedderConfigSchema>;

export function createEmbedder(config: EmbedderConfig): Embedder {
  const parsed = embedderConfigSchema.safeParse(config);
  if (!parsed.success) {
    throw new Error(`Invalid embedder configuration:\n${z.prettifyError(parsed.error)}`);
  }
  const valid = parsed.data;
  switch (valid.provider) {
    case "local-use":
      return createLocalUseEmbedder({ batchSize: valid.batchSize });
    case "openai-compatible":
      return createOpenAiCompatibleEmbedder(valid);
    case "hash":
      return createHashEmbedder(valid);
  }
}

/** Each config field and the environment variable it is read from, for error messages. */
const variableByField = {
  provider: "MNEMO_EMBEDDER",
  baseUrl: "MNEMO_EMBEDDING_BASE_URL",
  apiKey: "MNEMO_EMBEDDING_API_KEY",
  model: "MNEMO_EMBEDDING_MODEL",
  dimension: "MNEMO_EMBEDDING_DIMENSION",
  batchSize: "MNEMO_EMBEDDING_BATCH_SIZE",
  timeoutMs: "MNEMO_EMBEDDING_TIMEOUT_MS",
  queryPrefix: "MNEMO_EMBEDDING_QUERY_PREFIX",
  passagePrefix: "MNEMO_EMBEDDING_PASSAGE_PREFIX",
  maxInputTokens: "MNEMO_EMBEDDING_MAX_INPUT_TOKENS",
  requestDimensions: "MNEMO_EMBEDDING_REQUEST_DIMENSIONS",
  language: "MNEMO_EMBEDDING_LANGUAGE",
  external: "MNEMO_EMBEDDING_EXTERNAL",
} as const;

/**
 * Reads the embedder from MNEMO_EMBEDDER (local-use | openai-compatible | hash, default
 * local-use) and the MNEMO_EMBEDDING_* variables. A bad value throws an error that names the
 * variable, so start-up stops with something a person can fix.
 */
export function embedderConfigFromEnv(env: Environment): EmbedderConfig {
  const provider = present(env.MNEMO_EMBEDDER) ?? "local-use";
  const { problems, number, flag } = envReader(env, variableByField);

  let config: Record<string, unknown>;
  switch (provider) {
    case "local-use":
      config = { provider, batchSize: number("batchSize") };
      break;
    case "openai-compatible":
      config = {
        provider,
        baseUrl: present(env.MNEMO_EMBEDDING_BASE_URL),
        apiKey: present(env.MNEMO_EMBEDDING_API_KEY),
        model: present(env.MNEMO_EMBEDDING_MODEL),
        dimension: number("dimension"),
        batchSize: number("batchSize"),
        timeoutMs: number("timeoutMs"),
        // Prefixes are taken as written: "query: " ends in a space on purpose.
        queryPrefix: env.MNEMO_EMBEDDING_QUERY_PREFIX,
        passagePrefix: env.MNEMO_EMBEDDING_PASSAGE_PREFIX,
        maxInputTokens: number("maxInputTokens"),
        requestDimensions: flag("requestDimensions"),
        language: present(env.MNEMO_EMBEDDING_LANGUAGE),
        external: flag("external"),
      };
      break;
    case "hash":
      if (env.MNEMO_ALLOW_HASH_EMBEDDER !== "1") {
        problems.push('  MNEMO_EMBEDDER: "hash" is a test embedder with no notion of meaning; set MNEMO_ALLOW_HASH_EMBEDDER=1 to use it');
      }
      // The flag above is the explicit permission, in production too.
      config = { provider, dimension: number("dimension"), allowInProduction: true };
      break;
    default:
      problems.push(`  MNEMO_EMBEDDER: must be local-use, openai-compatible or hash, got "${provider}"`);
      config = {};
  }
  return parseEnvConfig(embedderConfigSchema, config, {
    problems,
    variableByField,
    fallbackVariable: "MNEMO_EMBEDDER",
    title: "Invalid embedding configuration",
  });
}
