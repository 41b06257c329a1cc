/**
 * `npm run db:serve-pglite -- <data dir> [port]`: serves a PGlite data directory (e.g.
 * `.data/pgdata`) over the Postgres wire protocol on 127.0.0.1, so server mode (DATABASE_URL,
 * the `pg` driver, separate workers and web processes) can be exercised on a machine without a
 * Postgres that has pgvector. PGlite is a single session: the server runs one client message at
 * a time and keeps each connection's query exchange and transaction whole (lib/db/serve-pglite.ts),
 * so several processes may connect, each taking its turn.
 */
import { exitWithUsage, parseArgsOrExit } from "./command-line";
import { createPGlite } from "../lib/db/database";
import { servePGlite } from "../lib/db/serve-pglite";

const usage = "usage: npm run db:serve-pglite -- <pgdata dir> [port]  (PGLITE_MAX_CONNECTIONS, default 8)";
const { positionals } = parseArgsOrExit({ options: {}, allowPositionals: true, strict: true }, usage);
const dataDir = positionals[0];
const port = Number(positionals[1] ?? 5433);
const maxConnections = Number(process.env.PGLITE_MAX_CONNECTIONS ?? 8);
if (!dataDir || positionals.length > 2 || !Number.isInteger(port) || !Number.isInteger(maxConnections) || maxConnections < 1) exitWithUsage(usage);
const pglite = await createPGlite(dataDir);
const server = await servePGlite(pglite, { port, maxConnections });
console.log(`[pglite] serving ${dataDir} on postgresql://postgres:postgres@127.0.0.1:${port}/postgres (${maxConnections} connections)`);
const stop = async () => {
  await server.stop();
  await pglite.close();
  process.exit(0);
};
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
