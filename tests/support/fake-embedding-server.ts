import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A stand-in for an external OpenAI-compatible embeddings API on 127.0.0.1: deterministic
 * vectors from the text, an optional delay per request (to catch a worker mid-batch) and texts
 * it refuses with HTTP 500 (a poison record). For outages, `outage` makes every request fail
 * (HTTP 500, HTTP 401, or no answer at all), and `down()`/`up()` stop and restart listening on
 * the same port, so clients get "connection refused" in between.
 */
export type EmbeddingOutage = "none" | "error" | "unauthorized" | "hang";

export interface FakeEmbeddingServer {
  url: string;
  requests: number;
  texts: number;
  /** Every text received, in order (to prove what left the host). */
  received: string[];
  outage: EmbeddingOutage;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startFakeEmbeddingServer(options: {
  dimension: number;
  delayMs?: number;
  failWhen?: (text: string) => boolean;
}): Promise<FakeEmbeddingServer> {
  const state = { requests: 0, texts: 0, outage: "none" as EmbeddingOutage };
  const received: string[] = [];
  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      state.requests++;
      if (state.outage === "hang") return;
      if (state.outage !== "none") {
        const status = state.outage === "unauthorized" ? 401 : 500;
        response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ error: status === 401 ? "invalid api key" : "model crashed" }));
        return;
      }
      const input = (JSON.parse(body) as { input: string[] }).input;
      state.texts += input.length;
      received.push(...input);
      setTimeout(() => {
        if (input.some((text) => options.failWhen?.(text))) {
          response.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: "model crashed" }));
          return;
        }
        const data = input.map((text, index) => ({ index, embedding: vectorFor(text, options.dimension) }));
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ data, model: "fake" }));
      }, options.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const stop = () =>
    new Promise<void>((resolve) => {
      // Kept-alive and hanging connections too, or clients would still reach it.
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return state.requests;
    },
    get texts() {
      return state.texts;
    },
    get outage() {
      return state.outage;
    },
    set outage(value: EmbeddingOutage) {
      state.outage = value;
    },
    received,
    down: stop,
    up: () => new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve)),
    close: () => (server.listening ? stop() : Promise.resolve()),
  };
}

function vectorFor(text: string, dimension: number): number[] {
  const vector = new Array<number>(dimension).fill(0);
  for (let index = 0; index < text.length; index++) vector[(text.charCodeAt(index) * 31 + index) % dimension]! += 1;
  const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0)) || 1;
  return vector.map((value) => value / norm);
}
