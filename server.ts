/**
 * The production server: the built Next.js app behind Node's own HTTP server, so that every
 * request runs knowing the address of the socket it came on (lib/auth/client-address.ts).
 * Next.js gives route handlers and server actions no way to read it, and sign-in throttling
 * needs an address no client can write. `npm start`, `npm run demo` and the e2e server run this
 * (`tsx server.ts [-p port] [-H hostname]`); under plain `next start` or `next dev` the client's
 * address is unknown to sign-in throttling.
 */
import { createServer } from "node:http";
import { parseArgs } from "node:util";
import { runWithSocketAddress } from "./lib/auth/client-address";
import { parseConfig } from "./lib/config";

const { values } = parseArgs({
  options: {
    port: { type: "string", short: "p", default: "3000" },
    hostname: { type: "string", short: "H" },
  },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`[mnemo] --port must be a port number, not ${JSON.stringify(values.port)}`);
  process.exit(1);
}

// As `next start` does, before Next.js and React load (they choose their builds by it).
(process.env as Record<string, string | undefined>).NODE_ENV ??= "production";
// Every variable before Next.js starts; the start-up (lib/start-up.ts) checks how they combine.
try {
  parseConfig(process.env);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
const { default: next } = await import("next");
const app = next({ dev: false, hostname: values.hostname ?? "localhost", port });
await app.prepare();
const handle = app.getRequestHandler();

const server = createServer((request, response) => {
  runWithSocketAddress(request.socket.remoteAddress, () => {
    handle(request, response).catch((error: unknown) => {
      console.error("[mnemo] request failed", error);
      if (!response.headersSent) response.statusCode = 500;
      response.end();
    });
  });
});
server.listen(port, values.hostname, () => {
  console.log(`[mnemo] ready on http://${values.hostname ?? "localhost"}:${port}`);
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    // Keep-alive connections may hold close() open; do not wait for them for long.
    setTimeout(() => process.exit(0), 5_000).unref();
  });
}
