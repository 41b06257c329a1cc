-- Keyword (BM25) statistics kept at index time, per index space and per access scope, so the
-- keyword leg combines exactly the scopes a principal may read (security invariant 6) and counts
-- nothing over the corpus per query.
--
-- A passage's access scope is the sorted set of projects a reader needs: its record's project
-- and every contributing project. Its key is that array as JSON text (unambiguous whatever the
-- ids contain); the array itself is kept beside the key for the readability test (<@).
CREATE FUNCTION passage_scope(project_id TEXT, contributing_project_ids TEXT[]) RETURNS TEXT[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT ARRAY(SELECT DISTINCT p FROM unnest(array_append(coalesce(contributing_project_ids, '{}'), project_id)) AS p WHERE p IS NOT NULL ORDER BY p) $$;

CREATE FUNCTION passage_scope_key(project_id TEXT, contributing_project_ids TEXT[]) RETURNS TEXT
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT to_jsonb(passage_scope(project_id, contributing_project_ids))::text $$;

-- A passage's length for BM25: its lexeme occurrences (positions) in search_vector, original
-- text (weight A) and bridge translation (weight B) alike. Generated, so every writer of chunks
-- (the indexer, benchmarks, tests) gets it right, and existing rows are filled in here.
CREATE FUNCTION tsvector_occurrences(vector TSVECTOR) RETURNS INTEGER
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT coalesce(sum(greatest(cardinality(u.positions), 1)), 0)::integer FROM unnest(vector) AS u $$;

ALTER TABLE "chunks" ADD COLUMN "lexeme_count" INTEGER NOT NULL GENERATED ALWAYS AS (tsvector_occurrences(search_vector)) STORED;

-- Per (space, scope): how many passages and their total length (avgdl = total / passages).
CREATE TABLE "keyword_scope_stats" (
    "index_space_id" TEXT NOT NULL,
    "scope_key" TEXT NOT NULL,
    "project_ids" TEXT[],
    "passages" INTEGER NOT NULL,
    "total_length" BIGINT NOT NULL,

    CONSTRAINT "keyword_scope_stats_pkey" PRIMARY KEY ("index_space_id", "scope_key")
);

-- Per (space, lexeme, scope): in how many passages the lexeme occurs (document frequency).
CREATE TABLE "keyword_lexeme_stats" (
    "index_space_id" TEXT NOT NULL,
    "lexeme" TEXT NOT NULL,
    "scope_key" TEXT NOT NULL,
    "passages" INTEGER NOT NULL,

    CONSTRAINT "keyword_lexeme_stats_pkey" PRIMARY KEY ("index_space_id", "lexeme", "scope_key")
);

ALTER TABLE "keyword_scope_stats" ADD CONSTRAINT "keyword_scope_stats_index_space_id_fkey" FOREIGN KEY ("index_space_id") REFERENCES "index_spaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "keyword_lexeme_stats" ADD CONSTRAINT "keyword_lexeme_stats_index_space_id_fkey" FOREIGN KEY ("index_space_id") REFERENCES "index_spaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Kept exact by statement triggers on chunks, in the transaction that changes the passages:
-- whatever deletes, inserts or updates them (a record's re-index, a record deleted and its
-- passages cascading, a passage's project changed, a test clearing the table). Passages of an
-- index space being dropped are skipped: its statistics go with it by the cascade above.
-- Rows that fall to zero are kept: a re-index deletes and re-inserts a record's passages, and
-- would otherwise delete and re-create the rows of all its words each time.
--
-- Locks: the scope rows are written first, in key order, so writers of one scope queue on its
-- row and only then take the lexeme rows, in key order; two transactions of one scope never
-- hold lexeme rows in opposite orders.
CREATE FUNCTION keyword_stats_apply() RETURNS TRIGGER
  LANGUAGE plpgsql
  AS $$
DECLARE
  source TEXT;
BEGIN
  source := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT index_space_id, project_id, contributing_project_ids, search_vector, lexeme_count, 1 AS sign FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT index_space_id, project_id, contributing_project_ids, search_vector, lexeme_count, -1 AS sign FROM old_rows'
    ELSE 'SELECT index_space_id, project_id, contributing_project_ids, search_vector, lexeme_count, 1 AS sign FROM new_rows
          UNION ALL SELECT index_space_id, project_id, contributing_project_ids, search_vector, lexeme_count, -1 FROM old_rows'
  END;
  source := format(
    'SELECT c.index_space_id, passage_scope_key(c.project_id, c.contributing_project_ids) AS scope_key,
            passage_scope(c.project_id, c.contributing_project_ids) AS project_ids, c.search_vector, c.lexeme_count, c.sign
       FROM (%s) AS c
      WHERE EXISTS (SELECT 1 FROM index_spaces s WHERE s.id = c.index_space_id)', source);

  EXECUTE format($sql$
    INSERT INTO keyword_scope_stats AS k (index_space_id, scope_key, project_ids, passages, total_length)
    SELECT index_space_id, scope_key, min(project_ids), sum(sign), sum(sign * lexeme_count::bigint)
      FROM (%s) AS c
     GROUP BY index_space_id, scope_key
    HAVING sum(sign) <> 0 OR sum(sign * lexeme_count::bigint) <> 0
     ORDER BY index_space_id, scope_key
    ON CONFLICT (index_space_id, scope_key) DO UPDATE
       SET passages = k.passages + excluded.passages, total_length = k.total_length + excluded.total_length
  $sql$, source);

  EXECUTE format($sql$
    INSERT INTO keyword_lexeme_stats AS k (index_space_id, lexeme, scope_key, passages)
    SELECT c.index_space_id, l.lexeme, c.scope_key, sum(c.sign)
      FROM (%s) AS c CROSS JOIN LATERAL unnest(tsvector_to_array(c.search_vector)) AS l(lexeme)
     GROUP BY c.index_space_id, l.lexeme, c.scope_key
    HAVING sum(c.sign) <> 0
     ORDER BY c.index_space_id, l.lexeme, c.scope_key
    ON CONFLICT (index_space_id, lexeme, scope_key) DO UPDATE SET passages = k.passages + excluded.passages
  $sql$, source);
  RETURN NULL;
END
$$;

CREATE TRIGGER "chunks_keyword_stats_insert" AFTER INSERT ON "chunks" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION keyword_stats_apply();
CREATE TRIGGER "chunks_keyword_stats_delete" AFTER DELETE ON "chunks" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION keyword_stats_apply();
CREATE TRIGGER "chunks_keyword_stats_update" AFTER UPDATE ON "chunks" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION keyword_stats_apply();

-- The passages indexed before this migration.
INSERT INTO keyword_scope_stats (index_space_id, scope_key, project_ids, passages, total_length)
SELECT index_space_id, passage_scope_key(project_id, contributing_project_ids), min(passage_scope(project_id, contributing_project_ids)),
       count(*), sum(lexeme_count::bigint)
  FROM chunks
 GROUP BY index_space_id, passage_scope_key(project_id, contributing_project_ids);

INSERT INTO keyword_lexeme_stats (index_space_id, lexeme, scope_key, passages)
SELECT c.index_space_id, l.lexeme, passage_scope_key(c.project_id, c.contributing_project_ids), count(*)
  FROM chunks c CROSS JOIN LATERAL unnest(tsvector_to_array(c.search_vector)) AS l(lexeme)
 GROUP BY c.index_space_id, l.lexeme, passage_scope_key(c.project_id, c.contributing_project_ids);
