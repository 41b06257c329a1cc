import { describe, expect, it } from "vitest";
import { createRateLimiter, rateLimitFromEnv } from "./rate-limit";

describe("createRateLimiter", () => {
  it("allows a burst up to capacity, then refuses with the wait until a unit refills", () => {
    let now = 0;
    const limiter = createRateLimiter({ perMinute: 6, now: () => now });
    for (let i = 0; i < 6; i++) expect(limiter.take("a").allowed).toBe(true);
    const refused = limiter.take("a");
    expect(refused).toEqual({ allowed: false, limit: 6, remaining: 0, retryAfterSeconds: 10 });
    now += 9_000;
    expect(limiter.take("a").allowed).toBe(false);
    now += 1_000;
    expect(limiter.take("a")).toMatchObject({ allowed: true, remaining: 0 });
  });

  it("keeps keys apart, charges costs, and refuses a cost larger than the bucket", () => {
    let now = 0;
    const limiter = createRateLimiter({ perMinute: 60, capacity: 5, now: () => now });
    expect(limiter.take("a", 5).allowed).toBe(true);
    expect(limiter.take("a").allowed).toBe(false);
    expect(limiter.take("b", 3)).toMatchObject({ allowed: true, remaining: 2 });
    const tooBig = limiter.take("c", 6);
    expect(tooBig.allowed).toBe(false);
    expect(tooBig.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    now += 2_000;
    expect(limiter.take("a", 2)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it("never holds more than capacity after a long pause, and forgets the least recent keys beyond maxKeys", () => {
    let now = 0;
    const limiter = createRateLimiter({ perMinute: 60, capacity: 2, now: () => now, maxKeys: 2 });
    limiter.take("a", 2);
    now += 3_600_000;
    expect(limiter.take("a")).toMatchObject({ remaining: 1 });
    limiter.take("b", 2);
    limiter.take("c", 2);
    // "a" was forgotten, so it starts full again.
    expect(limiter.take("a")).toMatchObject({ allowed: true, remaining: 1 });
  });
});

describe("rateLimitFromEnv", () => {
  it("defaults to 120 a minute with an equal burst, and names a bad value", () => {
    expect(rateLimitFromEnv({})).toEqual({ perMinute: 120, capacity: 120 });
    expect(rateLimitFromEnv({ MNEMO_API_RATE_LIMIT: "30", MNEMO_API_RATE_BURST: "10" })).toEqual({ perMinute: 30, capacity: 10 });
    expect(() => rateLimitFromEnv({ MNEMO_API_RATE_LIMIT: "lots" })).toThrow(/MNEMO_API_RATE_LIMIT/);
    expect(() => rateLimitFromEnv({ MNEMO_API_RATE_BURST: "0" })).toThrow(/MNEMO_API_RATE_BURST/);
  });
});
