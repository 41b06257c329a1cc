-- Audio and video intake (lib/archive/audio-intake.ts): the index worker, never the upload
-- request, probes a recording's duration, makes a streamable copy when the original is not
-- one (WAV, FLAC), stores waveform peaks and a silence-detection draft of the transcript.
-- Recordings stored before this migration (the demo's Ogg Opus) are left as they are: NULL
-- intake means there is nothing for the worker to do.
CREATE TYPE "MediaIntake" AS ENUM ('pending', 'ready', 'failed');

ALTER TABLE "media" ADD COLUMN "intake" "MediaIntake";
ALTER TABLE "media" ADD COLUMN "stream_key" TEXT;
ALTER TABLE "media" ADD COLUMN "stream_mime" TEXT;
ALTER TABLE "media" ADD COLUMN "peaks" JSONB;
CREATE UNIQUE INDEX "media_stream_key_key" ON "media"("stream_key");

-- Drafts of a record's transcript field: a skeleton of timecoded empty turns from silence
-- detection, or a transcription server's answer; offered to the record's editors.
CREATE TYPE "TranscriptDraftSource" AS ENUM ('segmentation', 'asr');
CREATE TYPE "TranscriptDraftStatus" AS ENUM ('pending', 'ready', 'failed', 'applied', 'dismissed');

CREATE TABLE "transcript_drafts" (
    "id" TEXT NOT NULL,
    "record_id" TEXT NOT NULL,
    "field_key" TEXT NOT NULL,
    "media_id" TEXT NOT NULL,
    "source" "TranscriptDraftSource" NOT NULL,
    "status" "TranscriptDraftStatus" NOT NULL DEFAULT 'pending',
    "model" TEXT,
    "turns" JSONB NOT NULL DEFAULT '[]',
    "error" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "created_by_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "transcript_drafts_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "transcript_drafts_record_id_field_key_source_key" ON "transcript_drafts"("record_id", "field_key", "source");
CREATE INDEX "transcript_drafts_media_id_idx" ON "transcript_drafts"("media_id");

ALTER TABLE "transcript_drafts" ADD CONSTRAINT "transcript_drafts_record_id_fkey" FOREIGN KEY ("record_id") REFERENCES "records"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "transcript_drafts" ADD CONSTRAINT "transcript_drafts_media_id_fkey" FOREIGN KEY ("media_id") REFERENCES "media"("id") ON DELETE CASCADE ON UPDATE CASCADE;
