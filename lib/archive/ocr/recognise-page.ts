import "server-only";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { maxImagePixels, openImage } from "../image-limits";
import { runTesseract, type TesseractOptions } from "./run-tesseract";
import { estimateDeskewAngle } from "./skew";
import type { OcrPage, OcrWord } from "./tesseract-tsv";

/**
 * One page image read by tesseract; when its mean word confidence is under `minConfidence`,
 * read once more from a levelled (deskewed) copy at twice the size, and the better reading kept.
 * Word boxes are always in the pixels of the image given, so they can be drawn over it.
 */
/** The mean word confidence (0–100) under which a page is read again: docs/quality.md's OCR evaluation chose it (speckled pages read at 82–86, clean ones at 95+); `npm run eval:ocr -- --min-confidence` tries another. */
export const ocrMinConfidence = 90;

/** One tesseract run's time limit: a page takes seconds, and a stuck run must end well within the index queue's lease. */
export const ocrPageTimeoutMs = 180_000;

export interface RecognisePageOptions extends TesseractOptions {
  minConfidence: number;
}

export interface RecognisedPage extends OcrPage {
  width: number;
  height: number;
  /** Whether the second, levelled and enlarged reading was made, and the rotation it used. */
  retried: boolean;
  deskewAngle: number;
  seconds: number;
}

/**
 * Tesseract reads best with words 25–40 px tall. A page whose words came out smaller (a scan
 * under 200 dpi) is read again at twice the size; at 300 dpi the enlarged copy read worse
 * (mean confidence 94.3 levelled and enlarged against 95.8 levelled alone) and took 2.5× as long.
 */
export function upscaleFor(words: readonly OcrWord[]): number {
  // Speckle read as "words" (a dot, a comma) is small and unsure: only real words measure the print.
  const measured = words.filter((word) => word.c >= 60 && (word.t.match(/\p{L}/gu)?.length ?? 0) >= 2);
  if (measured.length === 0) return 2;
  const heights = measured.map((word) => word.h).sort((a, b) => a - b);
  const median = heights[Math.floor(heights.length / 2)] ?? 0;
  return median < 24 ? 2 : 1;
}

export async function recognisePage(imagePath: string, options: RecognisePageOptions): Promise<RecognisedPage> {
  const started = performance.now();
  const { width = 0, height = 0 } = await openImage(imagePath).metadata();
  const first = await runTesseract(imagePath, options);
  const result = { width, height, retried: false, deskewAngle: 0 };
  if (first.meanConfidence >= options.minConfidence) {
    return { ...first, ...result, seconds: (performance.now() - started) / 1000 };
  }
  const directory = await mkdtemp(join(tmpdir(), "mnemo-ocr-"));
  try {
    const angle = await estimateDeskewAngle(imagePath);
    const rotated = await openImage(imagePath)
      .rotate(angle, { background: { r: 255, g: 255, b: 255 } })
      .png()
      .toBuffer({ resolveWithObject: true });
    const scale = Math.min(upscaleFor(first.words), Math.sqrt(maxImagePixels / (rotated.info.width * rotated.info.height)));
    const prepared = join(directory, "prepared.png");
    // A 3 px median takes out speckle (dust, toner) and keeps strokes.
    const levelled = openImage(rotated.data).greyscale().median(3);
    await (scale > 1 ? levelled.resize({ width: Math.round(rotated.info.width * scale), kernel: "lanczos3" }) : levelled).png().toFile(prepared);
    const second = await runTesseract(prepared, { ...options, dpi: options.dpi ? Math.round(options.dpi * scale) : undefined });
    const mapped = { ...second, words: second.words.map((word) => mapBack(word, { width, height }, rotated.info, angle, scale)) };
    const kept = betterReading(first, mapped);
    return { ...kept, width, height, retried: true, deskewAngle: kept === first ? 0 : angle, seconds: (performance.now() - started) / 1000 };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/**
 * The reading to keep: the second only when its mean confidence is higher and it did not lose
 * text on the way (at least 90% of the first reading's letters), since a confident reading of
 * half the page is worse than a hesitant reading of all of it.
 */
export function betterReading<T extends OcrPage>(first: T, second: T): T {
  const letters = (page: OcrPage) => page.text.replace(/\s+/g, "").length;
  return second.meanConfidence > first.meanConfidence && letters(second) >= 0.9 * letters(first) ? second : first;
}

/**
 * A word box of the levelled, enlarged copy back in the original's pixels: undo the scale, then
 * turn its centre back about the rotated canvas's centre (sharp grows the canvas to fit).
 */
export function mapBack(
  word: OcrWord,
  original: { width: number; height: number },
  rotated: { width: number; height: number },
  angleDegrees: number,
  scale: number,
): OcrWord {
  const radians = (-angleDegrees * Math.PI) / 180;
  const centreX = (word.x + word.w / 2) / scale - rotated.width / 2;
  const centreY = (word.y + word.h / 2) / scale - rotated.height / 2;
  const x = centreX * Math.cos(radians) - centreY * Math.sin(radians) + original.width / 2;
  const y = centreX * Math.sin(radians) + centreY * Math.cos(radians) + original.height / 2;
  const w = word.w / scale;
  const h = word.h / scale;
  return { ...word, x: Math.round(x - w / 2), y: Math.round(y - h / 2), w: Math.round(w), h: Math.round(h) };
}
