import "server-only";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { vector } from "@electric-sql/pglite-pgvector";
import { PrismaPg } from "@prisma/adapter-pg";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { getConfig } from "../config";
import { PrismaClient } from "./generated/client";
import { migrate } from "./migrate";
import { pgliteExecutor, pgPoolExecutor, type SqlExecutor } from "./sql-executor";

/**
 * One database handle per process: Prisma for the relational model, a raw executor for the
 * migration runner and pgvector SQL. Embedded mode keeps PGlite (Postgres in WebAssembly, with
 * vector, unaccent and pg_trgm) in <data dir>/pgdata; server mode connects to DATABASE_URL.
 */
export interface Database {
  prisma: PrismaClient;
  sql: SqlExecutor;
  mode: "embedded" | "server" | "memory";
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** postgres:// URL for server mode; otherwise embedded. */
  url?: string;
  /** PGlite data directory; "memory://" for a throwaway in-memory database. */
  dataDir?: string;
  poolSize?: number;
  migrateOnOpen?: boolean;
  log?: (line: string) => void;
  /** Embedded only: Postgres settings at start (`-c name=value`) beside PGlite's own; for benchmarks (scripts/bench/bench-pglite-settings.ts). */
  pgliteSettings?: Record<string, string>;
}

export async function createPGlite(dataDir: string, settings: Record<string, string> = {}): Promise<PGlite> {
  if (!dataDir.startsWith("memory://")) mkdirSync(dataDir, { recursive: true });
  const extra = Object.entries(settings).flatMap(([name, value]) => ["-c", `${name}=${value}`]);
  const db = await PGlite.create({
    dataDir: dataDir.startsWith("memory://") ? undefined : resolve(dataDir),
    extensions: { vector, unaccent, pg_trgm },
    // PGlite's own start parameters are replaced by any given, so they are passed on with the extra ones.
    ...(extra.length > 0 ? { startParams: [...PGlite.defaultStartParams, ...extra] } : {}),
  });
  return db;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  let database: Database;
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
    // A server that drops an idle connection (a restart, a failover, an administrator's
    // pg_terminate_backend, a network cut) makes the pool emit "error": unheard, Node throws it
    // and the process ends. The pool has already let the connection go; the next query opens another.
    pool.on("error", (error) => console.warn(`[db] the database server closed an idle connection: ${error.message}`));
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
    database = {
      prisma,
      sql: pgPoolExecutor(pool),
      mode: "server",
      async close() {
        await prisma.$disconnect();
        await pool.end();
      },
    };
  } else {
    const dataDir = options.dataDir ?? "memory://";
    const client = await createPGlite(dataDir, options.pgliteSettings);
    const prisma = new PrismaClient({ adapter: new PrismaPGlite(client) });
    database = {
      prisma,
      sql: pgliteExecutor(client),
      mode: dataDir.startsWith("memory://") ? "memory" : "embedded",
      async close() {
        await prisma.$disconnect();
        await client.close();
      },
    };
  }
  if (options.migrateOnOpen !== false) {
    try {
      await migrate(database.sql, { log: options.log });
    } catch (error) {
      // A database that cannot be migrated is not handed out: its connections close with it.
      await database.close().catch(() => undefined);
      throw error;
    }
  }
  return database;
}

/** Options for the process's own database, from the validated configuration. */
export function configuredDatabaseOptions(): OpenDatabaseOptions {
  const config = getConfig();
  return {
    url: config.DATABASE_URL,
    dataDir: join(config.MNEMO_DATA_DIR, "pgdata"),
    poolSize: config.DATABASE_POOL_SIZE,
  };
}
