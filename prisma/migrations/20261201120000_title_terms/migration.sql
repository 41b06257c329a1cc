-- A passage's search vector also holds its record's title (weight C) when the passage's text
-- does not: group documents drop a lone title beside long text, and a query naming the record
-- must still find it by words. New passages get it at index time (index-record.ts); this adds
-- it to the passages indexed before. The keyword statistics triggers follow the update.
UPDATE "chunks" AS c
   SET "search_vector" = c."search_vector"
       || setweight(to_tsvector((CASE c."language" WHEN 'en' THEN 'english' WHEN 'es' THEN 'spanish' ELSE 'simple' END)::regconfig,
                                unaccent(btrim(r."title"))), 'C')
  FROM "records" AS r
 WHERE r."id" = c."record_id"
   AND btrim(r."title") <> ''
   AND strpos(lower(c."text"), lower(btrim(r."title"))) = 0;
