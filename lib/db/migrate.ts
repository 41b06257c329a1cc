import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { SqlExecutor } from "./sql-executor";

/**
 * Applies prisma/migrations/<name>/migration.sql in name order, each in its own transaction,
 * and records it in _prisma_migrations with the same columns and checksum Prisma Migrate uses,
 * so `prisma migrate status` agrees wherever Prisma's engine is available. Idempotent: applied
 * migrations are skipped; an applied migration whose file changed is an error, not a re-run.
 */
export const defaultMigrationsDir = join(process.cwd(), "prisma", "migrations");

export interface MigrationResult {
  applied: string[];
  skipped: string[];
}

const ledgerSql = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum" VARCHAR(64) NOT NULL,
    "finished_at" TIMESTAMPTZ,
    "migration_name" VARCHAR(255) NOT NULL,
    "logs" TEXT,
    "rolled_back_at" TIMESTAMPTZ,
    "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

// Serialises concurrent start-ups of several web processes against one server database.
const advisoryLockKey = 72_616_001;

export async function listMigrations(migrationsDir = defaultMigrationsDir) {
  const entries = await readdir(/*turbopackIgnore: true*/ migrationsDir, { withFileTypes: true });
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(/*turbopackIgnore: true*/ join(migrationsDir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    }),
  );
}

/** The extensions the migrations create; pgvector from 0.8, whose iterative index scans keep an access-filtered page of results full. */
const requiredExtensions = ["vector", "unaccent", "pg_trgm"] as const;
export const minimumPgvectorVersion = "0.8";

/** Thrown when the database server cannot hold Mnemo's schema: the message says what to install. */
export class DatabaseSetupError extends Error {
  override name = "DatabaseSetupError";
}

/** -1, 0 or 1 as dotted version `a` is below, equal to or above `b` ("0.7.4" < "0.8.0" < "0.10.1"). */
export function compareVersions(a: string, b: string): number {
  const parts = (version: string) => version.split(/[.-]/).map((part) => Number.parseInt(part, 10) || 0);
  const [left, right] = [parts(a), parts(b)];
  for (let index = 0; index < Math.max(left.length, right.length); index++) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}

/**
 * Checks, before any migration runs, that the server has the extensions Mnemo's schema needs, so a
 * server without pgvector is told so in words instead of failing half way through the first
 * migration with "could not open extension control file".
 */
export async function checkExtensions(db: Pick<SqlExecutor, "query">): Promise<void> {
  const rows = await db.query<{ name: string; installed_version: string | null; default_version: string | null }>(
    `SELECT name, installed_version, default_version FROM pg_available_extensions WHERE name = ANY($1::text[])`,
    [[...requiredExtensions]],
  );
  const missing = requiredExtensions.filter((name) => !rows.some((row) => row.name === name));
  if (missing.includes("vector")) {
    throw new DatabaseSetupError(
      `This PostgreSQL server has no pgvector extension ("vector"), which Mnemo stores its search vectors with. ` +
        `Install pgvector ${minimumPgvectorVersion} or later on the database server (the postgresql-<version>-pgvector package ` +
        "from apt.postgresql.org, your cloud's managed extension, or a build from github.com/pgvector/pgvector), then start again.",
    );
  }
  if (missing.length > 0) {
    throw new DatabaseSetupError(
      `This PostgreSQL server lacks the ${missing.join(" and ")} extension${missing.length > 1 ? "s" : ""} (PostgreSQL's contrib modules): install them, then start again.`,
    );
  }
  const vector = rows.find((row) => row.name === "vector")!;
  const version = vector.installed_version ?? vector.default_version ?? "0";
  if (compareVersions(version, minimumPgvectorVersion) < 0) {
    throw new DatabaseSetupError(
      `pgvector ${version} is ${vector.installed_version ? "installed in this database" : "the server's version"}; Mnemo needs ${minimumPgvectorVersion} or later ` +
        "(its iterative index scans keep a reader's page of results full). Install the newer package, then run ALTER EXTENSION vector UPDATE in this database.",
    );
  }
}

export async function migrate(db: SqlExecutor, options: { migrationsDir?: string; log?: (line: string) => void } = {}): Promise<MigrationResult> {
  const log = options.log ?? (() => undefined);
  const migrations = await listMigrations(options.migrationsDir);
  await checkExtensions(db);
  await db.exec(ledgerSql);
  await db.query("SELECT pg_advisory_lock($1)", [advisoryLockKey]);
  try {
    const rows = await db.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations"
        WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const done = new Map(rows.map((row) => [row.migration_name, row.checksum]));
    const result: MigrationResult = { applied: [], skipped: [] };
    for (const migration of migrations) {
      const recorded = done.get(migration.name);
      if (recorded !== undefined) {
        if (recorded !== migration.checksum) {
          throw new Error(
            `Migration ${migration.name} was changed after it was applied (checksum mismatch). ` + "Add a new migration instead of editing an applied one.",
          );
        }
        result.skipped.push(migration.name);
        continue;
      }
      log(`applying migration ${migration.name}`);
      await db.transaction(async (tx) => {
        const id = randomUUID();
        await tx.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count)
           VALUES ($1, $2, $3, now(), 0)`,
          [id, migration.checksum, migration.name],
        );
        await tx.exec(migration.sql);
        await tx.query(`UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`, [id]);
      });
      result.applied.push(migration.name);
    }
    return result;
  } finally {
    await db.query("SELECT pg_advisory_unlock($1)", [advisoryLockKey]);
  }
}
