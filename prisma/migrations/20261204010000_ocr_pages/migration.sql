-- Scanned pages (issue 18, OCR): a scanned PDF is a media file of its own kind, and every page
-- of a scan (an image, a TIFF page, a PDF page) gets a row with the text tesseract read, its
-- word boxes (to highlight a hit on the page image) and, for a page taken out of a PDF or TIFF,
-- the stored page image. Written by the index worker; passages carry the page in chunks.page.
ALTER TYPE "MediaKind" ADD VALUE 'document';

CREATE TABLE "media_pages" (
    "media_id" TEXT NOT NULL,
    "page" INTEGER NOT NULL,
    "width" INTEGER NOT NULL DEFAULT 0,
    "height" INTEGER NOT NULL DEFAULT 0,
    "text" TEXT NOT NULL DEFAULT '',
    "words" JSONB NOT NULL DEFAULT '[]',
    "mean_confidence" DOUBLE PRECISION,
    "language" TEXT,
    "status" TEXT NOT NULL,
    "error" TEXT,
    "image_key" TEXT,
    "image_mime" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "media_pages_pkey" PRIMARY KEY ("media_id","page")
);

CREATE UNIQUE INDEX "media_pages_image_key_key" ON "media_pages"("image_key");

ALTER TABLE "media_pages" ADD CONSTRAINT "media_pages_media_id_fkey" FOREIGN KEY ("media_id") REFERENCES "media"("id") ON DELETE CASCADE ON UPDATE CASCADE;
