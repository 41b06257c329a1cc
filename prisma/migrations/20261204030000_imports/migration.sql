-- Bulk import (lib/archive/import): records gain the catalogue number an import knows them by,
-- unique per section (NULLs never collide), and import jobs keep the file and the resume point.
ALTER TABLE "records" ADD COLUMN "external_id" TEXT;

CREATE UNIQUE INDEX "records_section_id_external_id_key" ON "records"("section_id", "external_id");

CREATE TYPE "ImportJobStatus" AS ENUM ('queued', 'running', 'done', 'failed');

CREATE TABLE "import_jobs" (
    "id" TEXT NOT NULL,
    "created_by_id" TEXT,
    "section_id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "mapping" JSONB NOT NULL,
    "media_folder" TEXT,
    "file_name" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "file_key" TEXT,
    "status" "ImportJobStatus" NOT NULL DEFAULT 'queued',
    "total" INTEGER NOT NULL,
    "cursor" INTEGER NOT NULL DEFAULT 0,
    "created" INTEGER NOT NULL DEFAULT 0,
    "updated" INTEGER NOT NULL DEFAULT 0,
    "unchanged" INTEGER NOT NULL DEFAULT 0,
    "skipped" INTEGER NOT NULL DEFAULT 0,
    "problems" JSONB NOT NULL DEFAULT '[]',
    "error" TEXT,
    "locked_by" TEXT,
    "heartbeat_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "import_jobs_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "import_jobs_status_created_at_idx" ON "import_jobs"("status", "created_at");
CREATE INDEX "import_jobs_created_by_id_idx" ON "import_jobs"("created_by_id");
ALTER TABLE "import_jobs" ADD CONSTRAINT "import_jobs_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "import_jobs" ADD CONSTRAINT "import_jobs_section_id_fkey" FOREIGN KEY ("section_id") REFERENCES "sections"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "import_jobs" ADD CONSTRAINT "import_jobs_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
