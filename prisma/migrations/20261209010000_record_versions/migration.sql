-- Record history (lib/archive/record-history.ts): one row per saved version of a record — its
-- project, section, title and values as that save left them, when, by whom (`saved_by_id`, the
-- record's updated_by_id) and through what (`via`: form, api, mcp, proposal, version-restore,
-- import, bulk-load, project-restore; `details`: the API token's id and name, the import job, the
-- version restored…). Written by a trigger on every insert and every version change of a record,
-- so no write path can leave it out; the path names itself for the transaction with
-- set_config('mnemo.record_save', <json>, true) (lib/db/record-versions.ts). A record's history
-- goes with the record (ON DELETE CASCADE): a deleted record's values are not kept anywhere.
CREATE TABLE "record_versions" (
    "record_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "project_id" TEXT NOT NULL,
    "section_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "values" JSONB NOT NULL,
    "saved_at" TIMESTAMP(3) NOT NULL,
    "saved_by_id" TEXT,
    "via" TEXT NOT NULL,
    "details" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "record_versions_pkey" PRIMARY KEY ("record_id", "version")
);

ALTER TABLE "record_versions" ADD CONSTRAINT "record_versions_record_id_fkey" FOREIGN KEY ("record_id") REFERENCES "records"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE FUNCTION record_version_kept() RETURNS TRIGGER
  LANGUAGE plpgsql
  AS $$
DECLARE
  context JSONB := COALESCE(NULLIF(current_setting('mnemo.record_save', true), '')::jsonb, '{}'::jsonb);
BEGIN
  INSERT INTO "record_versions" ("record_id", "version", "project_id", "section_id", "title", "values", "saved_at", "saved_by_id", "via", "details")
  VALUES (NEW."id", NEW."version", NEW."project_id", NEW."section_id", NEW."title", NEW."values", NEW."updated_at", NEW."updated_by_id",
          COALESCE(context ->> 'via', 'unknown'), context - 'via');
  RETURN NULL;
END
$$;

CREATE TRIGGER "records_version_created" AFTER INSERT ON "records"
  FOR EACH ROW EXECUTE FUNCTION record_version_kept();
CREATE TRIGGER "records_version_saved" AFTER UPDATE ON "records"
  FOR EACH ROW WHEN (OLD."version" IS DISTINCT FROM NEW."version") EXECUTE FUNCTION record_version_kept();

-- Records saved before history was kept: their current version is where their history starts.
INSERT INTO "record_versions" ("record_id", "version", "project_id", "section_id", "title", "values", "saved_at", "saved_by_id", "via", "details")
SELECT "id", "version", "project_id", "section_id", "title", "values", "updated_at", "updated_by_id", 'earlier', '{}' FROM "records";
