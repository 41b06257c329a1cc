import { describe, expect, it } from "vitest";
import { createEmbedder, embedderConfigFromEnv } from "./create-embedder";
import { embeddingTextHash } from "./embedding-text-hash";

describe("embedder configuration", () => {
  it("defaults to the local sentence encoder", () => {
    expect(embedderConfigFromEnv({})).toEqual({ provider: "local-use" });
    expect(createEmbedder(embedderConfigFromEnv({}))).toMatchObject({ provider: "local-use", dimension: 512, language: "en" });
  });

  it("reads an OpenAI-compatible server from the environment, prefixes as written", () => {
    const config = embedderConfigFromEnv({
      MNEMO_EMBEDDER: "openai-compatible",
      MNEMO_EMBEDDING_BASE_URL: "http://127.0.0.1:11434",
      MNEMO_EMBEDDING_MODEL: "multilingual-e5-small",
      MNEMO_EMBEDDING_DIMENSION: "384",
      MNEMO_EMBEDDING_BATCH_SIZE: "32",
      MNEMO_EMBEDDING_TIMEOUT_MS: "5000",
      MNEMO_EMBEDDING_QUERY_PREFIX: "query: ",
      MNEMO_EMBEDDING_PASSAGE_PREFIX: "passage: ",
      MNEMO_EMBEDDING_API_KEY: "secret",
    });
    expect(config).toMatchObject({
      provider: "openai-compatible",
      baseUrl: "http://127.0.0.1:11434",
      model: "multilingual-e5-small",
      dimension: 384,
      batchSize: 32,
      timeoutMs: 5000,
      queryPrefix: "query: ",
      passagePrefix: "passage: ",
      apiKey: "secret",
    });
    expect(createEmbedder(config)).toMatchObject({ provider: "openai-compatible", model: "multilingual-e5-small", dimension: 384, language: "multilingual" });
  });

  it("names the variable that is missing or wrong", () => {
    const base = { MNEMO_EMBEDDER: "openai-compatible", MNEMO_EMBEDDING_MODEL: "m", MNEMO_EMBEDDING_DIMENSION: "384" };
    expect(() => embedderConfigFromEnv(base)).toThrow(/MNEMO_EMBEDDING_BASE_URL: is required/);
    expect(() => embedderConfigFromEnv({ ...base, MNEMO_EMBEDDING_BASE_URL: "ftp://example" })).toThrow(/MNEMO_EMBEDDING_BASE_URL/);
    expect(() => embedderConfigFromEnv({ ...base, MNEMO_EMBEDDING_BASE_URL: "http://h", MNEMO_EMBEDDING_DIMENSION: "big" })).toThrow(
      /MNEMO_EMBEDDING_DIMENSION: must be a whole number/,
    );
    expect(() => embedderConfigFromEnv({ ...base, MNEMO_EMBEDDING_BASE_URL: "http://h", MNEMO_EMBEDDING_TIMEOUT_MS: "0" })).toThrow(
      /MNEMO_EMBEDDING_TIMEOUT_MS/,
    );
    expect(() => embedderConfigFromEnv({ MNEMO_EMBEDDER: "bert" })).toThrow(/MNEMO_EMBEDDER: must be local-use, openai-compatible or hash/);
  });

  it("refuses the hash embedder unless MNEMO_ALLOW_HASH_EMBEDDER=1, even outside production", () => {
    expect(() => embedderConfigFromEnv({ MNEMO_EMBEDDER: "hash", NODE_ENV: "development" })).toThrow(/MNEMO_ALLOW_HASH_EMBEDDER=1/);
    const config = embedderConfigFromEnv({ MNEMO_EMBEDDER: "hash", MNEMO_ALLOW_HASH_EMBEDDER: "1", MNEMO_EMBEDDING_DIMENSION: "64" });
    expect(createEmbedder(config)).toMatchObject({ provider: "hash", dimension: 64 });
  });

  it("validates a configuration object given in code", () => {
    expect(() => createEmbedder({ provider: "openai-compatible", baseUrl: "not a url", model: "m", dimension: 8 })).toThrow(/baseUrl/);
    expect(() => createEmbedder({ provider: "hash", dimension: 0 })).toThrow(/dimension/);
  });
});

describe("embeddingTextHash", () => {
  it("is the sha256 hex digest of the UTF-8 text", () => {
    expect(embeddingTextHash("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(embeddingTextHash("café")).not.toBe(embeddingTextHash("cafe"));
  });
});
