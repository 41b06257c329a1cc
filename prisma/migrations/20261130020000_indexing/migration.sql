-- Passages carry every project whose text they contain, their last page and their size.
ALTER TABLE "chunks" ADD COLUMN "contributing_project_ids" TEXT[] DEFAULT ARRAY[]::TEXT[];
ALTER TABLE "chunks" ADD COLUMN "page_end" INTEGER;
ALTER TABLE "chunks" ADD COLUMN "token_count" INTEGER NOT NULL DEFAULT 0;

DROP INDEX "chunks_record_id_idx";
CREATE INDEX "chunks_record_id_index_space_id_idx" ON "chunks"("record_id", "index_space_id");

-- CreateTable
CREATE TABLE "embedding_cache" (
    "index_space_id" TEXT NOT NULL,
    "text_hash" TEXT NOT NULL,
    "embedding" vector NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "embedding_cache_pkey" PRIMARY KEY ("index_space_id","text_hash")
);

-- AddForeignKey
ALTER TABLE "embedding_cache" ADD CONSTRAINT "embedding_cache_index_space_id_fkey" FOREIGN KEY ("index_space_id") REFERENCES "index_spaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- At most one active index space.
CREATE UNIQUE INDEX "index_spaces_one_active_idx" ON "index_spaces" ("status") WHERE "status" = 'active';
