-- Uploads used to decode every pixel of an image on the request (seconds of CPU for a large
-- one). The request now reads only the header (dimensions, pixel count); the index worker
-- decodes the pixels and records the outcome here. Images stored before this migration were
-- fully decoded when they were uploaded (or rendered by the seed): they count as decoded.
CREATE TYPE "ImageCheck" AS ENUM ('pending', 'decoded', 'undecodable');

ALTER TABLE "media" ADD COLUMN "image_check" "ImageCheck";

UPDATE "media" SET "image_check" = 'decoded' WHERE "kind" = 'image';

