/**
 * Scanned pages made from known text, for the demo (publications as page images), `eval:ocr`
 * and the OCR tests: an A5 page set in DejaVu Serif at 300 dpi, turned by a slight angle and
 * speckled like a photocopy, and a minimal PDF that embeds page images as a scanner would.
 */
import { openImage } from "../../lib/archive/image-limits";
import { createRng } from "./prng";

export const scanDpi = 300;
/** A5 at 300 dpi: a book or offprint page, and half an A4's pixels to render and read. */
export const pageWidth = 1748;
export const pageHeight = 2480;
const margin = 170;
/** 10 pt at 300 dpi; about 56 characters fill the measure. */
const fontPixels = 42;
const lineHeight = 60;
const charactersPerLine = 56;
export const linesPerPage = Math.floor((pageHeight - 2 * margin) / lineHeight);

/** The body of a long text as plain paragraphs: headings kept as lines, markers and emphasis dropped. */
export function plainParagraphs(markdown: string): string[] {
  return markdown
    .replace(/\r\n?/g, "\n")
    .split(/\n\s*\n/)
    .map((block) =>
      block
        .replace(/^\s*\[\[page:\d+\]\]\s*$/gm, "")
        .replace(/^#{1,6}\s+/gm, "")
        .replace(/(\*\*|__)(.+?)\1/g, "$2")
        .replace(/(^|\W)[*_](\S.*?\S|\S)[*_](?=\W|$)/g, "$1$2")
        .replace(/\s+/g, " ")
        .trim(),
    )
    .filter(Boolean);
}

/** Paragraphs wrapped into lines (a blank line between paragraphs) and cut into pages, as a book runs on. */
export function paginate(paragraphs: readonly string[], maxLines = linesPerPage): string[][] {
  const lines: string[] = [];
  for (const paragraph of paragraphs) {
    let line = "";
    for (const word of paragraph.split(" ")) {
      if (line && line.length + 1 + word.length > charactersPerLine) {
        lines.push(line);
        line = word;
      } else {
        line = line ? `${line} ${word}` : word;
      }
    }
    if (line) lines.push(line);
    lines.push("");
  }
  const pages: string[][] = [];
  for (let start = 0; start < lines.length; start += maxLines) {
    const page = lines.slice(start, start + maxLines);
    while (page[0] === "") page.shift();
    while (page.at(-1) === "") page.pop();
    if (page.length) pages.push(page);
  }
  return pages;
}

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export interface ScanLook {
  /** Degrees, clockwise; a scan lies a little crooked (0.5–1.5°). */
  angle: number;
  /** Share of pixels flipped to a random grey (dust, toner): 0 clean, 0.02 a poor photocopy. */
  noise: number;
  seed: string;
  format?: "png" | "jpeg";
}

/** The page image (greyscale, 300 dpi) of the given lines. */
export async function renderScannedPage(lines: readonly string[], look: ScanLook): Promise<Buffer> {
  const text = lines
    .map((line, index) => (line ? `<text x="${margin}" y="${margin + fontPixels + index * lineHeight}">${escapeXml(line)}</text>` : ""))
    .join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${pageWidth}" height="${pageHeight}"><rect width="100%" height="100%" fill="#fbfaf6"/><g font-family="DejaVu Serif" font-size="${fontPixels}" fill="#1c1b19">${text}</g></svg>`;
  const { data, info } = await openImage(Buffer.from(svg), { density: 72 })
    .greyscale()
    .rotate(look.angle, { background: "#fbfaf6" })
    .resize(pageWidth, pageHeight, { fit: "cover" })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (look.noise > 0) {
    const rng = createRng(look.seed);
    const flips = Math.round(data.length * look.noise);
    for (let index = 0; index < flips; index++) data[Math.floor(rng.next() * data.length)] = Math.floor(rng.next() * 256);
  }
  const page = openImage(data, { raw: { width: info.width, height: info.height, channels: 1 } })
    .withMetadata({ density: scanDpi })
    .toColourspace("b-w");
  return look.format === "jpeg" ? page.jpeg({ quality: 85 }).toBuffer() : page.png({ compressionLevel: 3 }).toBuffer();
}

/**
 * A PDF whose pages are greyscale JPEG images at their size in points for the given resolution, as a
 * scanner writes them (what `img2pdf` makes): no text layer, one image per page.
 */
export function imagePdf(pages: readonly { jpeg: Uint8Array; width: number; height: number; dpi?: number }[]): Uint8Array {
  const chunks: Uint8Array[] = [];
  const offsets: number[] = [];
  let length = 0;
  const encoder = new TextEncoder();
  const push = (part: string | Uint8Array) => {
    const bytes = typeof part === "string" ? encoder.encode(part) : part;
    chunks.push(bytes);
    length += bytes.length;
  };
  const object = (id: number, body: (string | Uint8Array)[]) => {
    offsets[id] = length;
    push(`${id} 0 obj\n`);
    for (const part of body) push(part);
    push("\nendobj\n");
  };
  push("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n");
  const pageIds = pages.map((_, index) => 3 + index * 3);
  object(1, ["<< /Type /Catalog /Pages 2 0 R >>"]);
  object(2, [`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${pages.length} >>`]);
  pages.forEach((page, index) => {
    const [pageId, imageId, contentId] = [pageIds[index] ?? 0, (pageIds[index] ?? 0) + 1, (pageIds[index] ?? 0) + 2];
    const points = (pixels: number) => ((pixels * 72) / (page.dpi ?? scanDpi)).toFixed(2);
    const content = `q ${points(page.width)} 0 0 ${points(page.height)} 0 0 cm /Im0 Do Q`;
    object(pageId, [
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${points(page.width)} ${points(page.height)}] /Resources << /XObject << /Im0 ${imageId} 0 R >> >> /Contents ${contentId} 0 R >>`,
    ]);
    object(imageId, [
      `<< /Type /XObject /Subtype /Image /Width ${page.width} /Height ${page.height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /DCTDecode /Length ${page.jpeg.length} >>\nstream\n`,
      page.jpeg,
      "\nendstream",
    ]);
    object(contentId, [`<< /Length ${content.length} >>\nstream\n${content}\nendstream`]);
  });
  const objectCount = 3 + pages.length * 3;
  const xref = length;
  push(`xref\n0 ${objectCount}\n0000000000 65535 f \n`);
  for (let id = 1; id < objectCount; id++) push(`${String(offsets[id] ?? 0).padStart(10, "0")} 00000 n \n`);
  push(`trailer\n<< /Size ${objectCount} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

/** Text compared for character error: letters and digits as written (accents kept), one space between words. */
export function normaliseForComparison(text: string): string {
  return text
    .normalize("NFC")
    .replace(/[\u2010-\u2015]/g, "-")
    .replace(/[‘’]/g, "'")
    .replace(/[“”«»]/g, '"')
    .replace(/\s+/g, " ")
    .trim();
}

/** Levenshtein distance between the normalised texts over the known text's length (0 is perfect). */
export function characterErrorRate(known: string, read: string): number {
  const a = [...normaliseForComparison(known)];
  const b = [...normaliseForComparison(read)];
  if (a.length === 0) return b.length === 0 ? 0 : 1;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return (previous[b.length] ?? 0) / a.length;
}
