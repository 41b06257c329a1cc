/**
 * The demo's scanned documents: each document's text set as page images (scanned-pages.ts),
 * slightly crooked and speckled, stored as a scanner would deliver them — a PDF, a PNG, a JPEG
 * or a TIFF in turn — for the index worker to read with OCR. The scan is the record's only
 * text, so what search and answers find of it is what OCR read.
 */
import { randomUUID } from "node:crypto";
import type { Prisma } from "../../lib/db/generated/client";
import { openImage } from "../../lib/archive/image-limits";
import { writeMediaFile } from "../../lib/archive/media-storage";
import { createRng } from "./prng";
import { imagePdf, paginate, plainParagraphs, renderScannedPage } from "./scanned-pages";
import type { ScannedDocument } from "./text-collections";

const formats = ["pdf", "png", "jpeg", "tiff"] as const;

export async function scannedDocument(
  document: Pick<ScannedDocument, "key" | "body">,
  position: number,
  options: { projectId: string; storageDir: string },
): Promise<{ media: Prisma.MediaCreateManyInput & { id: string; recordId: string }; pages: number }> {
  const format = formats[position % formats.length] ?? "png";
  const name = document.key;
  const rng = createRng(`scan:${name}`);
  const pages = paginate(plainParagraphs(document.body));
  // A PNG, JPEG (and here TIFF) is one page: a longer document must come as the PDF, never cut short.
  if (format !== "pdf" && pages.length > 1) throw new Error(`${name}: ${pages.length} pages, but a ${format} scan holds one; shorten it or make it the PDF`);
  const images: Buffer[] = [];
  for (const [index, lines] of pages.entries()) {
    const look = { angle: (rng.chance(0.5) ? -1 : 1) * rng.range(0.5, 1.5), noise: rng.range(0.002, 0.008), seed: `${name}:${index}` };
    images.push(await renderScannedPage(lines, { ...look, format: format === "png" ? "png" : "jpeg" }));
  }
  let bytes: Uint8Array;
  let mime: string;
  let extension: string;
  if (format === "pdf") {
    const embedded = [];
    for (const jpeg of images) {
      const { width = 0, height = 0 } = await openImage(jpeg).metadata();
      embedded.push({ jpeg, width, height });
    }
    [bytes, mime, extension] = [imagePdf(embedded), "application/pdf", "pdf"];
  } else if (format === "tiff") {
    [bytes, mime, extension] = [
      new Uint8Array(
        await openImage(images[0] ?? Buffer.alloc(0))
          .tiff({ compression: "lzw" })
          .toBuffer(),
      ),
      "image/tiff",
      "tif",
    ];
  } else {
    [bytes, mime, extension] = [new Uint8Array(images[0] ?? Buffer.alloc(0)), format === "png" ? "image/png" : "image/jpeg", format === "png" ? "png" : "jpg"];
  }
  const id = randomUUID();
  const written = await writeMediaFile(options.storageDir, id, extension, bytes);
  const { width = null, height = null } = mime === "application/pdf" ? {} : await openImage(bytes).metadata();
  return {
    media: {
      id,
      recordId: randomUUID(),
      projectId: options.projectId,
      fieldKey: "scan",
      kind: mime === "application/pdf" ? "document" : "image",
      mime,
      size: bytes.byteLength,
      width,
      height,
      // Rendered here, so every pixel is known to decode.
      imageCheck: mime === "application/pdf" ? null : "decoded",
      originalName: `${name}-scan.${extension}`,
      ...written,
    },
    pages: pages.length,
  };
}
