import { z } from "zod";

/**
 * Per-token rate limits: a token bucket per key (a token's id) that holds `capacity` units and
 * refills at `perMinute` units a minute. A call takes its cost or is refused with the seconds
 * until it would fit, which the API sends as Retry-After. In memory, per process: a limit on
 * one server, not a quota across several. Pure apart from the clock, which tests replace.
 */
export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the refused call would be allowed (0 when allowed). */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  take(key: string, cost?: number): RateLimitDecision;
}

export interface RateLimitOptions {
  perMinute: number;
  capacity?: number;
  now?: () => number;
  /** Buckets kept at most; the least recently used are forgotten beyond it. */
  maxKeys?: number;
}

export function createRateLimiter(options: RateLimitOptions): RateLimiter {
  const capacity = options.capacity ?? options.perMinute;
  const perMs = options.perMinute / 60_000;
  const now = options.now ?? Date.now;
  const maxKeys = options.maxKeys ?? 10_000;
  const buckets = new Map<string, { units: number; at: number }>();

  return {
    take(key, cost = 1) {
      const time = now();
      const previous = buckets.get(key);
      const units = previous ? Math.min(capacity, previous.units + (time - previous.at) * perMs) : capacity;
      buckets.delete(key);
      if (buckets.size >= maxKeys) {
        const oldest = buckets.keys().next().value;
        if (oldest !== undefined) buckets.delete(oldest);
      }
      if (cost > capacity) {
        buckets.set(key, { units, at: time });
        return { allowed: false, limit: capacity, remaining: Math.floor(units), retryAfterSeconds: Math.ceil((capacity - units) / perMs / 1000) || 1 };
      }
      if (units >= cost) {
        buckets.set(key, { units: units - cost, at: time });
        return { allowed: true, limit: capacity, remaining: Math.floor(units - cost), retryAfterSeconds: 0 };
      }
      buckets.set(key, { units, at: time });
      return { allowed: false, limit: capacity, remaining: Math.floor(units), retryAfterSeconds: Math.max(1, Math.ceil((cost - units) / perMs / 1000)) };
    },
  };
}

const rateLimitEnv = z.object({
  MNEMO_API_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(120),
  MNEMO_API_RATE_BURST: z.coerce.number().int().min(1).max(100_000).optional(),
});

/** MNEMO_API_RATE_LIMIT units a minute per token (default 120), bursts of MNEMO_API_RATE_BURST (default the same). */
export function rateLimitFromEnv(env: Record<string, string | undefined>): { perMinute: number; capacity: number } {
  const parsed = rateLimitEnv.safeParse({ MNEMO_API_RATE_LIMIT: env.MNEMO_API_RATE_LIMIT || undefined, MNEMO_API_RATE_BURST: env.MNEMO_API_RATE_BURST || undefined });
  if (!parsed.success) {
    throw new Error(`Invalid API rate limit: ${parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ")}`);
  }
  return { perMinute: parsed.data.MNEMO_API_RATE_LIMIT, capacity: parsed.data.MNEMO_API_RATE_BURST ?? parsed.data.MNEMO_API_RATE_LIMIT };
}
