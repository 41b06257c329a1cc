import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { EmbeddingError, normaliseVector } from "./embedder";
import { createOpenAiCompatibleEmbedder, embeddingsEndpoint } from "./openai-compatible-embedder";

/** A real HTTP server on 127.0.0.1 standing in for Ollama / vLLM / TEI / OpenAI. */
interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: { model?: string; input?: string[]; dimensions?: number; encoding_format?: string };
}

type Reply = (request: ReceivedRequest, response: ServerResponse) => void;

const servers: Server[] = [];

async function startServer(reply: Reply): Promise<{ baseUrl: string; requests: ReceivedRequest[] }> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const request: ReceivedRequest = {
        method: incoming.method ?? "",
        url: incoming.url ?? "",
        headers: incoming.headers,
        body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as ReceivedRequest["body"],
      };
      requests.push(request);
      reply(request, response);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}`, requests };
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A fake model: a 4-d vector that depends on the exact text it received. */
function fakeVector(text: string, dimension = 4): number[] {
  let sum = 0;
  for (const character of text) sum += character.codePointAt(0) ?? 0;
  return Array.from({ length: dimension }, (_, i) => ((sum * (i + 3)) % 97) + 1);
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

const answerEmbeddings =
  (options: { dimension?: number; shuffle?: boolean } = {}): Reply =>
  (request, response) => {
    const data = (request.body.input ?? []).map((text, index) => ({ object: "embedding", index, embedding: fakeVector(text, options.dimension) }));
    sendJson(response, 200, { object: "list", model: request.body.model, data: options.shuffle ? data.reverse() : data });
  };

const expected = (text: string) => Array.from(normaliseVector(fakeVector(text)));
const texts = Array.from({ length: 10 }, (_, i) => `Passage number ${i} about the ${["harbour", "factory", "school"][i % 3]}.`);

describe("OpenAI-compatible embedder", () => {
  it("posts batches to /v1/embeddings and returns normalised vectors in input order", async () => {
    const { baseUrl, requests } = await startServer(answerEmbeddings());
    const embedder = createOpenAiCompatibleEmbedder({ baseUrl, model: "e5-small", dimension: 4, batchSize: 4 });
    const vectors = await embedder.embed(texts, "passage");
    expect(requests.map((request) => request.body.input?.length)).toEqual([4, 4, 2]);
    expect(requests.every((request) => request.method === "POST" && request.url === "/v1/embeddings")).toBe(true);
    expect(requests[0]?.body).toMatchObject({ model: "e5-small", encoding_format: "float" });
    expect(vectors.map((vector) => Array.from(vector))).toEqual(texts.map(expected));
    expect(embedder).toMatchObject({ provider: "openai-compatible", model: "e5-small", dimension: 4, language: "multilingual" });
  });

  it("applies the query and passage prefixes", async () => {
    const { baseUrl, requests } = await startServer(answerEmbeddings());
    const embedder = createOpenAiCompatibleEmbedder({ baseUrl, model: "e5", dimension: 4, queryPrefix: "query: ", passagePrefix: "passage: " });
    const [queryVector] = await embedder.embed(["harbour strikes"], "query");
    await embedder.embed(["The harbour strike of 1951."], "passage");
    expect(requests[0]?.body.input).toEqual(["query: harbour strikes"]);
    expect(requests[1]?.body.input).toEqual(["passage: The harbour strike of 1951."]);
    expect(Array.from(queryVector ?? [])).toEqual(expected("query: harbour strikes"));
  });

  it("sends dimensions only when asked to", async () => {
    const { baseUrl, requests } = await startServer(answerEmbeddings());
    await createOpenAiCompatibleEmbedder({ baseUrl, model: "text-embedding-3-small", dimension: 4, requestDimensions: true }).embed(["a text"], "query");
    await createOpenAiCompatibleEmbedder({ baseUrl, model: "bge-m3", dimension: 4 }).embed(["a text"], "query");
    expect(requests[0]?.body.dimensions).toBe(4);
    expect(requests[1]?.body).not.toHaveProperty("dimensions");
  });

  it("sends the API key as a bearer token, and no authorization without one", async () => {
    const { baseUrl, requests } = await startServer(answerEmbeddings());
    await createOpenAiCompatibleEmbedder({ baseUrl, apiKey: "sk-test-123", model: "m", dimension: 4 }).embed(["x y"], "query");
    await createOpenAiCompatibleEmbedder({ baseUrl, model: "m", dimension: 4 }).embed(["x y"], "query");
    expect(requests[0]?.headers.authorization).toBe("Bearer sk-test-123");
    expect(requests[1]?.headers.authorization).toBeUndefined();
  });

  it("puts vectors back in input order when the server answers with shuffled indexes", async () => {
    const { baseUrl } = await startServer(answerEmbeddings({ shuffle: true }));
    const vectors = await createOpenAiCompatibleEmbedder({ baseUrl, model: "m", dimension: 4, batchSize: 6 }).embed(texts, "passage");
    expect(vectors.map((vector) => Array.from(vector))).toEqual(texts.map(expected));
  });

  it("accepts a base URL that already ends in /v1", () => {
    expect(embeddingsEndpoint("https://api.openai.com/v1/")).toBe("https://api.openai.com/v1/embeddings");
    expect(embeddingsEndpoint("http://127.0.0.1:11434")).toBe("http://127.0.0.1:11434/v1/embeddings");
  });

  it("rejects a body that is not JSON, for good", async () => {
    const { baseUrl } = await startServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end("<html>proxy error</html>");
    });
    const failure = createOpenAiCompatibleEmbedder({ baseUrl, model: "m", dimension: 4 }).embed(["text"], "query");
    await expect(failure).rejects.toBeInstanceOf(EmbeddingError);
    await expect(failure).rejects.toMatchObject({ retryable: false, message: expect.stringContaining("not JSON") });
  });

  it("rejects JSON of the wrong shape, for good", async () => {
    const { baseUrl } = await startServer((_request, response) => sendJson(response, 200, { data: [{ embedding: ["0.1", "x"], index: 0 }] }));
    await expect(createOpenAiCompatibleEmbedder({ baseUrl, model: "m", dimension: 2 }).embed(["text"], "query")).rejects.toMatchObject({
      name: "EmbeddingError",
      retryable: false,
    });
  });

  it("rejects vectors of the wrong dimension", async () => {
    const { baseUrl } = await startServer(answerEmbeddings({ dimension: 3 }));
    await expect(createOpenAiCompatibleEmbedder({ baseUrl, model: "m", dimension: 4 }).embed(["text"], "query")).rejects.toMatchObject({
      name: "EmbeddingError",
      retryable: false,
      message: expect.stringContaining("3 dimensions"),
    });
  });

  it("rejects an answer with fewer vectors than texts", async () => {
    const { baseUrl } = await startServer((_request, response) => sendJson(response, 200, { data: [{ embedding: [1, 2, 3, 4], index: 0 }] }));
    await expect(createOpenAiCompatibleEmbedder({ baseUrl, model: "m", dimension: 4 }).embed(["one", "two"], "query")).rejects.toMatchObject({
      retryable: false,
      message: expect.stringContaining("1 vectors for 2 texts"),
    });
  });

  it("marks 503 and 429 as retryable and 400 as not", async () => {
    let status = 503;
    const { baseUrl } = await startServer((_request, response) => sendJson(response, status, { error: { message: "busy" } }));
    const embedder = createOpenAiCompatibleEmbedder({ baseUrl, model: "m", dimension: 4 });
    await expect(embedder.embed(["text"], "query")).rejects.toMatchObject({ retryable: true, message: expect.stringContaining("HTTP 503") });
    status = 429;
    await expect(embedder.embed(["text"], "query")).rejects.toMatchObject({ retryable: true, message: expect.stringContaining("HTTP 429") });
    status = 400;
    await expect(embedder.embed(["text"], "query")).rejects.toMatchObject({ retryable: false, message: expect.stringContaining("HTTP 400") });
  });

  it("gives up on a server that never answers, as a retryable time-out", async () => {
    const { baseUrl } = await startServer(() => {
      // Accept the request and say nothing.
    });
    const started = Date.now();
    await expect(createOpenAiCompatibleEmbedder({ baseUrl, model: "m", dimension: 4, timeoutMs: 300 }).embed(["text"], "query")).rejects.toMatchObject({
      name: "EmbeddingError",
      retryable: true,
      message: expect.stringContaining("no answer within 300 ms"),
    });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("marks a refused connection as retryable", async () => {
    const { baseUrl } = await startServer(answerEmbeddings());
    for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
    await expect(createOpenAiCompatibleEmbedder({ baseUrl, model: "m", dimension: 4 }).embed(["text"], "query")).rejects.toMatchObject({
      name: "EmbeddingError",
      retryable: true,
    });
  });
});
