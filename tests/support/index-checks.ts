import type { SqlExecutor } from "../../lib/db/sql-executor";

/**
 * What "indexed exactly once" means in the chunks table, for the fault tests: no passage twice
 * for one record, group, space and position, and the same passages (text hash and vector) as a
 * clean run produces.
 */
export async function duplicatePassages(sql: SqlExecutor): Promise<number> {
  const [row] = await sql.query<{ duplicates: number }>(
    `SELECT count(*)::int AS duplicates FROM (
       SELECT record_id, embed_group_id, index_space_id, ordinal FROM chunks
        GROUP BY 1, 2, 3, 4 HAVING count(*) > 1) d`,
  );
  return row?.duplicates ?? -1;
}

/** Every passage as one comparable line: where it belongs, its content hash and its vector's hash. */
export async function passageSnapshot(sql: SqlExecutor): Promise<string[]> {
  const rows = await sql.query<{ line: string }>(
    `SELECT concat_ws('|', record_id, embed_group_id, index_space_id, ordinal, content_hash, token_count, md5(coalesce(embedding::text, ''))) AS line
       FROM chunks ORDER BY 1`,
  );
  return rows.map((row) => row.line);
}
