/**
 * `npm run db:serve-pglite -- <data dir> [port]`: serves a PGlite data directory (e.g.
 * `.data/pgdata`) over the Postgres wire protocol on 127.0.0.1, so server mode (DATABASE_URL,
 * the `pg` driver, separate workers) can be exercised on a machine without a Postgres that has
 * pgvector. PGlite is a single session: clients must use one connection (DATABASE_POOL_SIZE=1).
 */
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { createPGlite } from "../lib/db/database";

const dataDir = process.argv[2];
const port = Number(process.argv[3] ?? 5433);
if (!dataDir) {
  console.error("usage: npm run db:serve-pglite -- <pgdata dir> [port]");
  process.exit(2);
}
const pglite = await createPGlite(dataDir);
const server = new PGLiteSocketServer({ db: pglite, port, host: "127.0.0.1", maxConnections: 8 });
await server.start();
console.log(`[pglite] serving ${dataDir} on postgresql://postgres:postgres@127.0.0.1:${port}/postgres`);
const stop = async () => {
  await server.stop();
  await pglite.close();
  process.exit(0);
};
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
