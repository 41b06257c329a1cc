-- Saved searches (lib/rag/search/saved-searches.ts): a user's named record-list state. `params`
-- holds the list's normalised URL parameters (q, mode, section, project, filters, sort; never
-- the page). `last_visited_at` is when the user last opened it through its link (or saved it):
-- "new since last visit" counts the readable matching records created or moved after it. A
-- saved search belongs to its user alone and goes with them.
CREATE TABLE "saved_searches" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "params" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_visited_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "saved_searches_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "saved_searches_user_id_name_key" ON "saved_searches"("user_id", "name");
ALTER TABLE "saved_searches" ADD CONSTRAINT "saved_searches_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- When a record last moved to another project (UTC), or NULL if it never moved. A record moved
-- into a project a user may read is new to that user's saved searches, like a created one. Set
-- by a trigger, so every code path that moves a record (the record form today) sets it.
ALTER TABLE "records" ADD COLUMN "moved_at" TIMESTAMP(3);

CREATE FUNCTION record_moved_at() RETURNS TRIGGER
  LANGUAGE plpgsql
  AS $$
BEGIN
  NEW."moved_at" := now() AT TIME ZONE 'UTC';
  RETURN NEW;
END
$$;

CREATE TRIGGER "records_moved_at" BEFORE UPDATE OF "project_id" ON "records"
  FOR EACH ROW WHEN (OLD."project_id" IS DISTINCT FROM NEW."project_id") EXECUTE FUNCTION record_moved_at();
