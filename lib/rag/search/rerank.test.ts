import { describe, expect, it } from "vitest";
import { createHashEmbedder } from "../embed/hash-embedder";
import { type Reranker, createLocalReranker, passThroughReranker, rerankCandidates, rerankEndpoint, rerankerConfigFromEnv } from "./rerank";

const candidate = (id: string, text: string, egressPolicy: "local_only" | "allow_external" = "allow_external") => ({ id, text, egressPolicy });

function recording(scores: (texts: string[]) => number[], external = true): Reranker & { seen: string[][] } {
  const seen: string[][] = [];
  return {
    name: "fake",
    external,
    seen,
    async score(_query, candidates) {
      seen.push(candidates.map((item) => item.text));
      return scores(candidates.map((item) => item.text));
    },
  };
}

describe("rerank seam", () => {
  it("passes through without calling anything", async () => {
    const items = [candidate("a", "x"), candidate("b", "y")];
    expect(await rerankCandidates(passThroughReranker, "q", items)).toEqual({ ordered: items, reranked: false, withheld: 0 });
  });

  it("keeps local-only passages at their positions and sends only the others to an external reranker", async () => {
    const reranker = recording((texts) => texts.map((_, index) => index)); // reverses
    const items = [candidate("a", "A"), candidate("l1", "L1", "local_only"), candidate("b", "B"), candidate("c", "C"), candidate("l2", "L2", "local_only")];
    const result = await rerankCandidates(reranker, "q", items);
    expect(reranker.seen).toEqual([["A", "B", "C"]]);
    expect(result.ordered.map((item) => item.id)).toEqual(["c", "l1", "b", "a", "l2"]);
    expect(result.withheld).toBe(2);
  });

  it("sends everything to a local reranker, and degrades to fused order when a reranker fails", async () => {
    const local = recording((texts) => texts.map((_, index) => index), false);
    const items = [candidate("a", "A"), candidate("l", "L", "local_only")];
    expect((await rerankCandidates(local, "q", items)).ordered.map((item) => item.id)).toEqual(["l", "a"]);
    const failing: Reranker = { name: "down", external: true, score: async () => Promise.reject(new Error("connection refused")) };
    const result = await rerankCandidates(failing, "q", [candidate("a", "A"), candidate("b", "B")]);
    expect(result).toMatchObject({ reranked: false, error: "connection refused" });
    expect(result.ordered.map((item) => item.id)).toEqual(["a", "b"]);
  });

  it("scores a passage by its best sentence with the local reranker", async () => {
    const reranker = createLocalReranker(createHashEmbedder({ dimension: 128 }));
    const scores = await reranker.score("lighthouse keeper", [
      candidate("a", "The harvest was poor. Nets were mended in winter."),
      candidate("b", "The harvest was poor. The lighthouse keeper wrote every night."),
    ]);
    expect(scores[1]).toBeGreaterThan(scores[0]!);
  });

  it("reads its configuration from the environment with clear errors", () => {
    expect(rerankerConfigFromEnv({})).toEqual({ kind: "none" });
    expect(rerankerConfigFromEnv({ MNEMO_RERANKER: "local" })).toEqual({ kind: "local" });
    expect(rerankerConfigFromEnv({ MNEMO_RERANKER: "http", MNEMO_RERANK_URL: "http://127.0.0.1:8080" })).toMatchObject({
      kind: "http",
      url: "http://127.0.0.1:8080",
    });
    expect(() => rerankerConfigFromEnv({ MNEMO_RERANKER: "http" })).toThrow(/MNEMO_RERANK_URL/);
    expect(() => rerankerConfigFromEnv({ MNEMO_RERANKER: "magic" })).toThrow(/none, local or http/);
    expect(rerankEndpoint("http://x:1/")).toBe("http://x:1/rerank");
    expect(rerankEndpoint("http://x:1/v1/rerank")).toBe("http://x:1/v1/rerank");
  });
});
