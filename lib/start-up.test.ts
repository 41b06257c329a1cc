import { afterEach, describe, expect, it, vi } from "vitest";
import { resetConfig } from "./config";
import { startUp } from "./start-up";

/** Start-up with a bad variable stops the process (exit code 1) with the variable's name on stderr. */
async function startUpWith(env: Record<string, string>): Promise<string> {
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  resetConfig();
  const errors: string[] = [];
  vi.spyOn(console, "error").mockImplementation((message: unknown) => void errors.push(String(message)));
  vi.spyOn(process, "exit").mockImplementation((code) => {
    throw new Error(`exit ${code}`);
  });
  await expect(startUp()).rejects.toThrow("exit 1");
  return errors.join("\n");
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  resetConfig();
});

describe("startUp", () => {
  it.each([
    [{ MNEMO_INDEX_LEASE_SECONDS: "soon" }, /MNEMO_INDEX_LEASE_SECONDS: must be a whole number of at least 1 \(got "soon"\)/],
    [{ MNEMO_RERANKER: "cohere" }, /MNEMO_RERANKER: must be none, local or http \(got "cohere"\)/],
    [{ MNEMO_API_RATE_BURST: "lots" }, /MNEMO_API_RATE_BURST/],
    [{ MNEMO_IMAGE_EMBED_DIMENSION: "0" }, /MNEMO_IMAGE_EMBED_DIMENSION/],
    [{ DATABASE_POOL_SIZE: "0" }, /DATABASE_POOL_SIZE/],
  ])("stops on a bad variable, naming it: %o", async (env, message) => {
    expect(await startUpWith(env)).toMatch(message);
  });

  it.each([
    [{ MNEMO_RERANKER: "http" }, /MNEMO_RERANK_URL: an http\(s\) URL is required/],
    [{ MNEMO_GENERATOR: "openai-compatible", MNEMO_LLM_BASE_URL: "http://127.0.0.1:1" }, /MNEMO_LLM_MODEL: the model name is required/],
    [{ MNEMO_EMBEDDER: "openai-compatible" }, /MNEMO_EMBEDDING_BASE_URL: is required/],
    [{ MNEMO_IMAGE_EMBEDDER: "clip-http" }, /MNEMO_IMAGE_EMBED_URL: is required/],
  ])("stops when variables that belong together do not fit: %o", async (env, message) => {
    expect(await startUpWith(env)).toMatch(message);
  });
});
