import pgvector from "pgvector";
import { type Principal, passageScopeSql } from "../../lib/acl";
import type { SqlExecutor } from "../../lib/db/sql-executor";
import type { IndexSpace } from "../../lib/rag/index/index-spaces";

/**
 * The dense leg's ordering with the HNSW index switched off: a sequential scan under the same
 * access predicate, exact. What the benchmarks measure the index's recall against.
 */
export async function exactTop(sql: SqlExecutor, principal: Principal, space: IndexSpace, vector: Float32Array, limit: number): Promise<string[]> {
  const cast = `vector(${space.dimension})`;
  const params: unknown[] = [pgvector.toSql(Array.from(vector))];
  const scope = passageScopeSql(principal, "c", params);
  params.push(limit);
  return sql.transaction(async (tx) => {
    await tx.exec(`SET LOCAL enable_indexscan = off; SET LOCAL enable_bitmapscan = off;`);
    const rows = await tx.query<{ id: string }>(
      `SELECT c.id FROM chunks c
        WHERE c.index_space_id = '${space.id}' AND c.embedding IS NOT NULL AND ${scope}
        ORDER BY c.embedding::${cast} <=> $1::${cast}, c.id
        LIMIT $${params.length}`,
      params,
    );
    return rows.map((row) => row.id);
  });
}
