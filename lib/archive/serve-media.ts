import "server-only";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { Readable } from "node:stream";
import type { Principal } from "../acl";
import type { PrismaClient } from "../db/generated/client";
import { AppError, notFound } from "../errors";
import { parseByteRange } from "./byte-range";
import { getReadableMedia, storagePath } from "./media-storage";

/**
 * The HTTP response for a media file the principal may read, honouring a single Range request
 * so players can seek. A missing row, an unreadable one and a file missing on disk all end in
 * the same not_found.
 */
/**
 * The image of a scan's page, as OCR read it: the page image taken out of a PDF or TIFF, or the
 * upload itself for a one-page PNG or JPEG. A page that does not exist is not_found.
 */
export async function scanPageImage(
  prisma: PrismaClient,
  media: { id: string; mime: string; imageCheck: string | null },
  page: number,
): Promise<{ key?: string; mime: string; width: number; height: number }> {
  const row =
    Number.isSafeInteger(page) && page > 0
      ? await prisma.mediaPage.findUnique({
          where: { mediaId_page: { mediaId: media.id, page } },
          select: { imageKey: true, imageMime: true, width: true, height: true },
        })
      : null;
  if (!row) throw notFound();
  const size = { width: row.width, height: row.height };
  if (row.imageKey && row.imageMime) return { key: row.imageKey, mime: row.imageMime, ...size };
  if ((media.mime === "image/png" || media.mime === "image/jpeg") && media.imageCheck !== "undecodable") return { mime: media.mime, ...size };
  throw notFound();
}

export async function mediaResponse(
  prisma: PrismaClient,
  principal: Principal,
  input: { id: string; range: string | null; method: "GET" | "HEAD"; storageDir: string; variant?: "original" | "thumb" | "stream"; page?: number },
): Promise<Response> {
  const media = await getReadableMedia(prisma, principal, input.id);
  const pageImage = input.page === undefined ? null : await scanPageImage(prisma, media, input.page);
  const thumbnail = !pageImage && input.variant === "thumb" && media.thumbnailKey ? media.thumbnailKey : null;
  // A recording's streamable copy (made by the worker from a WAV or FLAC); the original until then.
  const streamable = !pageImage && input.variant === "stream" && media.streamKey ? media.streamKey : null;
  const path = storagePath(input.storageDir, pageImage ? (pageImage.key ?? media.storageKey) : (thumbnail ?? streamable ?? media.storageKey));
  const size = await stat(path).then(
    (stats) => stats.size,
    () => {
      throw notFound();
    },
  );
  const asciiName = media.originalName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  // An image whose pixels did not decode is kept, but only as a file to download: never
  // handed to a browser, or an agent, as a picture.
  const undecodable = media.imageCheck === "undecodable" && !pageImage;
  // A PDF or TIFF is handed over as a file; its pages are shown from their page images.
  const download = undecodable || (!pageImage && !thumbnail && (media.mime === "application/pdf" || media.mime === "image/tiff"));
  const headers = new Headers({
    "content-type":
      pageImage?.mime ?? (thumbnail ? "image/webp" : undecodable ? "application/octet-stream" : streamable ? (media.streamMime ?? media.mime) : media.mime),
    "accept-ranges": "bytes",
    "cache-control": "private, max-age=3600",
    "x-content-type-options": "nosniff",
    "content-disposition": `${download ? "attachment" : "inline"}; filename="${asciiName}"`,
  });
  const range = parseByteRange(input.range, size);
  if (range === "unsatisfiable") {
    throw new AppError("range_not_satisfiable", "The requested range is outside the file.", {
      headers: { "content-range": `bytes */${size}` },
    });
  }
  const start = range?.start ?? 0;
  const end = range?.end ?? size - 1;
  headers.set("content-length", String(size === 0 ? 0 : end - start + 1));
  if (range) headers.set("content-range", `bytes ${start}-${end}/${size}`);
  const status = range ? 206 : 200;
  if (input.method === "HEAD" || size === 0) return new Response(null, { status, headers });
  const stream = Readable.toWeb(createReadStream(path, { start, end })) as ReadableStream<Uint8Array>;
  return new Response(stream, { status, headers });
}
