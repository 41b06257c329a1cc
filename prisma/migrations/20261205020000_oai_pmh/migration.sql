-- OAI-PMH (lib/archive/oai). A section's Dublin Core mapping, edited by admins: null means the
-- default derived from its field definitions.
ALTER TABLE "sections" ADD COLUMN "dc_mapping" JSONB;

-- Deleted-record tracking (Identify says deletedRecord=persistent): a record that stops being
-- served to harvesters leaves a tombstone, so an incremental harvester learns it is gone. It
-- is written here, by triggers, in the same transaction as the change, whichever code path
-- makes it: the record is deleted, moved out of a public project, or its project is unpublished.
-- A record that is served again (moved into a public project, its project published again)
-- loses its tombstone. `project_id` and `section_id` are where the record was last public: the
-- deleted header keeps those setSpecs, so a harvester of one set learns it too.
CREATE TABLE "oai_tombstones" (
    "record_id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "section_id" TEXT NOT NULL,
    "deleted_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oai_tombstones_pkey" PRIMARY KEY ("record_id")
);

CREATE INDEX "oai_tombstones_deleted_at_idx" ON "oai_tombstones"("deleted_at");
ALTER TABLE "oai_tombstones" ADD CONSTRAINT "oai_tombstones_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "oai_tombstones" ADD CONSTRAINT "oai_tombstones_section_id_fkey" FOREIGN KEY ("section_id") REFERENCES "sections"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Datestamps are UTC (timestamps without a zone hold UTC throughout the schema).
CREATE FUNCTION oai_record_left() RETURNS TRIGGER
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF EXISTS (SELECT 1 FROM "projects" WHERE "id" = OLD."project_id" AND "public") THEN
      INSERT INTO "oai_tombstones" ("record_id", "project_id", "section_id", "deleted_at")
      VALUES (OLD."id", OLD."project_id", OLD."section_id", now() AT TIME ZONE 'UTC')
      ON CONFLICT ("record_id") DO UPDATE SET "project_id" = EXCLUDED."project_id", "section_id" = EXCLUDED."section_id", "deleted_at" = EXCLUDED."deleted_at";
    END IF;
    RETURN OLD;
  END IF;
  -- An update that moved the record to another project.
  IF EXISTS (SELECT 1 FROM "projects" WHERE "id" = NEW."project_id" AND "public") THEN
    DELETE FROM "oai_tombstones" WHERE "record_id" = NEW."id";
  ELSIF EXISTS (SELECT 1 FROM "projects" WHERE "id" = OLD."project_id" AND "public") THEN
    INSERT INTO "oai_tombstones" ("record_id", "project_id", "section_id", "deleted_at")
    VALUES (OLD."id", OLD."project_id", OLD."section_id", now() AT TIME ZONE 'UTC')
    ON CONFLICT ("record_id") DO UPDATE SET "project_id" = EXCLUDED."project_id", "section_id" = EXCLUDED."section_id", "deleted_at" = EXCLUDED."deleted_at";
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER "records_oai_deleted" AFTER DELETE ON "records"
  FOR EACH ROW EXECUTE FUNCTION oai_record_left();
CREATE TRIGGER "records_oai_moved" AFTER UPDATE OF "project_id" ON "records"
  FOR EACH ROW WHEN (OLD."project_id" IS DISTINCT FROM NEW."project_id") EXECUTE FUNCTION oai_record_left();

CREATE FUNCTION oai_project_published() RETURNS TRIGGER
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF NEW."public" THEN
    DELETE FROM "oai_tombstones" t USING "records" r WHERE r."project_id" = NEW."id" AND t."record_id" = r."id";
  ELSE
    INSERT INTO "oai_tombstones" ("record_id", "project_id", "section_id", "deleted_at")
    SELECT r."id", r."project_id", r."section_id", now() AT TIME ZONE 'UTC' FROM "records" r WHERE r."project_id" = NEW."id"
    ON CONFLICT ("record_id") DO UPDATE SET "project_id" = EXCLUDED."project_id", "section_id" = EXCLUDED."section_id", "deleted_at" = EXCLUDED."deleted_at";
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER "projects_oai_published" AFTER UPDATE OF "public" ON "projects"
  FOR EACH ROW WHEN (OLD."public" IS DISTINCT FROM NEW."public") EXECUTE FUNCTION oai_project_published();
