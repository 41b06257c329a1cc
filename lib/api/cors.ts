import { type Config, parseConfig } from "../config";

/**
 * CORS for the agent API: closed by default (no browser page on another origin may call it).
 * MNEMO_API_CORS_ORIGINS opens it to a comma-separated list of origins, or "*" for any. The API
 * authenticates by bearer token only, never by cookie, so an allowed origin gains nothing a
 * script without the token could use.
 */
export interface CorsPolicy {
  /** Allowed origins, exact ("https://tool.example.org"); "*" allows any. */
  origins: readonly string[];
}

export const closedCors: CorsPolicy = { origins: [] };

/** MNEMO_API_CORS_ORIGINS of an environment map (tests; the app reads getConfig()). */
export function corsFromEnv(env: Record<string, string | undefined>): CorsPolicy {
  return corsFromConfig(parseConfig(env));
}

export function corsFromConfig(config: Pick<Config, "MNEMO_API_CORS_ORIGINS">): CorsPolicy {
  return config.MNEMO_API_CORS_ORIGINS.length === 0 ? closedCors : { origins: config.MNEMO_API_CORS_ORIGINS };
}

function allowedOrigin(policy: CorsPolicy, origin: string | null): string | null {
  if (!origin) return null;
  if (policy.origins.includes("*")) return "*";
  return policy.origins.includes(origin) ? origin : null;
}

/** Headers to add to an API response for this request's Origin (none when not allowed). */
export function corsHeaders(policy: CorsPolicy, request: Request): Record<string, string> {
  const origin = allowedOrigin(policy, request.headers.get("origin"));
  if (!origin) return {};
  return {
    "access-control-allow-origin": origin,
    "access-control-expose-headers": "retry-after, ratelimit-limit, ratelimit-remaining, mcp-session-id, mcp-protocol-version",
    ...(origin === "*" ? {} : { vary: "Origin" }),
  };
}

/** The answer to a preflight: 204 with the allowances for an allowed origin, 403 otherwise. */
export function preflightResponse(policy: CorsPolicy, request: Request, methods: readonly string[]): Response {
  const headers = corsHeaders(policy, request);
  if (!headers["access-control-allow-origin"]) {
    return new Response(null, { status: 403, headers: { "cache-control": "no-store" } });
  }
  return new Response(null, {
    status: 204,
    headers: {
      ...headers,
      "access-control-allow-methods": [...methods, "OPTIONS"].join(", "),
      "access-control-allow-headers": "authorization, content-type, accept, mcp-protocol-version, mcp-session-id, last-event-id",
      "access-control-max-age": "600",
    },
  });
}
