import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { fakeClipImageVector, fakeClipTextVector, startFakeClipServer, type FakeClipServer } from "../../../tests/support/fake-clip-server";
import { EmbeddingError, dot } from "./embedder";
import { createClipHttpEmbedder } from "./clip-http-embedder";
import { imageEmbedderConfigFromEnv } from "./image-embedder";

/**
 * The CLIP-over-HTTP adapter against real loopback servers: the fake CLIP endpoint for the
 * protocol, and a bare server for answers no honest endpoint gives (garbled, short, infinite).
 */
const fakes: FakeClipServer[] = [];
const bareServers: Server[] = [];

afterEach(async () => {
  for (const fake of fakes.splice(0)) await fake.close();
  for (const server of bareServers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function fakeServer(options: Parameters<typeof startFakeClipServer>[0]): Promise<FakeClipServer> {
  const fake = await startFakeClipServer(options);
  fakes.push(fake);
  return fake;
}

/** A server that answers every request with `body` as written. */
async function bareServer(status: number, body: string): Promise<string> {
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => response.writeHead(status, { "content-type": "application/json" }).end(body));
  });
  bareServers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function image(seed: number, mime = "image/png"): { bytes: Uint8Array; mime: string } {
  return { bytes: Uint8Array.from([137, 80, 78, 71, seed & 255, (seed >> 8) & 255, 13, 10]), mime };
}

function length(vector: Float32Array): number {
  return Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
}

async function rejection(promise: Promise<unknown>): Promise<EmbeddingError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(EmbeddingError);
  return error as EmbeddingError;
}

describe("createClipHttpEmbedder", () => {
  it("embeds images to unit vectors of the configured dimension, in input order", async () => {
    const fake = await fakeServer({ dimension: 8 });
    const embedder = createClipHttpEmbedder({ baseUrl: fake.url, model: "jina-clip-v2", dimension: 8 });
    expect(embedder).toMatchObject({ provider: "clip-http", model: "jina-clip-v2", dimension: 8, external: true });

    const images = [image(1), image(2, "image/jpeg"), image(3, "image/webp")];
    const vectors = await embedder.embedImages(images);

    expect(vectors).toHaveLength(3);
    vectors.forEach((vector, index) => {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(vector).toHaveLength(8);
      expect(length(vector)).toBeCloseTo(1, 5);
      const expected = fakeClipImageVector(images[index]!.bytes, 8);
      expected.forEach((value, i) => expect(vector[i]).toBeCloseTo(value, 5));
    });
    expect(fake.requests).toEqual([{ kind: "image", count: 3 }]);
    expect(fake.imagesReceived.map((bytes) => [...bytes])).toEqual(images.map((entry) => [...entry.bytes]));
  });

  it("gives the same bytes the same vector and different bytes a different one", async () => {
    const fake = await fakeServer({ dimension: 16 });
    const embedder = createClipHttpEmbedder({ baseUrl: fake.url, model: "clip", dimension: 16 });
    const [first, again, other] = await embedder.embedImages([image(7), image(7, "image/jpeg"), image(8)]);
    expect(dot(first!, again!)).toBeCloseTo(1, 5);
    expect(dot(first!, other!)).toBeLessThan(0.99);
  });

  it("embeds texts with the text tower, in input order", async () => {
    const fake = await fakeServer({ dimension: 8 });
    const embedder = createClipHttpEmbedder({ baseUrl: fake.url, model: "clip", dimension: 8 });
    const texts = ["a bronze coin", "A Bronze Coin", "a silver ring"];
    const vectors = await embedder.embedTexts!(texts);

    expect(vectors).toHaveLength(3);
    for (const vector of vectors) expect(length(vector)).toBeCloseTo(1, 5);
    fakeClipTextVector("a silver ring", 8).forEach((value, i) => expect(vectors[2]![i]).toBeCloseTo(value, 5));
    expect(dot(vectors[0]!, vectors[1]!)).toBeCloseTo(1, 5);
    expect(fake.requests).toEqual([{ kind: "text", count: 3 }]);
    expect(fake.imagesReceived).toEqual([]);
  });

  it("splits large inputs into batches of batchSize (16 by default)", async () => {
    const fake = await fakeServer({ dimension: 4 });
    const images = Array.from({ length: 20 }, (_, index) => image(index));

    const byDefault = createClipHttpEmbedder({ baseUrl: fake.url, model: "clip", dimension: 4 });
    const vectors = await byDefault.embedImages(images);
    expect(vectors).toHaveLength(20);
    expect(fake.requests.map((request) => request.count)).toEqual([16, 4]);
    fakeClipImageVector(images[19]!.bytes, 4).forEach((value, i) => expect(vectors[19]![i]).toBeCloseTo(value, 5));

    const small = createClipHttpEmbedder({ baseUrl: fake.url, model: "clip", dimension: 4, batchSize: 3 });
    await small.embedTexts!(["one", "two", "three", "four"]);
    expect(fake.requests.slice(2)).toEqual([
      { kind: "text", count: 3 },
      { kind: "text", count: 1 },
    ]);
  });

  it("sends no request for no input", async () => {
    const fake = await fakeServer({ dimension: 4 });
    const embedder = createClipHttpEmbedder({ baseUrl: fake.url, model: "clip", dimension: 4 });
    expect(await embedder.embedImages([])).toEqual([]);
    expect(await embedder.embedTexts!([])).toEqual([]);
    expect(fake.requests).toEqual([]);
  });

  it("sends a bearer token only when an API key is set", async () => {
    const fake = await fakeServer({ dimension: 4 });
    await createClipHttpEmbedder({ baseUrl: fake.url, model: "clip", dimension: 4, apiKey: "secret-key" }).embedImages([image(1)]);
    await createClipHttpEmbedder({ baseUrl: fake.url, model: "clip", dimension: 4 }).embedImages([image(1)]);
    expect(fake.requests[0]?.authorization).toBe("Bearer secret-key");
    expect(fake.requests[1]).not.toHaveProperty("authorization");
  });

  it("accepts a base URL with or without a trailing /v1 or slash", async () => {
    const fake = await fakeServer({ dimension: 4 });
    for (const baseUrl of [fake.url, `${fake.url}/`, `${fake.url}/v1`, `${fake.url}/v1/`]) {
      await expect(createClipHttpEmbedder({ baseUrl, model: "clip", dimension: 4 }).embedTexts!(["x"])).resolves.toHaveLength(1);
    }
    expect(fake.requests).toHaveLength(4);
  });

  it("refuses unsupported or empty input before anything leaves the host", async () => {
    const fake = await fakeServer({ dimension: 4 });
    const embedder = createClipHttpEmbedder({ baseUrl: fake.url, model: "clip", dimension: 4 });
    const tiff = await rejection(embedder.embedImages([image(1), image(2, "image/tiff")]));
    expect(tiff.retryable).toBe(false);
    expect(tiff.message).toMatch(/Image 1.*image\/tiff/);
    expect((await rejection(embedder.embedImages([{ bytes: new Uint8Array(0), mime: "image/png" }]))).message).toMatch(/empty/);
    expect((await rejection(embedder.embedTexts!(["fine", "  "]))).message).toMatch(/Text 1 is empty/);
    expect(fake.requests).toEqual([]);
  });

  it("reports server errors and rate limits as retryable", async () => {
    for (const status of [500, 503, 429]) {
      const fake = await fakeServer({ dimension: 4, failWith: status });
      const error = await rejection(createClipHttpEmbedder({ baseUrl: fake.url, model: "clip", dimension: 4 }).embedImages([image(1)]));
      expect(error.retryable).toBe(true);
      expect(error.message).toContain(`HTTP ${status}`);
    }
  });

  it("reports other client errors as not retryable, quoting status and body but never the key", async () => {
    const fake = await fakeServer({ dimension: 4, failWith: 400 });
    const embedder = createClipHttpEmbedder({ baseUrl: fake.url, model: "clip", dimension: 4, apiKey: "secret-key" });
    const error = await rejection(embedder.embedImages([image(1)]));
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("HTTP 400");
    expect(error.message).toContain("the model is unavailable");
    expect(error.message).not.toContain("secret-key");
  });

  it("quotes only a short excerpt of a long error body", async () => {
    const url = await bareServer(422, JSON.stringify({ detail: "x".repeat(5000) }));
    const error = await rejection(createClipHttpEmbedder({ baseUrl: url, model: "clip", dimension: 4 }).embedTexts!(["a"]));
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("HTTP 422");
    expect(error.message.length).toBeLessThan(500);
  });

  it("refuses vectors of the wrong dimension", async () => {
    const fake = await fakeServer({ dimension: 8 });
    const error = await rejection(createClipHttpEmbedder({ baseUrl: fake.url, model: "clip", dimension: 4 }).embedImages([image(1)]));
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/returned 8 dimensions, but 4 are configured/);
  });

  it("refuses garbled JSON, a wrong count, repeated indexes and non-finite numbers", async () => {
    const answers: [string, RegExp][] = [
      ["{ not json", /not JSON/],
      [JSON.stringify({ data: [{ index: 0, embedding: [1, 0, 0, 0] }] }), /returned 1 vectors for 2 images/],
      [JSON.stringify({ data: [0, 0].map((index) => ({ index, embedding: [1, 0, 0, 0] })) }), /index 0, out of range or repeated/],
      ['{"data":[{"index":0,"embedding":[1e400,0,0,0]},{"index":1,"embedding":[1,0,0,0]}]}', /unexpected shape/],
      [JSON.stringify({ vectors: [] }), /unexpected shape/],
    ];
    for (const [body, message] of answers) {
      const url = await bareServer(200, body);
      const error = await rejection(createClipHttpEmbedder({ baseUrl: url, model: "clip", dimension: 4 }).embedImages([image(1), image(2)]));
      expect(error.retryable).toBe(false);
      expect(error.message).toMatch(message);
    }
  });

  it("puts vectors answered out of order back in input order", async () => {
    const body = JSON.stringify({
      data: [
        { index: 1, embedding: [0, 2, 0, 0] },
        { index: 0, embedding: [3, 0, 0, 0] },
      ],
    });
    const url = await bareServer(200, body);
    const [first, second] = await createClipHttpEmbedder({ baseUrl: url, model: "clip", dimension: 4 }).embedTexts!(["a", "b"]);
    expect([...first!]).toEqual([1, 0, 0, 0]);
    expect([...second!]).toEqual([0, 1, 0, 0]);
  });

  it("reports a timeout as retryable", async () => {
    const fake = await fakeServer({ dimension: 4, delayMs: 2_000 });
    const embedder = createClipHttpEmbedder({ baseUrl: fake.url, model: "clip", dimension: 4, timeoutMs: 150 });
    const error = await rejection(embedder.embedImages([image(1)]));
    expect(error.retryable).toBe(true);
    expect(error.message).toContain("no answer within 150 ms");
  });

  it("reports an unreachable server as retryable", async () => {
    const fake = await startFakeClipServer({ dimension: 4 });
    await fake.close();
    const error = await rejection(createClipHttpEmbedder({ baseUrl: fake.url, model: "clip", dimension: 4 }).embedTexts!(["a"]));
    expect(error.retryable).toBe(true);
  });
});

describe("imageEmbedderConfigFromEnv", () => {
  const clip = {
    MNEMO_IMAGE_EMBEDDER: "clip-http",
    MNEMO_IMAGE_EMBED_URL: "https://api.jina.ai",
    MNEMO_IMAGE_EMBED_MODEL: "jina-clip-v2",
    MNEMO_IMAGE_EMBED_DIMENSION: "1024",
  };

  it("defaults to the offline descriptor", () => {
    expect(imageEmbedderConfigFromEnv({})).toEqual({ kind: "descriptor" });
    expect(imageEmbedderConfigFromEnv({ MNEMO_IMAGE_EMBEDDER: " descriptor " })).toEqual({ kind: "descriptor" });
  });

  it("reads a clip-http endpoint, with a 30 s default timeout", () => {
    expect(imageEmbedderConfigFromEnv(clip)).toEqual({
      kind: "clip-http",
      baseUrl: "https://api.jina.ai",
      model: "jina-clip-v2",
      dimension: 1024,
      timeoutMs: 30_000,
    });
    expect(imageEmbedderConfigFromEnv({ ...clip, MNEMO_IMAGE_EMBED_API_KEY: "k", MNEMO_IMAGE_EMBED_TIMEOUT_MS: "5000" })).toMatchObject({
      apiKey: "k",
      timeoutMs: 5000,
    });
  });

  it("names the variable that is missing or wrong", () => {
    expect(() => imageEmbedderConfigFromEnv({ ...clip, MNEMO_IMAGE_EMBED_URL: undefined })).toThrow(/MNEMO_IMAGE_EMBED_URL: is required/);
    expect(() => imageEmbedderConfigFromEnv({ ...clip, MNEMO_IMAGE_EMBED_URL: "ftp://example.org" })).toThrow(/MNEMO_IMAGE_EMBED_URL: must be an http/);
    expect(() => imageEmbedderConfigFromEnv({ ...clip, MNEMO_IMAGE_EMBED_MODEL: "" })).toThrow(/MNEMO_IMAGE_EMBED_MODEL: is required/);
    expect(() => imageEmbedderConfigFromEnv({ ...clip, MNEMO_IMAGE_EMBED_DIMENSION: undefined })).toThrow(/MNEMO_IMAGE_EMBED_DIMENSION: is required/);
    for (const dimension of ["0", "-3", "4001", "12.5", "wide"]) {
      expect(() => imageEmbedderConfigFromEnv({ ...clip, MNEMO_IMAGE_EMBED_DIMENSION: dimension })).toThrow(/MNEMO_IMAGE_EMBED_DIMENSION/);
    }
    expect(() => imageEmbedderConfigFromEnv({ ...clip, MNEMO_IMAGE_EMBED_TIMEOUT_MS: "soon" })).toThrow(/MNEMO_IMAGE_EMBED_TIMEOUT_MS/);
    expect(() => imageEmbedderConfigFromEnv({ MNEMO_IMAGE_EMBEDDER: "magic" })).toThrow(/MNEMO_IMAGE_EMBEDDER: must be descriptor or clip-http/);
  });

  it("never quotes the API key back", () => {
    let message = "";
    try {
      imageEmbedderConfigFromEnv({ ...clip, MNEMO_IMAGE_EMBED_API_KEY: "top-secret", MNEMO_IMAGE_EMBED_DIMENSION: "0" });
    } catch (error) {
      message = String(error);
    }
    expect(message).toContain("MNEMO_IMAGE_EMBED_DIMENSION");
    expect(message).not.toContain("top-secret");
  });
});
