-- A reindex an admin started: its scope, how many records it queued, when it ended. Progress is
-- read from the queue, so it survives a page reload and a restart.
CREATE TABLE "reindex_jobs" (
    "id" TEXT NOT NULL,
    "section_id" TEXT,
    "total" INTEGER NOT NULL,
    "started_by_id" TEXT,
    "started_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "reindex_jobs_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "reindex_jobs_started_at_idx" ON "reindex_jobs"("started_at");
ALTER TABLE "reindex_jobs" ADD CONSTRAINT "reindex_jobs_section_id_fkey" FOREIGN KEY ("section_id") REFERENCES "sections"("id") ON DELETE CASCADE ON UPDATE CASCADE;
