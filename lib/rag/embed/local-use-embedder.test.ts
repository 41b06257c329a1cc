import { describe, expect, it } from "vitest";
import { createLocalUseEmbedder } from "./local-use-embedder";

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, value, index) => sum + value * (b[index] ?? 0), 0);

describe("local Universal Sentence Encoder", () => {
  it("embeds offline from the packaged weights and places paraphrases together", { timeout: 60_000 }, async () => {
    const embedder = createLocalUseEmbedder({ batchSize: 2 });
    expect(embedder).toMatchObject({ provider: "local-use", model: "universal-sentence-encoder-lite", dimension: 512, language: "en" });
    const [dog, puppy, rates] = await embedder.embed(["The dog barks.", "A puppy is barking.", "Interest rates rose in March."], "passage");
    if (!dog || !puppy || !rates) throw new Error("missing vectors");
    for (const vector of [dog, puppy, rates]) {
      expect(vector).toHaveLength(512);
      expect(dot(vector, vector)).toBeCloseTo(1, 4);
    }
    expect(dot(dog, puppy)).toBeGreaterThan(dot(dog, rates) + 0.2);
    // Batching is internal: the same text alone gets the same vector.
    const [alone] = await embedder.embed(["Interest rates rose in March."], "query");
    expect(dot(alone ?? new Float32Array(), rates)).toBeCloseTo(1, 4);
  });

  it("refuses text far beyond its window rather than truncating it", async () => {
    const embedder = createLocalUseEmbedder();
    await expect(embedder.embed(["word ".repeat(8 * embedder.maxInputTokens + 1)], "passage")).rejects.toMatchObject({
      name: "EmbeddingError",
      retryable: false,
    });
  });
});
