import "server-only";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { openImage } from "../image-limits";
import { runChild } from "./run-tesseract";

/**
 * The page images of a stored scan, written into a temporary directory the caller owns:
 * - a PNG or JPEG is one page, read where it is stored (no copy);
 * - a TIFF gives one PNG per page (browsers cannot show TIFF; tesseract and the record page
 *   then read the same pixels);
 * - a PDF gives the image embedded on each page at its native resolution (`pdfimages`, never a
 *   re-rendering), the largest when a page holds several; a page without any image (typed text,
 *   a blank leaf) is rendered at 300 dpi with `pdftoppm` as the fallback.
 */
export interface PageImage {
  /** 1-based page number in the scan. */
  page: number;
  path: string;
  /** A copy made from the original (TIFF page, PDF image): to be stored for display. */
  extracted: boolean;
  extension: "png" | "jpg";
}

const toolTimeoutMs = 120_000;
/** PDFs with more pages than this are read up to here (a book belongs in several records). */
export const maxScanPages = 500;

export async function pageImagesOf(filePath: string, mime: string, directory: string): Promise<PageImage[]> {
  switch (mime) {
    case "image/png":
    case "image/jpeg":
      return [{ page: 1, path: filePath, extracted: false, extension: mime === "image/png" ? "png" : "jpg" }];
    case "image/tiff": {
      const { pages = 1 } = await openImage(filePath).metadata();
      const images: PageImage[] = [];
      for (let index = 0; index < Math.min(pages, maxScanPages); index++) {
        const path = join(directory, `page-${index + 1}.png`);
        await openImage(filePath, { page: index }).png().toFile(path);
        images.push({ page: index + 1, path, extracted: true, extension: "png" });
      }
      return images;
    }
    case "application/pdf":
      return pdfPageImages(filePath, directory);
    default:
      throw new Error(`${mime} is not a scan format`);
  }
}

/** One row of `pdfimages -list`: page, image number, type (image, smask, stencil…), size. */
export interface PdfImageEntry {
  page: number;
  number: number;
  type: string;
  width: number;
  height: number;
}

export function parsePdfImagesList(listing: string): PdfImageEntry[] {
  return listing
    .split("\n")
    .slice(2)
    .map((line) => line.trim().split(/\s+/))
    .filter((cells) => cells.length >= 5 && /^\d+$/.test(cells[0] ?? "") && /^\d+$/.test(cells[1] ?? ""))
    .map((cells) => ({ page: Number(cells[0]), number: Number(cells[1]), type: cells[2] ?? "", width: Number(cells[3]), height: Number(cells[4]) }));
}

/** The PDF's page count from `pdfinfo`. */
export function parsePdfPageCount(info: string): number {
  const match = /^Pages:\s+(\d+)/m.exec(info);
  if (!match) throw new Error("pdfinfo gave no page count: the PDF may be damaged");
  return Number(match[1]);
}

async function pdfPageImages(filePath: string, directory: string): Promise<PageImage[]> {
  const pages = Math.min(parsePdfPageCount((await runChild("pdfinfo", [filePath], toolTimeoutMs)).stdout), maxScanPages);
  const entries = parsePdfImagesList((await runChild("pdfimages", ["-list", "-l", String(pages), filePath], toolTimeoutMs)).stdout);
  // -p puts the page in each name (prefix-PPP-NNN.ext); -j keeps a JPEG as it is, the rest become PNG.
  await runChild("pdfimages", ["-p", "-j", "-png", "-l", String(pages), filePath, join(directory, "img")], toolTimeoutMs);
  const written = await readdir(directory);
  const images: PageImage[] = [];
  for (let page = 1; page <= pages; page++) {
    const largest = entries.filter((entry) => entry.page === page && entry.type === "image").sort((a, b) => b.width * b.height - a.width * a.height)[0];
    const prefix = largest ? `img-${String(page).padStart(3, "0")}-${String(largest.number).padStart(3, "0")}.` : null;
    const name = prefix ? written.find((file) => file.startsWith(prefix) && /\.(png|jpg)$/.test(file)) : undefined;
    if (name) {
      images.push({ page, path: join(directory, name), extracted: true, extension: name.endsWith(".jpg") ? "jpg" : "png" });
      continue;
    }
    const base = join(directory, `render-${page}`);
    await runChild("pdftoppm", ["-r", "300", "-f", String(page), "-l", String(page), "-png", "-singlefile", filePath, base], toolTimeoutMs);
    images.push({ page, path: `${base}.png`, extracted: true, extension: "png" });
  }
  return images;
}
