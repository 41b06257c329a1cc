-- Fusion weights of an index space, measured on golden sets: how much hybrid search trusts
-- meaning against words, overall and per query language, with the figures they came from.
ALTER TABLE "index_spaces" ADD COLUMN "fusion" JSONB;
