import { describe, expect, it } from "vitest";
import { createTranslationCache } from "./translation-cache";

describe("the translation cache", () => {
  it("shares a running translation, keeps the most recently used, and forgets a failure", async () => {
    const cache = createTranslationCache<string>(2);
    let made = 0;
    const make = (text: string) => async () => {
      made += 1;
      return text.toUpperCase();
    };
    const [first, again] = [cache.remember("a", make("a")), cache.remember("a", make("other"))];
    expect(await first).toBe("A");
    expect(await again).toBe("A");
    await cache.remember("b", make("b"));
    await cache.remember("a", make("unused"));
    await cache.remember("c", make("c"));
    expect(cache.size).toBe(2);
    expect(await cache.remember("a", make("unused"))).toBe("A");
    expect(await cache.remember("b", make("b again"))).toBe("B AGAIN");
    expect(made).toBe(4);
    await expect(cache.remember("d", () => Promise.reject(new Error("offline")))).rejects.toThrow("offline");
    expect(await cache.remember("d", make("d"))).toBe("D");
  });
});
