-- How to build an index space's embedder (provider, URL, model, dimension, the NAME of the
-- environment variable holding its key — never the key), so a space registered by an admin can
-- be built beside the active one, compared, activated and rolled back.
ALTER TABLE "index_spaces" ADD COLUMN "config" JSONB;
