/**
 * Recognises uploads by their bytes, not by the name or the browser's claim: a file is stored
 * only as a type Mnemo can serve and play.
 */
export interface SniffedType {
  mime: string;
  kind: "image" | "audio" | "video" | "document";
  extension: string;
}

function startsWith(bytes: Uint8Array, signature: number[], offset = 0): boolean {
  return signature.every((byte, index) => bytes[offset + index] === byte);
}

const ascii = (text: string) => [...text].map((character) => character.charCodeAt(0));

export function sniffMediaType(bytes: Uint8Array): SniffedType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { mime: "image/png", kind: "image", extension: "png" };
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { mime: "image/jpeg", kind: "image", extension: "jpg" };
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return { mime: "image/webp", kind: "image", extension: "webp" };
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return { mime: "image/gif", kind: "image", extension: "gif" };
  // TIFF, little- or big-endian: decoded by sharp, but no browser shows it, so it is taken as a
  // scan (whose pages are shown as PNG copies), never as an image field's picture.
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a]))
    return { mime: "image/tiff", kind: "image", extension: "tif" };
  if (startsWith(bytes, ascii("%PDF-"))) return { mime: "application/pdf", kind: "document", extension: "pdf" };
  if (startsWith(bytes, ascii("OggS"))) return { mime: "audio/ogg", kind: "audio", extension: "ogg" };
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WAVE"), 8)) return { mime: "audio/wav", kind: "audio", extension: "wav" };
  if (startsWith(bytes, ascii("fLaC"))) return { mime: "audio/flac", kind: "audio", extension: "flac" };
  if (startsWith(bytes, ascii("ID3")) || (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0)) {
    return { mime: "audio/mpeg", kind: "audio", extension: "mp3" };
  }
  if (startsWith(bytes, ascii("ftyp"), 4)) {
    const brand = String.fromCharCode(...bytes.subarray(8, 12));
    if (brand.startsWith("M4A")) return { mime: "audio/mp4", kind: "audio", extension: "m4a" };
    return { mime: "video/mp4", kind: "video", extension: "mp4" };
  }
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) return { mime: "video/webm", kind: "video", extension: "webm" };
  return null;
}

/**
 * Duration of an Ogg (Opus or Vorbis) stream from the granule position of its last page, so
 * the record page knows a recording's length before the player loads it. Null if unreadable.
 */
export function oggDurationSeconds(bytes: Uint8Array): number | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headIndex = indexOf(bytes, ascii("OpusHead"));
  const isOpus = headIndex >= 0;
  let sampleRate = 48_000;
  let preSkip = 0;
  if (isOpus && headIndex + 12 <= bytes.length) preSkip = view.getUint16(headIndex + 10, true);
  if (!isOpus) {
    const vorbis = indexOf(bytes, [0x01, ...ascii("vorbis")]);
    if (vorbis < 0 || vorbis + 16 > bytes.length) return null;
    sampleRate = view.getUint32(vorbis + 12, true);
  }
  for (let offset = bytes.length - 27; offset >= 0; offset--) {
    if (bytes[offset] === 0x4f && startsWith(bytes, ascii("OggS"), offset)) {
      const granule = Number(view.getBigInt64(offset + 6, true));
      if (granule <= 0) return null;
      return Math.max(0, (granule - preSkip) / sampleRate);
    }
  }
  return null;
}

function indexOf(bytes: Uint8Array, needle: number[]): number {
  const limit = Math.min(bytes.length - needle.length, 4096);
  for (let offset = 0; offset <= limit; offset++) if (startsWith(bytes, needle, offset)) return offset;
  return -1;
}
