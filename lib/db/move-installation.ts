import "server-only";
import type { Pool, PoolClient } from "pg";
import { listMigrations, migrate } from "./migrate";
import { pgPoolExecutor, type SqlExecutor } from "./sql-executor";

/**
 * Copies a whole installation's database — every table the migrations create, and every index the
 * source has beyond them (each index space's HNSW index) — from an embedded PGlite into an empty
 * PostgreSQL, in one transaction on the target, and verifies each table's row count and checksum
 * on both sides before committing. The table list, their columns and the order they are copied in
 * (parents before the tables that reference them) come from the database's own catalog, so a table
 * a future migration adds is copied without a change here.
 *
 * Refused, before anything is written (`MoveRefused`): a source whose applied migrations are not
 * exactly this code's, a target that lacks pgvector (the migration runner's check) or holds any row.
 * An interrupted copy leaves the target's tables empty (its transaction never commits), so the move
 * is simply run again. The source is only read.
 */
export class MoveRefused extends Error {
  override name = "MoveRefused";
}

/** The copy was made but does not match the source: rolled back, nothing kept. */
export class MoveVerificationFailed extends Error {
  override name = "MoveVerificationFailed";
  constructor(readonly tables: TableFigures[]) {
    const wrong = tables.filter((table) => !table.equal).map((table) => table.table);
    super(`The copy differs from the source in ${wrong.join(", ")}; it was rolled back and the target is empty.`);
  }
}

export interface TableFigures {
  table: string;
  rows: number;
  targetRows: number;
  /** Order-independent sums of each row's md5, source and target (two 60-bit halves). */
  checksum: string;
  targetChecksum: string;
  equal: boolean;
}

export interface MoveResult {
  tables: TableFigures[];
  /** Indexes made on the target beyond the migrations' (HNSW per index space). */
  indexes: string[];
  seconds: number;
}

export interface MoveOptions {
  source: SqlExecutor;
  /** The target server's pool; the copy's transaction holds one of its connections. */
  target: Pool;
  /** Rows per batch read from the source and written to the target (default 500). */
  batchRows?: number;
  log?: (line: string) => void;
  migrationsDir?: string;
}

interface TableShape {
  name: string;
  /** Columns that are written (generated columns are left to the target to compute). */
  columns: string[];
  /** Every column, for the checksum (generated ones included: they must agree too). */
  allColumns: string[];
  primaryKey: string[];
}

// Output formats fixed on both sides, so a value's text, the copy's and the checksum's, is the same.
const sessionSettings = [
  "SET TimeZone TO 'UTC'",
  "SET DateStyle TO 'ISO, YMD'",
  "SET IntervalStyle TO 'postgres'",
  "SET extra_float_digits TO 1",
  "SET bytea_output TO 'hex'",
];

const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

export async function moveInstallation(options: MoveOptions): Promise<MoveResult> {
  const started = performance.now();
  const log = options.log ?? (() => undefined);
  const batchRows = Math.max(1, Math.min(5000, Math.trunc(options.batchRows ?? 500)));
  await checkSourceMigrations(options.source, options.migrationsDir);

  // The schema first, through the migration runner (which refuses a server without pgvector).
  await migrate(pgPoolExecutor(options.target), { migrationsDir: options.migrationsDir, log });
  const shapes = await tableShapes(pgPoolExecutor(options.target));
  for (const shape of shapes) {
    const { rows } = await options.target.query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${quote(shape.name)}) AS any`);
    if (rows[0]?.any) {
      throw new MoveRefused(
        `The target database is not empty: table ${shape.name} has rows. Move into a new, empty database (createdb), or drop this one's tables first.`,
      );
    }
  }
  const sourceIndexes = await extraIndexes(options.source, options.target);
  for (const statement of sessionSettings) await options.source.exec(statement);

  const client = await options.target.connect();
  const clientSql: Pick<SqlExecutor, "query"> = { query: async <Row>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as Row[] };
  try {
    await client.query("BEGIN");
    for (const statement of sessionSettings) await client.query(statement.replace(/^SET /, "SET LOCAL "));
    // Derived rows (keyword statistics, OAI tombstones) are copied as they are, not derived again.
    for (const shape of shapes) await client.query(`ALTER TABLE ${quote(shape.name)} DISABLE TRIGGER USER`);
    for (const shape of shapes) await copyTable(options.source, client, shape, batchRows, log);
    for (const index of sourceIndexes) {
      log(`index ${index.name}: building…`);
      const indexStarted = performance.now();
      await client.query(index.definition);
      log(`index ${index.name}: built in ${((performance.now() - indexStarted) / 1000).toFixed(1)} s`);
    }
    for (const shape of shapes) await client.query(`ALTER TABLE ${quote(shape.name)} ENABLE TRIGGER USER`);
    const tables: TableFigures[] = [];
    for (const shape of shapes) {
      const [source, target] = [await checksum(options.source, shape), await checksum(clientSql, shape)];
      tables.push({
        table: shape.name,
        rows: source.rows,
        targetRows: target.rows,
        checksum: source.sum,
        targetChecksum: target.sum,
        equal: source.rows === target.rows && source.sum === target.sum,
      });
    }
    if (tables.some((table) => !table.equal)) throw new MoveVerificationFailed(tables);
    await client.query("COMMIT");
    // Fresh statistics for the planner at once, as autovacuum would give them in time.
    await options.target.query("ANALYZE");
    return { tables, indexes: sourceIndexes.map((index) => index.name), seconds: (performance.now() - started) / 1000 };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** The source's applied migrations must be this code's, no more and no fewer. */
async function checkSourceMigrations(source: SqlExecutor, migrationsDir?: string): Promise<void> {
  const [ledger] = await source.query<{ present: boolean }>(`SELECT to_regclass('public._prisma_migrations') IS NOT NULL AS present`);
  if (!ledger?.present) throw new MoveRefused("The source is not a Mnemo database: it has no migration ledger (_prisma_migrations).");
  const applied = await source.query<{ migration_name: string; checksum: string }>(
    `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
  );
  const known = await listMigrations(migrationsDir);
  const appliedNames = new Map(applied.map((row) => [row.migration_name, row.checksum]));
  const missing = known.filter((migration) => !appliedNames.has(migration.name));
  const unknown = applied.filter((row) => !known.some((migration) => migration.name === row.migration_name));
  const changed = known.filter((migration) => appliedNames.has(migration.name) && appliedNames.get(migration.name) !== migration.checksum);
  if (unknown.length > 0 || changed.length > 0) {
    throw new MoveRefused(
      `The source was migrated by another version of Mnemo (${[...unknown.map((row) => row.migration_name), ...changed.map((migration) => migration.name)].join(", ")}): move it with the version that wrote it.`,
    );
  }
  if (missing.length > 0) {
    throw new MoveRefused(
      `The source is behind this version of Mnemo (${missing.length} migration${missing.length > 1 ? "s" : ""} not applied, from ${missing[0]!.name}): run \`npm run db:migrate\` on it (MNEMO_DATA_DIR=…, no DATABASE_URL) or start the app on it once, then move.`,
    );
  }
}

/** The public tables, parents before the tables whose foreign keys reference them. */
async function tableShapes(sql: Pick<SqlExecutor, "query">): Promise<TableShape[]> {
  const columns = await sql.query<{ table: string; column: string; generated: boolean }>(
    `SELECT c.relname AS table, a.attname AS column, a.attgenerated <> '' AS generated
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname <> '_prisma_migrations'
      ORDER BY c.relname, a.attnum`,
  );
  const keys = await sql.query<{ table: string; column: string }>(
    `SELECT c.relname AS table, a.attname AS column
       FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, position)
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
      WHERE n.nspname = 'public' AND i.indisprimary
      ORDER BY c.relname, k.position`,
  );
  const references = await sql.query<{ child: string; parent: string }>(
    `SELECT DISTINCT child.relname AS child, parent.relname AS parent
       FROM pg_constraint f JOIN pg_class child ON child.oid = f.conrelid JOIN pg_class parent ON parent.oid = f.confrelid
       JOIN pg_namespace n ON n.oid = child.relnamespace
      WHERE f.contype = 'f' AND n.nspname = 'public' AND child.oid <> parent.oid`,
  );
  const byName = new Map<string, TableShape>();
  for (const row of columns) {
    const shape = byName.get(row.table) ?? byName.set(row.table, { name: row.table, columns: [], allColumns: [], primaryKey: [] }).get(row.table)!;
    shape.allColumns.push(row.column);
    if (!row.generated) shape.columns.push(row.column);
  }
  for (const row of keys) byName.get(row.table)?.primaryKey.push(row.column);
  for (const shape of byName.values()) {
    if (shape.primaryKey.length === 0) throw new MoveRefused(`Table ${shape.name} has no primary key, so it cannot be copied in batches.`);
  }
  const ordered: TableShape[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const place = (name: string) => {
    if (placed.has(name)) return;
    if (visiting.has(name)) throw new MoveRefused(`Tables reference each other in a loop through ${name}; they cannot be copied in order.`);
    visiting.add(name);
    for (const reference of references) if (reference.child === name && byName.has(reference.parent)) place(reference.parent);
    visiting.delete(name);
    placed.add(name);
    ordered.push(byName.get(name)!);
  };
  for (const name of [...byName.keys()].sort()) place(name);
  return ordered;
}

/** Indexes the source has and the freshly migrated target lacks (by name), with their definitions. */
async function extraIndexes(source: SqlExecutor, target: Pool): Promise<{ name: string; definition: string }[]> {
  const listIndexes = `SELECT indexname AS name, indexdef AS definition FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname`;
  const sourceIndexes = await source.query<{ name: string; definition: string }>(listIndexes);
  const targetNames = new Set((await target.query<{ name: string }>(listIndexes)).rows.map((row) => row.name));
  return sourceIndexes.filter((index) => !targetNames.has(index.name));
}

async function copyTable(source: SqlExecutor, target: PoolClient, shape: TableShape, batchRows: number, log: (line: string) => void): Promise<void> {
  const [{ total } = { total: 0 }] = await source.query<{ total: number }>(`SELECT count(*)::int AS total FROM ${quote(shape.name)}`);
  const started = performance.now();
  let copied = 0;
  let lastReport = started;
  const keyList = shape.primaryKey.map(quote).join(", ");
  const selectList = [
    ...shape.columns.map((column) => `${quote(column)}::text AS ${quote(column)}`),
    ...shape.primaryKey.map((column, index) => `${quote(column)} AS "__key${index}"`),
  ].join(", ");
  // Multi-row inserts within the protocol's 65,535 parameters.
  const rowsPerInsert = Math.max(1, Math.min(batchRows, Math.floor(60_000 / shape.columns.length)));
  let after: unknown[] | null = null;
  for (;;) {
    const params: unknown[] = after ?? [];
    const where: string = after ? `WHERE (${keyList}) > (${after.map((_, index) => `$${index + 1}`).join(", ")})` : "";
    const rows: Record<string, unknown>[] = await source.query<Record<string, unknown>>(
      `SELECT ${selectList} FROM ${quote(shape.name)} ${where} ORDER BY ${keyList} LIMIT ${batchRows}`,
      params,
    );
    if (rows.length === 0) break;
    for (let start = 0; start < rows.length; start += rowsPerInsert) {
      const slice = rows.slice(start, start + rowsPerInsert);
      const values: unknown[] = [];
      const tuples = slice.map((row) => `(${shape.columns.map((column) => `$${values.push(row[column] ?? null)}`).join(", ")})`);
      await target.query(`INSERT INTO ${quote(shape.name)} (${shape.columns.map(quote).join(", ")}) VALUES ${tuples.join(", ")}`, values);
    }
    copied += rows.length;
    const last: Record<string, unknown> = rows.at(-1)!;
    after = shape.primaryKey.map((_, index) => last[`__key${index}`]);
    const now = performance.now();
    if (now - lastReport > 5000) {
      lastReport = now;
      log(
        `${shape.name}: ${copied.toLocaleString("en")} of ${total.toLocaleString("en")} rows (${Math.round(copied / ((now - started) / 1000)).toLocaleString("en")} rows/s)`,
      );
    }
  }
  const seconds = (performance.now() - started) / 1000;
  log(
    `${shape.name}: ${copied.toLocaleString("en")} rows copied${copied > 0 ? ` in ${seconds.toFixed(1)} s (${Math.round(copied / Math.max(seconds, 0.001)).toLocaleString("en")} rows/s)` : ""}`,
  );
}

/** Row count and an order-independent checksum: the sum of each row's md5 (as the text of every column), in two 60-bit halves. */
async function checksum(sql: Pick<SqlExecutor, "query">, shape: TableShape): Promise<{ rows: number; sum: string }> {
  const rowText = `ROW(${shape.allColumns.map((column) => `${quote(column)}::text`).join(", ")})::text`;
  const statement = `SELECT count(*)::int AS rows,
      coalesce(sum(('x' || substr(h, 1, 15))::bit(60)::bigint), 0)::text || ':' || coalesce(sum(('x' || substr(h, 16, 15))::bit(60)::bigint), 0)::text AS sum
    FROM (SELECT md5(${rowText}) AS h FROM ${quote(shape.name)}) hashed`;
  const [row] = await sql.query<{ rows: number; sum: string }>(statement);
  return { rows: Number(row?.rows ?? 0), sum: String(row?.sum ?? "") };
}
