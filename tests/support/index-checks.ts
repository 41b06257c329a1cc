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

/**
 * The keyword statistics (keyword_scope_stats, keyword_lexeme_stats) against a recount over the
 * chunks table: every difference as a line, so a test can expect []. Rows kept at zero count as
 * absent.
 */
export async function keywordStatisticsDrift(sql: SqlExecutor): Promise<string[]> {
  const scopes = await sql.query<{ line: string }>(
    `WITH recount AS (
       SELECT index_space_id, passage_scope_key(project_id, contributing_project_ids) AS scope_key,
              min(passage_scope(project_id, contributing_project_ids)) AS project_ids, count(*)::int AS passages, sum(lexeme_count)::bigint AS total_length
         FROM chunks GROUP BY 1, 2
     ), kept AS (
       SELECT index_space_id, scope_key, project_ids, passages, total_length FROM keyword_scope_stats WHERE passages <> 0 OR total_length <> 0
     )
     SELECT concat_ws(' ', 'scope', coalesce(r.index_space_id, k.index_space_id), coalesce(r.scope_key, k.scope_key),
                      'recount', r.passages, r.total_length, r.project_ids::text, 'kept', k.passages, k.total_length, k.project_ids::text) AS line
       FROM recount r FULL JOIN kept k ON k.index_space_id = r.index_space_id AND k.scope_key = r.scope_key
      WHERE r.passages IS DISTINCT FROM k.passages OR r.total_length IS DISTINCT FROM k.total_length OR r.project_ids IS DISTINCT FROM k.project_ids
      ORDER BY 1`,
  );
  const lexemes = await sql.query<{ line: string }>(
    `WITH recount AS (
       SELECT c.index_space_id, l.lexeme, passage_scope_key(c.project_id, c.contributing_project_ids) AS scope_key, count(*)::int AS passages
         FROM chunks c CROSS JOIN LATERAL unnest(tsvector_to_array(c.search_vector)) AS l(lexeme) GROUP BY 1, 2, 3
     ), kept AS (
       SELECT index_space_id, lexeme, scope_key, passages FROM keyword_lexeme_stats WHERE passages <> 0
     )
     SELECT concat_ws(' ', 'lexeme', coalesce(r.index_space_id, k.index_space_id), coalesce(r.lexeme, k.lexeme), coalesce(r.scope_key, k.scope_key),
                      'recount', r.passages, 'kept', k.passages) AS line
       FROM recount r FULL JOIN kept k ON k.index_space_id = r.index_space_id AND k.lexeme = r.lexeme AND k.scope_key = r.scope_key
      WHERE r.passages IS DISTINCT FROM k.passages
      ORDER BY 1`,
  );
  return [...scopes, ...lexemes].map((row) => row.line);
}
