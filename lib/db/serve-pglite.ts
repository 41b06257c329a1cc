import "server-only";
import type { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

/**
 * PGlite served over the Postgres wire protocol to several client processes (server mode
 * without a Postgres: `npm run db:serve-pglite`, the socket test mode, the load benchmark's
 * scale-out topology).
 *
 * PGlite is ONE Postgres session. pglite-socket (0.2.x) queues every client message and runs
 * one at a time; while `isInTransaction()` is true it only takes the next message from the
 * connection that holds the transaction, so an explicit BEGIN … COMMIT stays whole. But an
 * extended-protocol query (Parse, Bind, Describe, Execute, Sync — every parameterised query
 * `pg` and Prisma send) is an implicit transaction, for which `isInTransaction()` is false: a
 * second connection's messages may run between one connection's Parse and its Execute, and
 * rebind the session's unnamed statement or portal. That happens whenever a client's messages
 * reach the server in more than one socket read (large parameters, such as vectors or a
 * record's JSON): the first client then gets the second one's rows, or an error.
 *
 * `wholeExchanges` makes the queue see an open exchange as a transaction: from a connection's
 * first extended-protocol message until its Sync (or a simple Query), no other connection's
 * message runs. Connections are then serialised per exchange and per transaction, never
 * interleaved inside one.
 */
export interface ServePGliteOptions {
  port: number;
  host?: string;
  /** Client connections at once (each process's pool holds DATABASE_POOL_SIZE of them). */
  maxConnections: number;
}

// Messages that leave an extended-protocol exchange open until the client's Sync:
// Parse, Bind, Describe, Execute, Close, Flush.
const continuesExchange = new Set(["P", "B", "D", "E", "C", "H"].map((letter) => letter.charCodeAt(0)));
const syncMessage = new Uint8Array([0x53, 0, 0, 0, 4]);

export function wholeExchanges(db: PGlite): PGlite {
  let exchangeOpen = false;
  const overrides: Partial<Record<keyof PGlite, unknown>> = {
    isInTransaction: () => exchangeOpen || db.isInTransaction(),
    execProtocolRawStream: async (message: Uint8Array, options: Parameters<PGlite["execProtocolRawStream"]>[1]) => {
      // A startup message begins with its length's high byte (0); Query, Sync, Terminate and
      // the rest are whole on their own.
      exchangeOpen = continuesExchange.has(message[0]!);
      return db.execProtocolRawStream(message, options);
    },
    // The socket server's only exec: ROLLBACK when the connection holding the session goes
    // away. An exchange it left open is ended first (Sync), so the session is clean for the next.
    exec: async (query: string, options?: Parameters<PGlite["exec"]>[1]) => {
      if (exchangeOpen) {
        exchangeOpen = false;
        await db.execProtocolRaw(syncMessage);
        if (/^\s*rollback\s*$/i.test(query) && !db.isInTransaction()) return [];
      }
      return db.exec(query, options);
    },
  };
  return new Proxy(db, {
    get(target, property) {
      if (Object.hasOwn(overrides, property)) return overrides[property as keyof PGlite];
      const value: unknown = Reflect.get(target, property, target);
      // PGlite's methods use private fields: they must run on the instance, not the proxy.
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** Starts a socket server for `db` whose connections never interleave inside an exchange or transaction. */
export async function servePGlite(db: PGlite, options: ServePGliteOptions): Promise<PGLiteSocketServer> {
  const server = new PGLiteSocketServer({
    db: wholeExchanges(db),
    port: options.port,
    host: options.host ?? "127.0.0.1",
    maxConnections: options.maxConnections,
  });
  await server.start();
  return server;
}
