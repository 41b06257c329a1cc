import { describe, expect, it } from "vitest";
import type { Embedder, EmbedKind } from "./embedder";
import { withQueryCache } from "./query-cache";

function countingEmbedder() {
  const calls: { texts: string[]; kind: EmbedKind }[] = [];
  const embedder: Embedder = {
    provider: "test",
    model: "counting",
    dimension: 2,
    maxInputTokens: 100,
    language: "en",
    async embed(texts, kind) {
      calls.push({ texts: [...texts], kind });
      return texts.map((text) => Float32Array.from([text.length, 1]));
    },
  };
  return { embedder, calls };
}

describe("query embedding cache", () => {
  it("embeds a query text once, keeps passages out, and hands each caller its own copy", async () => {
    const { embedder, calls } = countingEmbedder();
    const cached = withQueryCache(embedder);
    const [first] = await cached.embed(["harbour nets"], "query");
    const [again, other] = await cached.embed(["harbour nets", "mine"], "query");
    expect(Array.from(again!)).toEqual([12, 1]);
    expect(Array.from(other!)).toEqual([4, 1]);
    expect(calls).toEqual([
      { texts: ["harbour nets"], kind: "query" },
      { texts: ["mine"], kind: "query" },
    ]);
    // A caller that changes its vector does not change the next caller's.
    first![0] = 99;
    expect(Array.from((await cached.embed(["harbour nets"], "query"))[0]!)).toEqual([12, 1]);
    await cached.embed(["harbour nets"], "passage");
    await cached.embed(["harbour nets"], "passage");
    expect(calls.filter((call) => call.kind === "passage")).toHaveLength(2);
  });

  it("forgets the least recently used text beyond its size", async () => {
    const { embedder, calls } = countingEmbedder();
    const cached = withQueryCache(embedder, 2);
    await cached.embed(["a1", "b22"], "query");
    await cached.embed(["a1"], "query"); // a1 is now the most recent
    await cached.embed(["c333"], "query"); // b22 goes
    await cached.embed(["a1", "b22"], "query");
    expect(calls.map((call) => call.texts)).toEqual([["a1", "b22"], ["c333"], ["b22"]]);
  });
});
