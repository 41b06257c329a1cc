import { z } from "zod";

/**
 * Environment, parsed once. A bad value stops the process with a message naming the variable.
 * Kept free of "server-only" so scripts (seed, migrate) can use it too; it holds no secrets
 * that are not already in the process environment.
 */
const configSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  MNEMO_DATA_DIR: z.string().min(1).default(".data"),
  MNEMO_STORAGE_DIR: z.string().min(1).optional(),
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  AUTH_URL: z.url().optional(),
  AUTH_OIDC_ISSUER: z.url().optional(),
  AUTH_OIDC_ID: z.string().min(1).optional(),
  AUTH_OIDC_SECRET: z.string().min(1).optional(),
  AUTH_OIDC_NAME: z.string().min(1).default("Single sign-on"),
  SIGN_IN_MAX_FAILURES: z.coerce.number().int().min(1).max(1000).default(5),
  SIGN_IN_WINDOW_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
  /** The wait after SIGN_IN_MAX_FAILURES failures of one account from one address; it doubles with each further one. */
  SIGN_IN_DELAY_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /**
   * Reverse proxies whose X-Forwarded-For is believed: IP addresses and CIDR ranges, separated by
   * commas or spaces. Unset, the client address is the socket's peer and the header is ignored.
   */
  MNEMO_TRUSTED_PROXIES: z
    .string()
    .default("")
    .transform((text) => text.split(/[\s,]+/).filter(Boolean))
    .pipe(z.array(z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()], { error: (issue) => `${JSON.stringify(issue.input)} is not an IP address or CIDR range (e.g. 127.0.0.1, 10.0.0.0/8, fd00::/8)` }))),
  MAX_UPLOAD_BYTES: z.coerce.number().int().min(1024).default(50 * 1024 * 1024),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  /** The keyword leg's BM25 term-frequency saturation and length normalisation. */
  MNEMO_BM25_K1: z.coerce.number().min(0).max(10).default(1.2),
  MNEMO_BM25_B: z.coerce.number().min(0).max(1).default(0.75),
});

export type Config = z.infer<typeof configSchema> & {
  /** Where media files live; defaults to <data dir>/media. */
  storageDir: string;
  /** Embedded PGlite unless DATABASE_URL is set. */
  databaseMode: "embedded" | "server";
};

export function parseConfig(env: NodeJS.ProcessEnv): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((issue) => `  ${issue.path.join(".")}: ${issue.message}`)
      .join("\n");
    throw new Error(`Invalid environment configuration:\n${problems}`);
  }
  const values = parsed.data;
  if (values.AUTH_OIDC_ISSUER && !(values.AUTH_OIDC_ID && values.AUTH_OIDC_SECRET)) {
    throw new Error(
      "Invalid environment configuration:\n  AUTH_OIDC_ID, AUTH_OIDC_SECRET: required when AUTH_OIDC_ISSUER is set",
    );
  }
  return {
    ...values,
    storageDir: values.MNEMO_STORAGE_DIR ?? `${values.MNEMO_DATA_DIR}/media`,
    databaseMode: values.DATABASE_URL ? "server" : "embedded",
  };
}

let cached: Config | undefined;

export function getConfig(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}
