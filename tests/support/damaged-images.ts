import { crc32 } from "node:zlib";
import sharp from "sharp";

/**
 * Images that lie or break, for upload tests. Made with sharp's `create` (which draws, and
 * decodes nothing) and by editing bytes.
 */

/**
 * A real decompression bomb: a PNG of one colour, so zlib squeezes `width × height` pixels into
 * a small file (9,000 × 9,000 — 81 MP — is about 250 KB). Decoding it allocates every pixel.
 */
export async function solidPng(width: number, height: number): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp({ create: { width, height, channels: 3, background: "#808080" } })
      .png({ compressionLevel: 9 })
      .toBuffer(),
  );
}

/**
 * A 32×24 PNG whose header (IHDR, with its CRC recomputed) declares `width × height`: about a
 * hundred bytes that claim any size. Its body still holds 32×24 pixels, so it never decodes —
 * only a check made from the header alone can refuse it with the size it declares.
 */
export async function pngDeclaring(width: number, height: number): Promise<Uint8Array> {
  const bytes = Buffer.from(
    await sharp({ create: { width: 32, height: 24, channels: 3, background: "#806040" } })
      .png()
      .toBuffer(),
  );
  // Signature (8) | length (4) | "IHDR" (4) | width (4) | height (4) | … | CRC over type + data.
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  bytes.writeUInt32BE(crc32(bytes.subarray(12, 29)), 29);
  return new Uint8Array(bytes);
}

/** A JPEG cut short: its header (and so its size) reads, its pixels do not decode. */
export async function truncatedJpeg(width = 320, height = 240): Promise<Uint8Array> {
  const noise = Buffer.alloc(width * height * 3);
  for (let index = 0; index < noise.length; index++) noise[index] = (index * 7919) % 251;
  const jpeg = await sharp(noise, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
  return new Uint8Array(jpeg.subarray(0, Math.floor(jpeg.length / 2)));
}
