import type { PGlite } from "@electric-sql/pglite";
import { createServer } from "node:net";
import { createPGlite, openDatabase, type Database } from "../../lib/db/database";
import { servePGlite } from "../../lib/db/serve-pglite";

/**
 * A fresh, migrated database for one test file, in the mode the suite runs in:
 * - MNEMO_TEST_DB_MODE=pglite (default): PGlite in-process through its Prisma adapter;
 * - MNEMO_TEST_DB_MODE=socket: PGlite served over the Postgres wire protocol by
 *   @electric-sql/pglite-socket, reached through `pg` and Prisma's pg adapter — server mode.
 */
export type TestDatabaseMode = "pglite" | "socket";

export function testDatabaseMode(): TestDatabaseMode {
  return process.env.MNEMO_TEST_DB_MODE === "socket" ? "socket" : "pglite";
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/** A database server for tests: its URL (for child processes' DATABASE_URL) and a migrated connection to it. */
export interface ServedDatabase {
  url: string;
  database: Database;
  pglite: PGlite;
  close(): Promise<void>;
}

/**
 * PGlite served over the Postgres protocol. The socket server runs one connection's messages
 * at a time and keeps each connection's query exchange and transaction whole
 * (lib/db/serve-pglite.ts), so several processes may connect; `maxConnections` bounds them (the
 * test's own connection is one).
 */
export async function serveTestDatabase(options: { maxConnections?: number } = {}): Promise<ServedDatabase> {
  const pglite = await createPGlite("memory://");
  const port = await freePort();
  const server = await servePGlite(pglite, { port, maxConnections: options.maxConnections ?? 4 });
  const url = `postgresql://postgres:postgres@127.0.0.1:${port}/postgres`;
  // One connection: PGlite is a single session, so transactions must not interleave.
  const database = await openDatabase({ url, poolSize: 1 });
  return {
    url,
    database,
    pglite,
    async close() {
      await database.close();
      await server.stop();
      await pglite.close();
    },
  };
}

export async function openTestDatabase(): Promise<Database> {
  if (testDatabaseMode() === "pglite") return openDatabase({ dataDir: "memory://" });
  const served = await serveTestDatabase();
  return { ...served.database, close: served.close };
}
