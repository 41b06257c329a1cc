import { LRUCache } from "lru-cache";
import { type Config, parseConfig } from "./config";

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
  // Every take sets its key, so the least recently used buckets go first beyond maxKeys (at least one is kept).
  const buckets = new LRUCache<string, { units: number; at: number }>({ max: Math.max(1, maxKeys) });

  return {
    take(key, cost = 1) {
      const time = now();
      const previous = buckets.get(key);
      const units = previous ? Math.min(capacity, previous.units + (time - previous.at) * perMs) : capacity;
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

/** The per-token limit: MNEMO_API_RATE_LIMIT units a minute, bursts of MNEMO_API_RATE_BURST (unset: the same). */
export function rateLimitFromConfig(config: Pick<Config, "MNEMO_API_RATE_LIMIT" | "MNEMO_API_RATE_BURST">): { perMinute: number; capacity: number } {
  return { perMinute: config.MNEMO_API_RATE_LIMIT, capacity: config.MNEMO_API_RATE_BURST ?? config.MNEMO_API_RATE_LIMIT };
}

/** The same from an environment map (tests; the app reads getConfig()). */
export function rateLimitFromEnv(env: Record<string, string | undefined>): { perMinute: number; capacity: number } {
  return rateLimitFromConfig(parseConfig(env));
}
