import { createServer, type Server } from "node:http";
import { listenOnLoopback } from "./loopback-server";

/**
 * A stand-in for a `/rerank` cross-encoder (TEI's answer shape) on 127.0.0.1. It records the
 * texts it receives and scores them in reverse order of arrival, so a test sees that it was
 * applied; `outage` makes it fail with HTTP 500 or never answer.
 */
export interface FakeRerankServer {
  url: string;
  received: string[][];
  outage: "none" | "error" | "hang";
  close(): Promise<void>;
}

export async function startFakeRerankServer(): Promise<FakeRerankServer> {
  const state: Pick<FakeRerankServer, "received" | "outage"> = { received: [], outage: "none" };
  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      if (state.outage === "hang") return;
      if (state.outage === "error") {
        response.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: "reranker crashed" }));
        return;
      }
      const { texts } = JSON.parse(body) as { texts: string[] };
      state.received.push(texts);
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(texts.map((_, index) => ({ index, score: index }))));
    });
  });
  return Object.assign(state, await listenOnLoopback(server));
}
