import { type IncomingMessage, createServer } from "node:http";
import { listenOnLoopback } from "./loopback-server";

/**
 * Serves a Web `Request → Response` handler (the route handlers' shape) on a loopback port, so
 * real HTTP clients — the MCP SDK's transports, a spawned `npm run mcp` — can talk to it.
 */
export interface ServedHandler {
  url: string;
  close(): Promise<void>;
}

async function toRequest(message: IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of message) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const headers = new Headers();
  for (const [name, value] of Object.entries(message.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const method = message.method ?? "GET";
  return new Request(new URL(message.url ?? "/", `http://${message.headers.host ?? "127.0.0.1"}`), {
    method,
    headers,
    body: method === "GET" || method === "HEAD" || body.length === 0 ? undefined : body,
  });
}

export async function serveWebHandler(handler: (request: Request) => Promise<Response>): Promise<ServedHandler> {
  const server = createServer((message, reply) => {
    void (async () => {
      try {
        const response = await handler(await toRequest(message));
        reply.writeHead(response.status, Object.fromEntries(response.headers));
        if (response.body) {
          const reader = response.body.getReader();
          for (let part = await reader.read(); !part.done; part = await reader.read()) reply.write(part.value);
        }
        reply.end();
      } catch (error) {
        reply.writeHead(500, { "content-type": "text/plain" });
        reply.end(String(error));
      }
    })();
  });
  // Node closes an idle connection after 5 s; a client whose timer runs late on a busy event loop
  // (the test's own work shares it) can send on a socket just being closed: "fetch failed".
  server.keepAliveTimeout = 120_000;
  return listenOnLoopback(server);
}
