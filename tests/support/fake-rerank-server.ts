import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

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
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return Object.assign(state, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
