import { z } from "zod";

/**
 * Environment, parsed once: every variable the app reads, with its default and meaning (README's
 * Configuration table lists the operator's, docs/configuration.md all of them). Variables only
 * scripts and tests read (MNEMO_TEST_*, MNEMO_BENCH_*, …) are read there from process.env and
 * listed in docs/development.md. A bad value stops the process at start-up (lib/start-up.ts)
 * with a message naming the variable and the value, instead of failing on first use. Kept free
 * of "server-only" so scripts (seed, migrate) can use it too; it holds no secrets that are not
 * already in the process environment.
 *
 * Variables that together describe one model (MNEMO_EMBEDDER with MNEMO_EMBEDDING_*, the image
 * embedder, the reranker, the generator with MNEMO_LLM_*) are checked here one by one; the
 * builders under lib/rag turn them into a model from `config.environment` and check how they
 * combine, which the start-up does once too (lib/runtime.ts, checkModelConfiguration).
 */

/** Unset and "" (or only spaces) are the same: the default applies. */
const unset = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : typeof value === "string" ? value.trim() : value);

const text = () => z.preprocess(unset, z.string().optional());

function number(options: { min: number; max?: number; whole?: boolean }) {
  const { min, max, whole } = options;
  const what = `${whole ? "a whole number" : "a number"} ${max === undefined ? `of at least ${min}` : `from ${min} to ${max}`}`;
  return z.preprocess(
    unset,
    z
      .string()
      .optional()
      .transform((raw, context) => {
        if (raw === undefined) return undefined;
        const value = Number(raw);
        if (!Number.isFinite(value) || (whole && !Number.isInteger(value)) || value < min || (max !== undefined && value > max)) {
          context.addIssue({ code: "custom", message: `must be ${what}` });
          return z.NEVER;
        }
        return value;
      }),
  );
}

function choice<const Values extends readonly [string, ...string[]]>(values: Values) {
  return z.preprocess(unset, z.enum(values, { error: () => `must be ${values.slice(0, -1).join(", ")} or ${values.at(-1)}` }).optional());
}

const httpUrl = () =>
  z.preprocess(
    unset,
    z
      .string()
      .regex(/^https?:\/\/\S+$/, "must be an http(s) URL")
      .optional(),
  );
const flag = () => choice(["1", "true", "0", "false"]);

const configSchema = z.object({
  // Process and database.
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  /** Server mode (Postgres 15+ with pgvector) when set; unset, embedded PGlite in MNEMO_DATA_DIR. */
  DATABASE_URL: z.preprocess(
    unset,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
      .optional(),
  ),
  /** Connections per process in server mode. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  /** The embedded database (pgdata/), the demo's auth secret and the default media storage. */
  MNEMO_DATA_DIR: z.string().min(1).default(".data"),
  /** Where media files live (share it between web processes); default <data dir>/media. */
  MNEMO_STORAGE_DIR: z.string().min(1).optional(),
  /** Largest accepted upload. */
  MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(50 * 1024 * 1024),
  /** Largest accepted bulk-import file (CSV, JSON, JSON Lines). */
  MNEMO_IMPORT_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(50 * 1024 * 1024),
  /** The server folder under which an admin may name an import's media folder; unset: no media from folders. */
  MNEMO_IMPORT_MEDIA_ROOT: z.string().min(1).optional(),
  /** Largest zip of media files uploaded with an import (the page sends file and zip in one form of at most 50 MB). */
  MNEMO_IMPORT_MAX_ZIP_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(40 * 1024 * 1024),
  /**
   * The HNSW index's graph: links per node (m) and the beam while building (ef_construction),
   * for indexes created after they are set (docs/operations.md says how to rebuild one). More
   * of each finds the nearest passages more surely in a large archive, at a longer build.
   */
  MNEMO_HNSW_M: z.coerce.number().int().min(4).max(100).default(16),
  MNEMO_HNSW_EF_CONSTRUCTION: z.coerce.number().int().min(8).max(1000).default(64),
  /**
   * Passages the meaning leg walks from the HNSW graph past its beam before keeping the nearest
   * (unset: the page it needs). A million passages need ~1,500 on a graph of m 32 to find 0.97 of
   * the exact nearest (decision 0011); a small archive needs none.
   */
  MNEMO_DENSE_WALK: z.preprocess(unset, z.coerce.number().int().min(60).max(10_000).optional()),
  /** The repository's name in OAI-PMH Identify. */
  MNEMO_OAI_REPOSITORY_NAME: z.string().trim().min(1).max(200).default("Mnemo"),
  /** The contact address OAI-PMH Identify publishes (unset: oai@ the configured host). */
  MNEMO_OAI_ADMIN_EMAIL: z.preprocess(unset, z.email().optional()),
  /** The IIIF image service's renders a minute one address may ask without signing in (served from the cache is not a render). */
  MNEMO_IIIF_ANONYMOUS_RENDERS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(120),
  /** Set by `next build`; the start-up neither migrates nor indexes during a build. */
  NEXT_PHASE: text(),

  // Sign-in.
  /** Signs session tokens; required for `npm start` outside the demo. */
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  /**
   * Signs and checks project backups instead of the key the installation keeps in its database
   * (lib/admin/backup/backup-key.ts): 64 hex characters, as `npm run backup:key` prints them.
   */
  MNEMO_BACKUP_KEY: z.preprocess(
    unset,
    z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, "must be 64 hex characters (32 bytes), as `npm run backup:key` prints a key")
      .optional(),
  ),
  /** The app's public URL behind a proxy; also the origin the API documents. */
  AUTH_URL: z.url().optional(),
  AUTH_OIDC_ISSUER: z.url().optional(),
  AUTH_OIDC_ID: z.string().min(1).optional(),
  AUTH_OIDC_SECRET: z.string().min(1).optional(),
  AUTH_OIDC_NAME: z.string().min(1).default("Single sign-on"),
  /**
   * Reverse proxies whose X-Forwarded-For is believed: IP addresses and CIDR ranges, separated by
   * commas or spaces. Unset, the client address is the socket's peer and the header is ignored.
   */
  MNEMO_TRUSTED_PROXIES: z
    .string()
    .default("")
    .transform((text) => text.split(/[\s,]+/).filter(Boolean))
    .pipe(
      z.array(
        z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()], {
          error: (issue) => `${JSON.stringify(issue.input)} is not an IP address or CIDR range (e.g. 127.0.0.1, 10.0.0.0/8, fd00::/8)`,
        }),
      ),
    ),

  // Text embedder (lib/rag/embed/create-embedder.ts).
  /** local-use (offline Universal Sentence Encoder lite), openai-compatible, or hash (tests only). */
  MNEMO_EMBEDDER: choice(["local-use", "openai-compatible", "hash"]).default("local-use"),
  /** `1` permits the hash embedder, in production too. */
  MNEMO_ALLOW_HASH_EMBEDDER: choice(["1", "0"]),
  MNEMO_EMBEDDING_BASE_URL: httpUrl(),
  MNEMO_EMBEDDING_API_KEY: text(),
  MNEMO_EMBEDDING_MODEL: text(),
  MNEMO_EMBEDDING_DIMENSION: number({ min: 1, max: 16_000, whole: true }),
  MNEMO_EMBEDDING_BATCH_SIZE: number({ min: 1, whole: true }),
  MNEMO_EMBEDDING_TIMEOUT_MS: number({ min: 1, whole: true }),
  /** Taken as written ("query: " ends in a space on purpose). */
  MNEMO_EMBEDDING_QUERY_PREFIX: z.string().optional(),
  MNEMO_EMBEDDING_PASSAGE_PREFIX: z.string().optional(),
  MNEMO_EMBEDDING_MAX_INPUT_TOKENS: number({ min: 1, whole: true }),
  /** Whether to send `dimensions` with each request (models with Matryoshka embeddings). */
  MNEMO_EMBEDDING_REQUEST_DIMENSIONS: flag(),
  /** The language the model understands (e.g. `en`: the bridge translates for it). */
  MNEMO_EMBEDDING_LANGUAGE: text(),
  /** Whether the endpoint is outside this host (default: a remote URL is, a loopback one is not). */
  MNEMO_EMBEDDING_EXTERNAL: flag(),

  // Image embedders (lib/rag/embed/image-embedder.ts).
  /** descriptor (the offline pixel descriptor) or clip-http (adds a CLIP-style endpoint). */
  MNEMO_IMAGE_EMBEDDER: choice(["descriptor", "clip-http"]).default("descriptor"),
  MNEMO_IMAGE_EMBED_URL: httpUrl(),
  MNEMO_IMAGE_EMBED_MODEL: text(),
  MNEMO_IMAGE_EMBED_DIMENSION: number({ min: 1, max: 16_000, whole: true }),
  MNEMO_IMAGE_EMBED_API_KEY: text(),
  MNEMO_IMAGE_EMBED_TIMEOUT_MS: number({ min: 1, whole: true }),

  // Search (lib/rag/search).
  /** none, local (sentence re-scoring with the embedder) or http (a cross-encoder at MNEMO_RERANK_URL). */
  MNEMO_RERANKER: choice(["none", "local", "http"]).default("none"),
  MNEMO_RERANK_URL: httpUrl(),
  MNEMO_RERANK_MODEL: text(),
  MNEMO_RERANK_API_KEY: text(),
  MNEMO_RERANK_TIMEOUT_MS: number({ min: 1, whole: true }),

  // Answers (lib/rag/ask).
  /** extractive (offline, quotes its sources), openai-compatible or anthropic. */
  MNEMO_GENERATOR: choice(["extractive", "openai-compatible", "anthropic"]).default("extractive"),
  MNEMO_LLM_BASE_URL: httpUrl(),
  MNEMO_LLM_API_KEY: text(),
  MNEMO_LLM_MODEL: text(),
  MNEMO_LLM_TIMEOUT_MS: number({ min: 1, whole: true }),
  MNEMO_LLM_TEMPERATURE: number({ min: 0, max: 2 }),
  MNEMO_LLM_MAX_TOKENS: number({ min: 1, max: 32_000, whole: true }),
  /** A section's answer_prompt overrides it. */
  MNEMO_LLM_SYSTEM_PROMPT: text(),

  // Research mode (lib/llm/research-model.ts, lib/api/research): a tool-using chat model.
  /** openai-compatible or anthropic; unset, the MNEMO_LLM_* model when MNEMO_GENERATOR is one of those, else research is unavailable. */
  MNEMO_RESEARCH_PROVIDER: choice(["openai-compatible", "anthropic"]),
  MNEMO_RESEARCH_BASE_URL: httpUrl(),
  MNEMO_RESEARCH_MODEL: text(),
  MNEMO_RESEARCH_API_KEY: text(),
  /** Default 1: the research model is outside and gets no text of local-only sections; 0 declares it inside the institution (with MNEMO_RESEARCH_PROVIDER only). */
  MNEMO_RESEARCH_EXTERNAL: flag(),
  /** Budgets of one research run: model turns, tool calls, wall time, and prompt plus completion tokens as the provider reports them. */
  MNEMO_RESEARCH_MAX_TURNS: number({ min: 1, max: 50, whole: true }).transform((value) => value ?? 8),
  MNEMO_RESEARCH_MAX_TOOL_CALLS: number({ min: 1, max: 200, whole: true }).transform((value) => value ?? 16),
  MNEMO_RESEARCH_MAX_SECONDS: number({ min: 1, max: 3600, whole: true }).transform((value) => value ?? 120),
  MNEMO_RESEARCH_MAX_TOKENS: number({ min: 1000, max: 10_000_000, whole: true }).transform((value) => value ?? 60_000),

  // Speech to text (lib/archive/speech-to-text.ts): no speech model ships with Mnemo.
  /** off (segmentation drafts only) or openai-compatible (a /v1/audio/transcriptions server). */
  MNEMO_ASR: choice(["off", "openai-compatible"]).default("off"),
  MNEMO_ASR_URL: httpUrl(),
  MNEMO_ASR_MODEL: text(),
  MNEMO_ASR_API_KEY: text(),
  MNEMO_ASR_TIMEOUT_MS: number({ min: 1, whole: true }),
  /** The recordings' language as an ISO 639-1 code (e.g. `ca`); unset, the server detects it. */
  MNEMO_ASR_LANGUAGE: z.preprocess(
    unset,
    z
      .string()
      .regex(/^[a-z]{2,3}$/, "must be a language code like en, es or ca")
      .optional(),
  ),
  /** Whether the server is outside this host (default: a remote URL is, a loopback one is not). */
  MNEMO_ASR_EXTERNAL: flag(),

  // Model threads (lib/rag/embed/model-pool.ts).
  /** Worker threads for model work (query and passage embedding); unset, one per core (at most 4); -1, one fewer than the cores (at least 1); 0 runs it on the request thread. */
  MNEMO_MODEL_THREADS: number({ min: -1, max: 64, whole: true }),

  // Per-process caches (lib/expiring-cache.ts).
  /** How long a user's project sets (memberships) are reused by this process's requests, in ms (unset: 5000; 0: read on every request). Edits through this process apply at once; other processes within this time. */
  MNEMO_PRINCIPAL_CACHE_MS: number({ min: 0, max: 600_000, whole: true }),
  /** How long the section definitions (fields, names) are reused by this process's requests, in ms (unset: 30000; 0: read on every request). */
  MNEMO_SECTION_CACHE_MS: number({ min: 0, max: 3_600_000, whole: true }),

  // Indexing (lib/rag/index).
  /** off, or in-process to run the index worker inside the web process (unset: embedded yes, server no). */
  MNEMO_INDEX_WORKER: choice(["off", "in-process"]),
  /** How long a queue claim lasts before another worker may take it (a speech model's time limit must be shorter). */
  MNEMO_INDEX_LEASE_SECONDS: number({ min: 1, whole: true }),
  /** The CPU priority (nice, 0–19) `npm run worker` lowers itself to, so on a shared machine pages are answered before passages are embedded (unset: 10; 0 keeps the priority it was started with). */
  MNEMO_WORKER_NICE: number({ min: 0, max: 19, whole: true }).transform((value) => value ?? 10),
  /** Batches each index worker keeps in flight (unset: 2), so the database, the model threads and OCR/image work overlap. */
  MNEMO_INDEX_CONCURRENCY: number({ min: 1, max: 8, whole: true }),
  /** OCR of scanned pages (tesseract): its languages (the confidence bar and time limit are constants in lib/archive/ocr/recognise-page.ts). */
  MNEMO_OCR_LANGUAGES: z.preprocess(
    unset,
    z
      .string()
      .regex(/^[a-z_]+(\+[a-z_]+)*$/, "must be tesseract languages like spa+cat+eng")
      .default("spa+cat+eng"),
  ),

  // Agent API (lib/api).
  /** Requests a minute per API token. */
  MNEMO_API_RATE_LIMIT: number({ min: 1, max: 100_000, whole: true }).transform((value) => value ?? 120),
  /** The burst a token may spend at once (unset: the rate limit). */
  MNEMO_API_RATE_BURST: number({ min: 1, max: 100_000, whole: true }),
  /** Origins whose pages may call /api/v1 and /api/mcp from a browser: a comma-separated list, or `*`; unset, closed. */
  MNEMO_API_CORS_ORIGINS: z.preprocess(unset, z.string().optional()).transform((raw, context) => {
    const origins = (raw ?? "")
      .split(",")
      .map((origin) => origin.trim())
      .filter(Boolean);
    for (const origin of origins) {
      if (origin === "*") continue;
      const written = URL.canParse(origin) ? new URL(origin).origin : null;
      if (written === null) context.addIssue({ code: "custom", message: `"${origin}" is not an origin like https://tool.example.org` });
      else if (written !== origin) context.addIssue({ code: "custom", message: `"${origin}" should be written ${written}` });
    }
    return origins;
  }),
  /**
   * `1` (or `true`) lists the write operations (create and update records, links, media,
   * proposals) as MCP tools for tokens with the write scope; unset, MCP offers only read tools.
   * The JSON API's write operations do not depend on it: they need a write token only.
   */
  MNEMO_MCP_ALLOW_WRITE: flag()
    .default("0")
    .transform((value) => value === "1" || value === "true"),
});

/** The names of the configuration's variables. */
export const configVariables = Object.keys(configSchema.shape) as (keyof typeof configSchema.shape)[];

/**
 * What an institution running Mnemo sets or may reasonably set: README's Configuration table,
 * row for row (lib/config.test.ts compares them). The rest are each model kind's endpoint
 * details, tuning an installation may need (both in docs/configuration.md), and development
 * switches (docs/development.md).
 */
export const operatorVariables = [
  "DATABASE_URL",
  "DATABASE_POOL_SIZE",
  "MNEMO_DATA_DIR",
  "MNEMO_STORAGE_DIR",
  "AUTH_SECRET",
  "AUTH_URL",
  "AUTH_OIDC_ISSUER",
  "AUTH_OIDC_ID",
  "AUTH_OIDC_SECRET",
  "AUTH_OIDC_NAME",
  "MNEMO_BACKUP_KEY",
  "MNEMO_TRUSTED_PROXIES",
  "MAX_UPLOAD_BYTES",
  "MNEMO_IMPORT_MAX_BYTES",
  "MNEMO_IMPORT_MEDIA_ROOT",
  "MNEMO_OAI_REPOSITORY_NAME",
  "MNEMO_OAI_ADMIN_EMAIL",
  "MNEMO_API_CORS_ORIGINS",
  "MNEMO_API_RATE_LIMIT",
  "MNEMO_MCP_ALLOW_WRITE",
  "MNEMO_INDEX_WORKER",
  "MNEMO_WORKER_NICE",
  "MNEMO_MODEL_THREADS",
  "MNEMO_OCR_LANGUAGES",
  "MNEMO_EMBEDDER",
  "MNEMO_IMAGE_EMBEDDER",
  "MNEMO_RERANKER",
  "MNEMO_GENERATOR",
  "MNEMO_RESEARCH_PROVIDER",
  "MNEMO_ASR",
] as const satisfies readonly (keyof typeof configSchema.shape)[];

/** Values that are never quoted back in an error message. */
const secret = /SECRET|API_KEY|BACKUP_KEY|TOKEN|DATABASE_URL/;

export type Config = z.infer<typeof configSchema> & {
  /** Where media files live; defaults to <data dir>/media. */
  storageDir: string;
  /** Embedded PGlite unless DATABASE_URL is set. */
  databaseMode: "embedded" | "server";
  /** The hash embedder (a test embedder) may run: outside production, or with MNEMO_ALLOW_HASH_EMBEDDER=1. */
  hashEmbedderAllowed: boolean;
  /** The declared variables as written, for the builders under lib/rag that combine several. */
  environment: Readonly<Record<string, string | undefined>>;
};

export function parseConfig(env: Record<string, string | undefined>): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((issue) => {
        const variable = String(issue.path[0]);
        const raw = env[variable];
        const got = raw === undefined || secret.test(variable) ? "" : ` (got ${JSON.stringify(raw)})`;
        return `  ${issue.path.join(".")}: ${issue.message}${got}`;
      })
      .join("\n");
    throw new Error(`Invalid environment configuration:\n${problems}`);
  }
  const values = parsed.data;
  if (values.AUTH_OIDC_ISSUER && !(values.AUTH_OIDC_ID && values.AUTH_OIDC_SECRET)) {
    throw new Error("Invalid environment configuration:\n  AUTH_OIDC_ID, AUTH_OIDC_SECRET: required when AUTH_OIDC_ISSUER is set");
  }
  if (values.MNEMO_HNSW_EF_CONSTRUCTION < 2 * values.MNEMO_HNSW_M) {
    throw new Error(
      `Invalid environment configuration:\n  MNEMO_HNSW_EF_CONSTRUCTION: must be at least twice MNEMO_HNSW_M (got ${values.MNEMO_HNSW_EF_CONSTRUCTION} with m ${values.MNEMO_HNSW_M})`,
    );
  }
  return {
    ...values,
    storageDir: values.MNEMO_STORAGE_DIR ?? `${values.MNEMO_DATA_DIR}/media`,
    databaseMode: values.DATABASE_URL ? "server" : "embedded",
    hashEmbedderAllowed: values.NODE_ENV !== "production" || values.MNEMO_ALLOW_HASH_EMBEDDER === "1",
    environment: Object.freeze(Object.fromEntries(["NODE_ENV", ...configVariables].map((name) => [name, env[name]]))),
  };
}

let cached: Config | undefined;

/** The process's configuration, parsed from process.env on first use. */
export function getConfig(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}

/** Forgets the parsed configuration, so a test that changed process.env sees its change. */
export function resetConfig(): void {
  cached = undefined;
}
