-- Projects an admin marks public are served to anonymous viewers and harvesters: IIIF manifests
-- and images, OAI-PMH and the media files of their records, nothing else. `public_since` is
-- when the project last became public: a harvester asking for changes since a date must get
-- the records of a project published after that date even when the records themselves are older.
ALTER TABLE "projects" ADD COLUMN "public" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "projects" ADD COLUMN "public_since" TIMESTAMP(3);
