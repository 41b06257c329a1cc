-- Scope is never stale (security invariant 5). A passage's access scope — its record's project
-- and the projects of every record whose text it holds — was copied when it was indexed: a record
-- moved into a restricted project stayed findable under its old project until the worker reached
-- it, and passages holding a linked record's text were never re-scoped at all. Rows derived from
-- records now say WHICH records they came from, so their scope follows those records:
--   passages, in the transaction that moves a record (lib/acl/derived-scope.ts: the keyword
--     statistics triggers follow the update);
--   stored proposals and saved answers, read live from the records at query time.
ALTER TABLE "chunks" ADD COLUMN "contributing_record_ids" TEXT[] DEFAULT ARRAY[]::TEXT[];
CREATE INDEX "chunks_contributing_record_ids_idx" ON "chunks" USING GIN ("contributing_record_ids");

-- The neighbours a proposal's evidence came from (voters and supporting objects).
ALTER TABLE "proposals" ADD COLUMN "evidence_record_ids" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- The records whose text the sources of an answer held.
ALTER TABLE "chat_messages" ADD COLUMN "source_record_ids" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- Passages indexed before: every record their group's field paths reach through the current
-- links, the record itself included (a superset of the records whose text they hold, unless a
-- link changed after they were indexed: those records are queued again below). The update
-- changes no passage's scope, so the keyword statistics trigger is off meanwhile.
ALTER TABLE "chunks" DISABLE TRIGGER "chunks_keyword_stats_update";
WITH RECURSIVE paths AS (
  SELECT g."id" AS group_id, string_to_array(p.path, '.') AS keys
    FROM "embed_groups" g CROSS JOIN LATERAL jsonb_array_elements_text(g."fields") AS p(path)
), walk AS (
  SELECT h.record_id AS host, h.embed_group_id AS group_id, p.keys, h.record_id AS at, 1 AS depth
    FROM (SELECT DISTINCT "record_id" AS record_id, "embed_group_id" AS embed_group_id FROM "chunks") AS h
    JOIN paths p ON p.group_id = h.embed_group_id
  UNION
  SELECT w.host, w.group_id, w.keys, l."target_id", w.depth + 1
    FROM walk w JOIN "record_links" l ON l."source_id" = w.at AND l."field_key" = w.keys[w.depth]
   WHERE w.depth <= cardinality(w.keys)
), reached AS (
  SELECT host, group_id, array_agg(DISTINCT at ORDER BY at) AS ids FROM walk GROUP BY host, group_id
)
UPDATE "chunks" AS c SET "contributing_record_ids" = reached.ids
  FROM reached WHERE reached.host = c."record_id" AND reached.group_id = c."embed_group_id";
UPDATE "chunks" SET "contributing_record_ids" = ARRAY["record_id"] WHERE cardinality("contributing_record_ids") = 0;
ALTER TABLE "chunks" ENABLE TRIGGER "chunks_keyword_stats_update";

-- A passage's projects now include those of every record it lists (the linked records a path
-- went through count too), never fewer than before; the statistics trigger follows.
UPDATE "chunks" AS c SET "contributing_project_ids" = listed.project_ids
  FROM (
    SELECT k."id", ARRAY(
      SELECT DISTINCT p FROM unnest(coalesce(k."contributing_project_ids", '{}') || ARRAY(
        SELECT r."project_id" FROM "records" r WHERE r."id" = ANY(k."contributing_record_ids"))) AS p
       WHERE p IS NOT NULL ORDER BY p) AS project_ids
      FROM "chunks" k
  ) AS listed
 WHERE listed."id" = c."id" AND NOT listed.project_ids <@ coalesce(c."contributing_project_ids", '{}');

-- Until now a record's passages were never rebuilt when a record they link to changed, so a
-- passage may still hold text a linked record no longer has, or one no longer linked. Every
-- record with passages and links is indexed again (unchanged passages keep their vectors).
INSERT INTO "index_queue" ("id", "record_id", "reason", "status", "attempts", "available_at", "created_at", "updated_at")
SELECT gen_random_uuid()::text, r."id", 'scope.records-listed', 'pending', 0, now(), now(), now()
  FROM "records" r
 WHERE EXISTS (SELECT 1 FROM "chunks" c WHERE c."record_id" = r."id")
   AND EXISTS (SELECT 1 FROM "record_links" l WHERE l."source_id" = r."id")
ON CONFLICT ("record_id") DO NOTHING;

UPDATE "proposals" SET "evidence_record_ids" = ARRAY(
  SELECT DISTINCT e.id FROM (
    SELECT v->>'recordId' FROM jsonb_array_elements(coalesce("evidence"->'voters', '[]'::jsonb)) AS v
    UNION ALL
    SELECT s->>'recordId' FROM jsonb_array_elements(coalesce("evidence"->'support', '[]'::jsonb)) AS s
  ) AS e(id) WHERE e.id IS NOT NULL ORDER BY e.id);

-- Saved answers: the records they cite, and the records whose text the cited passages hold
-- where those passages still exist.
UPDATE "chat_messages" AS m SET "source_record_ids" = ARRAY(
  SELECT DISTINCT s.id FROM (
    SELECT c->>'recordId' FROM jsonb_array_elements(m."citations") AS c
    UNION ALL
    SELECT unnest(k."contributing_record_ids") FROM "chunks" k
     WHERE k."id" IN (SELECT c->>'chunkId' FROM jsonb_array_elements(m."citations") AS c)
  ) AS s(id) WHERE s.id IS NOT NULL ORDER BY s.id)
 WHERE jsonb_typeof(m."citations") = 'array' AND jsonb_array_length(m."citations") > 0;
