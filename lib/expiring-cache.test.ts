import { describe, expect, it } from "vitest";
import { createExpiringCache } from "./expiring-cache";

function cacheOf(ttlMs = 5000) {
  // lru-cache reads a start time of 0 as "none": the clock starts later, as performance.now() does.
  let now = 1000;
  const cache = createExpiringCache<string[]>({ ttlMs: () => ttlMs, copy: (value) => [...value], clock: () => now });
  return { cache, advance: (ms: number) => void (now += ms) };
}

describe("expiring per-process cache", () => {
  it("answers each key with its own value, never another key's, and reads again after the time", async () => {
    const { cache, advance } = cacheOf();
    const database = {};
    let loads = 0;
    const setsOf = (user: string) => async () => {
      loads += 1;
      return [`${user}'s project`];
    };
    expect(await cache.get(database, "user-a", setsOf("a"))).toEqual(["a's project"]);
    expect(await cache.get(database, "user-b", setsOf("b"))).toEqual(["b's project"]);
    expect(await cache.get(database, "user-a", setsOf("a"))).toEqual(["a's project"]);
    expect(loads).toBe(2);
    advance(5000);
    expect(await cache.get(database, "user-a", setsOf("a again"))).toEqual(["a's project"]);
    advance(1);
    expect(await cache.get(database, "user-a", setsOf("a again"))).toEqual(["a again's project"]);
    expect(loads).toBe(3);
  });

  it("keeps at most maxEntries per scope, dropping the least recently read", async () => {
    const cache = createExpiringCache<string[]>({ ttlMs: () => 5000, copy: (value) => [...value], maxEntries: 2 });
    const database = {};
    await cache.get(database, "a", async () => ["a"]);
    await cache.get(database, "b", async () => ["b"]);
    await cache.get(database, "a", async () => ["unused"]);
    await cache.get(database, "c", async () => ["c"]);
    expect(await cache.get(database, "a", async () => ["a reloaded"])).toEqual(["a"]);
    expect(await cache.get(database, "b", async () => ["b reloaded"])).toEqual(["b reloaded"]);
  });

  it("keeps two databases apart, and forgets one key, one database or all at once", async () => {
    const { cache } = cacheOf();
    const [first, second] = [{}, {}];
    await cache.get(first, "user", async () => ["first"]);
    await cache.get(second, "user", async () => ["second"]);
    expect(await cache.get(second, "user", async () => ["unused"])).toEqual(["second"]);
    cache.forget(first, "user");
    expect(await cache.get(first, "user", async () => ["first, changed"])).toEqual(["first, changed"]);
    cache.forget(second);
    expect(await cache.get(second, "user", async () => ["second, changed"])).toEqual(["second, changed"]);
    cache.forget();
    expect(await cache.get(first, "user", async () => ["all forgotten"])).toEqual(["all forgotten"]);
  });

  it("does not keep what a load read before a forget that happened while it ran", async () => {
    const { cache } = cacheOf();
    const database = {};
    let finish!: (value: string[]) => void;
    const slow = cache.get(database, "user", () => new Promise<string[]>((resolve) => (finish = resolve)));
    cache.forget(database, "user"); // the membership changed while the old sets were being read
    finish(["before the change"]);
    expect(await slow).toEqual(["before the change"]);
    expect(await cache.get(database, "user", async () => ["after the change"])).toEqual(["after the change"]);
  });

  it("gives each caller a copy, and reads every time when the time is 0", async () => {
    const { cache } = cacheOf();
    const database = {};
    const first = await cache.get(database, "user", async () => ["a"]);
    first.push("changed by a caller");
    expect(await cache.get(database, "user", async () => ["unused"])).toEqual(["a"]);
    const off = cacheOf(0).cache;
    let loads = 0;
    for (let index = 0; index < 3; index++) await off.get(database, "user", async () => [String(++loads)]);
    expect(loads).toBe(3);
  });
});
