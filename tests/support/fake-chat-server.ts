import { createServer, type Server } from "node:http";
import { listenOnLoopback } from "./loopback-server";

/**
 * A stand-in for an external chat model on 127.0.0.1, speaking OpenAI's streaming
 * chat-completions or Anthropic's streaming Messages API. It records every request body, so a
 * test can prove what left the server, and answers with a scripted text (or fails: an HTTP
 * status, or a `fault` — no answer at all, or half the answer streamed and then silence or a
 * dropped connection).
 */
export type ChatFault = "none" | "hang" | "stall" | "drop";

export interface FakeChatServer {
  url: string;
  requests: { path: string; body: Record<string, unknown> }[];
  answer: string | ((body: Record<string, unknown>) => string);
  status: number;
  fault: ChatFault;
  close(): Promise<void>;
}

export async function startFakeChatServer(options: { flavour: "openai" | "anthropic"; answer?: string }): Promise<FakeChatServer> {
  const state: Omit<FakeChatServer, "url" | "close"> = { requests: [], answer: options.answer ?? "", status: 200, fault: "none" };
  const server: Server = createServer((request, response) => {
    let raw = "";
    request.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
    request.on("end", () => {
      const body = JSON.parse(raw) as Record<string, unknown>;
      state.requests.push({ path: request.url ?? "", body });
      if (state.status !== 200) {
        response.writeHead(state.status, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "model overloaded" } }));
        return;
      }
      if (state.fault === "hang") return;
      const text = typeof state.answer === "function" ? state.answer(body) : state.answer;
      const all = text.match(/.{1,7}/gs) ?? [];
      const broken = state.fault === "stall" || state.fault === "drop";
      const pieces = broken ? all.slice(0, Math.ceil(all.length / 2)) : all;
      response.writeHead(200, { "content-type": "text/event-stream" });
      if (options.flavour === "openai") {
        for (const piece of pieces) response.write(`data: ${JSON.stringify({ choices: [{ delta: { content: piece } }] })}\n\n`);
      } else {
        response.write(`event: message_start\ndata: ${JSON.stringify({ type: "message_start", message: {} })}\n\n`);
        for (const piece of pieces) {
          response.write(
            `event: content_block_delta\ndata: ${JSON.stringify({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: piece } })}\n\n`,
          );
        }
      }
      // Half an answer, then silence (stall) or a cut connection (drop).
      if (state.fault === "drop") setTimeout(() => response.socket?.destroy(), 20);
      if (broken) return;
      response.end(options.flavour === "openai" ? "data: [DONE]\n\n" : `event: message_stop\ndata: ${JSON.stringify({ type: "message_stop" })}\n\n`);
    });
  });
  return Object.assign(state, await listenOnLoopback(server));
}

/** Every text a fake server received, joined, to search for what must never leave. */
export function receivedText(server: FakeChatServer): string {
  return server.requests.map((request) => JSON.stringify(request.body)).join("\n");
}
