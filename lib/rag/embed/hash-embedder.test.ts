import { describe, expect, it } from "vitest";
import { EmbeddingError } from "./embedder";
import { createHashEmbedder } from "./hash-embedder";

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, value, index) => sum + value * (b[index] ?? 0), 0);
const norm = (vector: Float32Array) => Math.sqrt(dot(vector, vector));

describe("hash embedder", () => {
  it("gives the same vector for the same text, across calls and instances", async () => {
    const [first] = await createHashEmbedder().embed(["Letters from the mayor, 1936"], "passage");
    const [again] = await createHashEmbedder().embed(["Letters from the mayor, 1936"], "query");
    expect(first).toBeDefined();
    expect(Array.from(again ?? [])).toEqual(Array.from(first ?? []));
  });

  it("returns unit vectors of the configured dimension, in input order", async () => {
    const texts = ["one short text", "another, rather different passage", "…"];
    const vectors = await createHashEmbedder({ dimension: 64 }).embed(texts, "passage");
    expect(vectors).toHaveLength(3);
    for (const vector of vectors) {
      expect(vector).toHaveLength(64);
      expect(norm(vector)).toBeCloseTo(1, 5);
    }
    const [single] = await createHashEmbedder({ dimension: 64 }).embed([texts[1] ?? ""], "passage");
    expect(Array.from(vectors[1] ?? [])).toEqual(Array.from(single ?? []));
  });

  it("puts texts that share words closer than unrelated texts", async () => {
    const [archive, paraphrase, unrelated] = await createHashEmbedder().embed(
      [
        "The municipal archive keeps the letters of the mayor.",
        "Letters of the mayor are kept in the municipal archive.",
        "Interest rates rose sharply in March.",
      ],
      "passage",
    );
    if (!archive || !paraphrase || !unrelated) throw new Error("missing vectors");
    expect(dot(archive, paraphrase)).toBeGreaterThan(dot(archive, unrelated) + 0.3);
  });

  it("folds case and accents", async () => {
    const [accented, plain] = await createHashEmbedder().embed(["Educación PÚBLICA en Girona", "educacion publica en girona"], "passage");
    expect(Array.from(accented ?? [])).toEqual(Array.from(plain ?? []));
  });

  it("refuses empty and absurdly long texts instead of embedding them", async () => {
    const embedder = createHashEmbedder();
    await expect(embedder.embed(["fine", "  "], "passage")).rejects.toMatchObject({ name: "EmbeddingError", retryable: false });
    const huge = "word ".repeat(8 * embedder.maxInputTokens + 1);
    await expect(embedder.embed([huge], "passage")).rejects.toBeInstanceOf(EmbeddingError);
  });

  it("is refused in production unless explicitly allowed", () => {
    expect(() => createHashEmbedder({ env: { NODE_ENV: "production" } })).toThrow(/MNEMO_ALLOW_HASH_EMBEDDER=1/);
    expect(createHashEmbedder({ env: { NODE_ENV: "production", MNEMO_ALLOW_HASH_EMBEDDER: "1" } }).provider).toBe("hash");
    expect(createHashEmbedder({ env: { NODE_ENV: "production" }, allowInProduction: true }).provider).toBe("hash");
    expect(createHashEmbedder({ env: { NODE_ENV: "test" } }).provider).toBe("hash");
  });
});
