import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { PGlite } from "@electric-sql/pglite";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../lib/db/database";
import { DatabaseSetupError } from "../../lib/db/migrate";
import { servePGlite } from "../../lib/db/serve-pglite";
import { freePort } from "../support/test-database";

/**
 * A server without pgvector, reached as server mode reaches any PostgreSQL (`pg` over the wire): a
 * PGlite started without its vector extension stands in for it. Opening it must refuse with what to
 * install, before any migration has run, and leave the database empty.
 */
describe("a database server without pgvector", () => {
  it("is refused in words before any migration runs", async () => {
    const pglite = await PGlite.create({ extensions: { unaccent, pg_trgm } });
    const port = await freePort();
    const server = await servePGlite(pglite, { port, maxConnections: 2 });
    try {
      const error = await openDatabase({ url: `postgresql://postgres:postgres@127.0.0.1:${port}/postgres`, poolSize: 1 }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DatabaseSetupError);
      expect((error as Error).message).toMatch(/no pgvector extension \("vector"\).*Install pgvector 0\.8 or later/);
      const tables = await pglite.query<{ count: number }>(`SELECT count(*)::int AS count FROM pg_tables WHERE schemaname = 'public'`);
      expect(tables.rows[0]?.count).toBe(0);
    } finally {
      await server.stop();
      await pglite.close();
    }
  });
});
