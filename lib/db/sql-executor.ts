import type { PGlite } from "@electric-sql/pglite";
import type { Pool } from "pg";

/**
 * The narrow raw-SQL surface the migration runner and the vector helpers need, over either
 * database mode. Parameters are always bound ($1, $2…), never interpolated.
 */
export interface SqlExecutor {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
  /** Runs several statements (no parameters), as a migration file does. */
  exec(sql: string): Promise<void>;
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
}

/**
 * The embedded database answers on this thread and its promises settle as microtasks, so a chain
 * of statements never gives the event loop a turn: a streamed page's panels would run their
 * queries before the server flushed the page's first part, and one long request would hold every
 * other back. Each statement outside a transaction first waits for the event loop's next turn, as
 * a server's socket would make it.
 */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export function pgliteExecutor(db: Pick<PGlite, "query" | "exec" | "transaction">): SqlExecutor {
  return {
    async query<Row>(sql: string, params: unknown[] = []) {
      await nextTurn();
      const result = await db.query<Row>(sql, params);
      return result.rows;
    },
    async exec(sql: string) {
      await db.exec(sql);
    },
    async transaction<T>(work: (tx: SqlExecutor) => Promise<T>) {
      return db.transaction((tx) =>
        work({
          async query<Row>(sql: string, params: unknown[] = []) {
            return (await tx.query<Row>(sql, params)).rows;
          },
          async exec(sql: string) {
            await tx.exec(sql);
          },
          transaction: () => Promise.reject(new Error("nested transactions are not supported")),
        }),
      );
    },
  };
}

export function pgPoolExecutor(pool: Pool): SqlExecutor {
  return {
    async query<Row>(sql: string, params: unknown[] = []) {
      const result = await pool.query(sql, params);
      return result.rows as Row[];
    },
    async exec(sql: string) {
      await pool.query(sql);
    },
    async transaction<T>(work: (tx: SqlExecutor) => Promise<T>) {
      const client = await pool.connect();
      // Between two statements the pool no longer hears this connection: a server that drops it
      // then would end the process. Heard here, the next statement fails and the work rolls back.
      let dropped: Error | null = null;
      const onError = (error: Error) => void (dropped = error);
      client.on("error", onError);
      try {
        await client.query("BEGIN");
        const tx: SqlExecutor = {
          async query<Row>(sql: string, params: unknown[] = []) {
            return (await client.query(sql, params)).rows as Row[];
          },
          async exec(sql: string) {
            await client.query(sql);
          },
          transaction: () => Promise.reject(new Error("nested transactions are not supported")),
        };
        const result = await work(tx);
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        client.removeListener("error", onError);
        // A dropped connection is destroyed, not put back for the next caller.
        client.release(dropped ?? undefined);
      }
    },
  };
}

/** The part of the executor that runs one parameterised statement. */
export type SqlQuery = Pick<SqlExecutor, "query">;

/**
 * Raw SQL inside a Prisma interactive transaction, for SQL that services share with the raw
 * executor (access scoping, the indexing outbox) and must run in a save's own transaction.
 * Never the pool's executor there: with one connection the statement would wait for the very
 * transaction it belongs to, and with several it would not see the transaction's writes.
 */
export function transactionSql(tx: { $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T> }): SqlQuery {
  return {
    query<Row>(sql: string, params: unknown[] = []) {
      return tx.$queryRawUnsafe<Row[]>(sql, ...params);
    },
  };
}
