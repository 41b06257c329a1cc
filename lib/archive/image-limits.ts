import sharp, { type Sharp, type SharpOptions } from "sharp";
import { AppError } from "../errors";

/**
 * The largest image Mnemo decodes, in pixels. A compressed image can declare far more pixels
 * than its bytes suggest (a 450 KB PNG of one colour holds 12,000 × 12,000 = 144 MP, which
 * takes about 5 s of CPU and 400–600 MB to decode): the limit is on what a decode would
 * allocate, not on the file size. 64 MP (for example 8,000 × 8,000) takes every camera an
 * archive meets — the largest full-frame sensors are 50.6 MP (Canon 5DS, 8,688 × 5,792) and
 * 61 MP (Sony A7R IV/V, 9,504 × 6,336) — and an A4 page scanned at 600 dpi (35 MP); decoded as
 * RGBA it is at most 256 MB. Larger masters (medium-format backs, maps at full resolution) are
 * for preservation storage; Mnemo keeps the access copy.
 */
export const maxImagePixels = 64_000_000;
export const minImageSide = 16;
/** Longer side over shorter side: a 1×4000 strip is not a picture of an object. */
export const maxImageAspect = 30;
/** A full decode of a 64 MP image takes about 2 s here; a decode still running after this is given up. */
export const imageDecodeTimeoutSeconds = 30;

/**
 * sharp over bytes that came from outside, refusing before it allocates an image of more than
 * `maxImagePixels`. Every decode in Mnemo (uploads' verification, thumbnails, image vectors,
 * the seed's renderings, evaluation copies) opens images through here.
 */
export function openImage(input: Buffer | Uint8Array | string, options: Omit<SharpOptions, "limitInputPixels"> = {}): Sharp {
  return sharp(input, { ...options, limitInputPixels: maxImagePixels });
}

export interface ImageHeader {
  width: number;
  height: number;
}

/**
 * The dimensions an image declares, read from its header alone — sharp's `metadata()` parses
 * the header and never decodes compressed pixel data, so it costs the same (about a
 * millisecond) for a 16 px icon and a decompression bomb, and can name the size it refuses.
 * Refuses, with a message a person can act on: a header that cannot be parsed, more pixels
 * than `maxImagePixels`, a side under `minImageSide`, and an aspect over `maxImageAspect`.
 * Whether the pixels themselves decode is checked later, off the request (`verify-images.ts`).
 */
export async function readImageHeader(bytes: Uint8Array): Promise<ImageHeader> {
  let width: number | undefined;
  let height: number | undefined;
  try {
    // The one sharp call without the pixel limit: a header read allocates no pixels, and the
    // limit is applied just below with the dimensions in the message.
    ({ width, height } = await sharp(bytes, { limitInputPixels: false }).metadata());
  } catch {
    throw new AppError("bad_request", "The image could not be read: its header is damaged or it is not a complete image file.");
  }
  if (!width || !height) throw new AppError("bad_request", "The image could not be read: its header gives no size.");
  return checkImageDimensions({ width, height });
}

/** The size rules of `readImageHeader`, for dimensions already known. */
function checkImageDimensions({ width, height }: ImageHeader): ImageHeader {
  const pixels = width * height;
  if (pixels > maxImagePixels) {
    throw new AppError(
      "payload_too_large",
      `The image is ${width.toLocaleString("en")} × ${height.toLocaleString("en")} pixels (${megapixels(pixels)} megapixels); ` +
        `images may have at most ${megapixels(maxImagePixels)} megapixels. Reduce its size and upload it again.`,
    );
  }
  if (width < minImageSide || height < minImageSide) {
    throw new AppError("bad_request", `The image is ${width}×${height} pixels; images must be at least ${minImageSide} pixels on a side.`);
  }
  if (Math.max(width, height) / Math.min(width, height) > maxImageAspect) {
    throw new AppError("bad_request", `The image is ${width}×${height} pixels; images longer than ${maxImageAspect} times their width are refused.`);
  }
  return { width, height };
}

/**
 * Decodes every pixel of an image (within the pixel limit and the timeout), which finds a
 * damaged or truncated body that a header read cannot. Resolves to null when the image
 * decodes, or to the decoder's reason when it does not.
 */
export async function decodeProblem(bytes: Uint8Array): Promise<string | null> {
  try {
    await openImage(bytes).timeout({ seconds: imageDecodeTimeoutSeconds }).stats();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message.trim() || error.name : String(error);
  }
}

function megapixels(pixels: number): string {
  return (pixels / 1_000_000).toLocaleString("en", { maximumFractionDigits: 1 });
}
