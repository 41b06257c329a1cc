import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import pg from "pg";
import { createPGlite, openDatabase, type Database } from "../../lib/db/database";
import { servePGlite } from "../../lib/db/serve-pglite";

/**
 * A fresh, migrated database for one test file, in the mode the suite runs in:
 * - MNEMO_TEST_DB_MODE=pglite (default): PGlite in-process through its Prisma adapter;
 * - MNEMO_TEST_DB_MODE=socket: PGlite served over the Postgres wire protocol by
 *   @electric-sql/pglite-socket, reached through `pg` and Prisma's pg adapter — server mode
 *   on a database that runs one query at a time;
 * - MNEMO_TEST_DB_MODE=postgres: a real PostgreSQL with pgvector (MNEMO_TEST_POSTGRES_URL, a
 *   superuser's URL; `npm run test:integration:postgres` starts a throwaway cluster when it is
 *   unset). Each file gets its own database, created empty and dropped when the file ends.
 */
export type TestDatabaseMode = "pglite" | "socket" | "postgres";

export function testDatabaseMode(): TestDatabaseMode {
  const mode = process.env.MNEMO_TEST_DB_MODE;
  return mode === "socket" || mode === "postgres" ? mode : "pglite";
}

/** True in the modes that reach the database through `pg` (a server URL child processes can use). */
export function testDatabaseIsServer(): boolean {
  return testDatabaseMode() !== "pglite";
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
  close(): Promise<void>;
}

/**
 * A database other processes can reach by URL, in the suite's server mode: on a real
 * PostgreSQL a new database of its own; otherwise PGlite served over the Postgres protocol. The
 * socket server runs one connection's messages at a time and keeps each connection's query
 * exchange and transaction whole (lib/db/serve-pglite.ts), so several processes may connect;
 * `maxConnections` bounds them (the test's own connection is one).
 */
export async function serveTestDatabase(options: { maxConnections?: number; poolSize?: number } = {}): Promise<ServedDatabase> {
  if (testDatabaseMode() === "postgres") return createPostgresTestDatabase({ poolSize: options.poolSize });
  const pglite = await createPGlite("memory://");
  const port = await freePort();
  const server = await servePGlite(pglite, { port, maxConnections: options.maxConnections ?? 4 });
  const url = `postgresql://postgres:postgres@127.0.0.1:${port}/postgres`;
  // One connection: PGlite is a single session, so transactions must not interleave.
  const database = await openDatabase({ url, poolSize: 1 });
  return {
    url,
    database,
    async close() {
      await database.close();
      await server.stop();
      await pglite.close();
    },
  };
}

function postgresAdminUrl(): string {
  const url = process.env.MNEMO_TEST_POSTGRES_URL;
  if (!url) {
    throw new Error(
      "MNEMO_TEST_DB_MODE=postgres needs MNEMO_TEST_POSTGRES_URL (a superuser's URL to PostgreSQL 15+ with pgvector); " +
        "`npm run test:integration:postgres` starts a throwaway cluster when it is unset",
    );
  }
  return url;
}

/** The URL of another database on the same server as `url`. */
export function withDatabaseName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/**
 * A new, empty database on the real PostgreSQL, migrated, with a pool of several connections
 * (the server runs their queries in parallel, as in production). Dropped on close, whatever
 * connections are still open to it.
 */
export async function createPostgresTestDatabase(options: { poolSize?: number; migrate?: boolean } = {}): Promise<ServedDatabase> {
  const adminUrl = postgresAdminUrl();
  const name = `mnemo_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = withDatabaseName(adminUrl, name);
  const database = await openDatabase({ url, poolSize: options.poolSize ?? 4, migrateOnOpen: options.migrate !== false });
  return {
    url,
    database,
    async close() {
      await database.close();
      await dropPostgresTestDatabase(name);
    },
  };
}

async function dropPostgresTestDatabase(name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: postgresAdminUrl() });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

export async function openTestDatabase(): Promise<Database> {
  if (testDatabaseMode() === "pglite") return openDatabase({ dataDir: "memory://" });
  const served = await serveTestDatabase();
  return { ...served.database, close: served.close };
}
