-- Objects: thumbnails of images, vectors of objects (one per image field in an image space, and
-- one of the object's catalogue context in the text space), and proposals that remember which
-- projects their evidence came from.

-- A small WebP derived from the image by the index worker; null until it has run.
ALTER TABLE "media" ADD COLUMN "thumbnail_key" TEXT;
CREATE UNIQUE INDEX "media_thumbnail_key_key" ON "media"("thumbnail_key");

-- kind 'image': one row per image field of an object (media_id, view) in an image space, e.g.
--   'descriptor/combined-v1/184' or 'clip-http/<model>/<dimension>';
-- kind 'context': one row per object, its typology/period/material text in the active text
--   index space ('text:<index space id>'), field_key ''.
-- Access is decided through the record (records.project_id), never copied here.
CREATE TABLE "object_vectors" (
    "id" TEXT NOT NULL,
    "record_id" TEXT NOT NULL,
    "media_id" TEXT,
    "field_key" TEXT NOT NULL,
    "view" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "space" TEXT NOT NULL,
    "source_hash" TEXT NOT NULL,
    "embedding" vector NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "object_vectors_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "object_vectors_kind_check" CHECK ("kind" IN ('image', 'context'))
);

CREATE UNIQUE INDEX "object_vectors_record_id_space_field_key_key" ON "object_vectors"("record_id", "space", "field_key");
CREATE INDEX "object_vectors_space_view_idx" ON "object_vectors"("space", "view");
CREATE INDEX "object_vectors_media_id_idx" ON "object_vectors"("media_id");

ALTER TABLE "object_vectors" ADD CONSTRAINT "object_vectors_record_id_fkey" FOREIGN KEY ("record_id") REFERENCES "records"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "object_vectors" ADD CONSTRAINT "object_vectors_media_id_fkey" FOREIGN KEY ("media_id") REFERENCES "media"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A proposal is shown only to someone who may read every project its evidence came from.
ALTER TABLE "proposals" ADD COLUMN "evidence_project_ids" TEXT[] DEFAULT ARRAY[]::TEXT[];
ALTER TABLE "proposals" ADD COLUMN "proposed_by_id" TEXT;
ALTER TABLE "proposals" ADD COLUMN "mode" TEXT NOT NULL DEFAULT 'hybrid';
CREATE INDEX "proposals_status_role_idx" ON "proposals"("status", "role");
-- At most one undecided proposal per record and role.
CREATE UNIQUE INDEX "proposals_one_pending_idx" ON "proposals"("record_id", "role") WHERE "status" = 'pending';
