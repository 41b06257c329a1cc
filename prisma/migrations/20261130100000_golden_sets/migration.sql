-- Golden sets: questions with the records that answer them, per collection, kept by admins and
-- curators; and each run's figures (recall@k, nDCG@10, MRR) and misses.
CREATE TABLE "golden_sets" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "section_id" TEXT,
    "questions" JSONB NOT NULL DEFAULT '[]',
    "created_by_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "golden_sets_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "golden_runs" (
    "id" TEXT NOT NULL,
    "set_id" TEXT NOT NULL,
    "index_space_id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "metrics" JSONB NOT NULL,
    "results" JSONB NOT NULL,
    "run_by_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "golden_runs_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "golden_runs_set_id_created_at_idx" ON "golden_runs"("set_id", "created_at");
ALTER TABLE "golden_sets" ADD CONSTRAINT "golden_sets_section_id_fkey" FOREIGN KEY ("section_id") REFERENCES "sections"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "golden_runs" ADD CONSTRAINT "golden_runs_set_id_fkey" FOREIGN KEY ("set_id") REFERENCES "golden_sets"("id") ON DELETE CASCADE ON UPDATE CASCADE;
