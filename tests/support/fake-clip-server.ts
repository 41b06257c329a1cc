import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import { listenOnLoopback } from "./loopback-server";

/**
 * A stand-in for an external CLIP-style embeddings API (Jina shape) on 127.0.0.1: POST
 * /v1/embeddings with `input: [{ image: "data:…;base64,…" }]` or `input: [{ text }]`.
 * Vectors are deterministic unit vectors derived from sha256 of the decoded image bytes or of
 * the lowercased text, so equal inputs get equal vectors. It records every request and the
 * bytes of every image it received, so a test can prove which images left the host. `failWith`
 * answers every request with that HTTP status (settable mid-test); `delayMs` holds each answer.
 */
export interface FakeClipServer {
  url: string;
  requests: { kind: "image" | "text"; count: number; authorization?: string }[];
  imagesReceived: Buffer[];
  /** HTTP status every request is answered with instead of vectors; undefined to answer normally. */
  failWith: number | undefined;
  close(): Promise<void>;
}

export async function startFakeClipServer(options: { dimension: number; failWith?: number; delayMs?: number }): Promise<FakeClipServer> {
  const state: Pick<FakeClipServer, "requests" | "imagesReceived" | "failWith"> = { requests: [], imagesReceived: [], failWith: options.failWith };
  const pending = new Set<NodeJS.Timeout>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const reply = (status: number, body: unknown) => {
        const timer = setTimeout(() => {
          pending.delete(timer);
          if (!response.destroyed) response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
        }, options.delayMs ?? 0);
        pending.add(timer);
      };
      if (request.method !== "POST" || request.url !== "/v1/embeddings") {
        reply(404, { detail: `no route ${request.method} ${request.url}` });
        return;
      }
      const parsed = parseInputs(Buffer.concat(chunks).toString("utf8"));
      if (typeof parsed === "string") {
        reply(400, { detail: parsed });
        return;
      }
      const kind = "image" in parsed[0]! ? "image" : "text";
      state.requests.push({ kind, count: parsed.length, ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}) });
      for (const input of parsed) if ("image" in input) state.imagesReceived.push(input.image);
      if (state.failWith !== undefined) {
        reply(state.failWith, { detail: "the model is unavailable" });
        return;
      }
      const data = parsed.map((input, index) => ({
        object: "embedding",
        index,
        embedding: "image" in input ? fakeClipImageVector(input.image, options.dimension) : fakeClipTextVector(input.text, options.dimension),
      }));
      reply(200, { object: "list", model: "fake-clip", data, usage: { total_tokens: parsed.length } });
    });
  });
  return Object.assign(
    state,
    await listenOnLoopback(server, () => {
      for (const timer of pending) clearTimeout(timer);
    }),
  );
}

/** The vector the fake server gives an image: a unit vector from sha256 of its bytes. */
export function fakeClipImageVector(bytes: Uint8Array, dimension: number): number[] {
  return hashVector(createHash("sha256").update(bytes).digest(), dimension);
}

/** The vector the fake server gives a text: a unit vector from sha256 of the lowercased text. */
export function fakeClipTextVector(text: string, dimension: number): number[] {
  return hashVector(createHash("sha256").update(text.toLowerCase(), "utf8").digest(), dimension);
}

/** The request's inputs, all images (decoded) or all texts, or why the request is refused. */
function parseInputs(raw: string): ({ image: Buffer } | { text: string })[] | string {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return "body is not JSON";
  }
  const input = (body as { input?: unknown } | null)?.input;
  if (!Array.isArray(input) || input.length === 0) return "input must be a non-empty array";
  const inputs: ({ image: Buffer } | { text: string })[] = [];
  for (const item of input as unknown[]) {
    const entry = (item ?? {}) as { image?: unknown; text?: unknown };
    if (typeof entry.text === "string") {
      inputs.push({ text: entry.text });
      continue;
    }
    const match = typeof entry.image === "string" ? /^data:image\/(png|jpeg|webp);base64,([A-Za-z0-9+/]*={0,2})$/.exec(entry.image) : null;
    if (!match) return "each input must be { text } or { image: a PNG/JPEG/WebP data URL }";
    inputs.push({ image: Buffer.from(match[2]!, "base64") });
  }
  if (new Set(inputs.map((entry) => "image" in entry)).size > 1) return "images and texts cannot share a request";
  return inputs;
}

/** `dimension` values in [-1, 1) drawn from sha256(seed ‖ counter), scaled to length 1. */
function hashVector(seed: Buffer, dimension: number): number[] {
  const values: number[] = [];
  for (let counter = 0; values.length < dimension; counter++) {
    const block = createHash("sha256").update(seed).update(String(counter)).digest();
    for (let offset = 0; offset + 2 <= block.length && values.length < dimension; offset += 2) values.push(block.readUInt16BE(offset) / 32_768 - 1);
  }
  const norm = Math.sqrt(values.reduce((sum, value) => sum + value * value, 0)) || 1;
  return values.map((value) => value / norm);
}
