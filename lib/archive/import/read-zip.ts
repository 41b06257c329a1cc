import type { Readable } from "node:stream";
import { crc32 } from "node:zlib";
import yauzl, { type Entry, type ZipFile } from "yauzl";
import { AppError } from "../../errors";

/**
 * A zip read in memory, never extracted, with yauzl (ZIP64 included): the central directory is
 * read and checked whole before any entry is read. Refused with a message (AppError
 * bad_request), before anything is written: not a zip, split archives, more than `maxEntries`
 * entries, declared sizes over `maxTotalBytes` (a zip bomb), names that climb out of the archive
 * (`..`, absolute paths, drive letters, backslashes) or are not UTF-8, symlinks and other
 * non-files, encrypted entries, compression other than stored and deflated, and repeated names.
 * An entry is counted while it inflates and refused as soon as it passes its declared size (the
 * headers are never trusted), and refused if it is short or fails its CRC.
 */
export interface ZipLimits {
  maxEntries: number;
  /** The sum of the entries' declared uncompressed sizes. */
  maxTotalBytes: number;
}

export interface ZipEntry {
  /** The path inside the zip, `/`-separated. */
  name: string;
  /** Stored (0) or deflated (8). */
  method: 0 | 8;
  compressedSize: number;
  /** The declared uncompressed size. */
  size: number;
  crc32: number;
}

export interface ZipArchive {
  /** The files (directories are left out), in the central directory's order. */
  entries: ZipEntry[];
  /** The entry's bytes: inflated no further than its declared size and checked against its CRC. */
  read(entry: ZipEntry): Promise<Uint8Array>;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function refuse(message: string): never {
  throw new AppError("bad_request", `The zip ${message}`);
}

function clip(name: string): string {
  return name.length > 120 ? `${name.slice(0, 117)}…` : name;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export async function readZip(input: Uint8Array, limits: ZipLimits): Promise<ZipArchive> {
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  let zip: ZipFile;
  try {
    // Names stay bytes: they are decoded, as UTF-8 only, and checked below.
    zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true, decodeStrings: false, validateEntrySizes: true });
  } catch (error) {
    if (/multi-disk/.test(messageOf(error))) refuse("is split across several files; send it as one zip.");
    refuse("is not a zip file (it has no central directory).");
  }
  if (zip.entryCount > limits.maxEntries) refuse(`holds ${zip.entryCount} entries; an import takes at most ${limits.maxEntries}.`);

  const entries: ZipEntry[] = [];
  const sources = new Map<ZipEntry, Entry>();
  const seen = new Set<string>();
  let declaredTotal = 0;
  const directory = zip.eachEntry();
  for (let index = 0; ; index++) {
    let next: IteratorResult<Entry>;
    try {
      next = await directory.next();
    } catch (error) {
      if (/encryption/.test(messageOf(error))) refuse("holds an encrypted entry; Mnemo reads only unencrypted zips.");
      refuse("is damaged (an entry of its central directory is unreadable).");
    }
    if (next.done) break;
    const entry = next.value;
    let name: string;
    try {
      name = utf8.decode(entry.fileNameRaw);
    } catch {
      refuse(`holds an entry (number ${index + 1}) whose name is not UTF-8; make the zip with a tool that writes UTF-8 names.`);
    }
    const segments = name.split("/");
    if (name.includes("\\") || name.includes("\0") || name.startsWith("/") || /^[A-Za-z]:/.test(name) || segments.includes("..")) {
      refuse(`holds an entry named “${clip(name)}”, which points outside the zip; nothing was imported.`);
    }
    const method = entry.compressionMethod;
    if (entry.generalPurposeBitFlag & 0x1 || method === 99) refuse(`entry “${clip(name)}” is encrypted; Mnemo reads only unencrypted zips.`);
    // Unix (3) and macOS (19) archivers keep the file's mode, symlink bit included, in the high half.
    const madeBy = entry.versionMadeBy >> 8;
    const unixType = madeBy === 3 || madeBy === 19 ? (entry.externalFileAttributes >>> 16) & 0o170000 : 0;
    if (unixType === 0o120000) refuse(`entry “${clip(name)}” is a symbolic link; put the file itself in the zip.`);
    const isDirectory = name.endsWith("/") || unixType === 0o040000;
    if (isDirectory) continue;
    if (unixType !== 0 && unixType !== 0o100000) refuse(`entry “${clip(name)}” is not a regular file.`);
    if (method !== 0 && method !== 8) refuse(`entry “${clip(name)}” is compressed with method ${method}; Mnemo reads stored and deflated entries.`);
    if (name === "" || segments.some((segment) => segment === "" || segment === "."))
      refuse(`holds an entry with an empty or “.” path segment (“${clip(name)}”).`);
    if (seen.has(name)) refuse(`holds “${clip(name)}” twice.`);
    seen.add(name);
    if (method === 0 && entry.compressedSize !== entry.uncompressedSize) refuse(`entry “${clip(name)}” is damaged (stored, but its sizes differ).`);
    declaredTotal += entry.uncompressedSize;
    if (declaredTotal > limits.maxTotalBytes) refuse(`unpacks to more than ${limits.maxTotalBytes} bytes (the import limit for a zip's contents).`);
    const found: ZipEntry = { name, method: method === 0 ? 0 : 8, compressedSize: entry.compressedSize, size: entry.uncompressedSize, crc32: entry.crc32 };
    entries.push(found);
    sources.set(found, entry);
  }

  const read = async (entry: ZipEntry): Promise<Uint8Array> => {
    const source = sources.get(entry);
    if (!source) throw new Error(`“${entry.name}” is not an entry of this zip.`);
    const damaged: (why: string) => never = (why) => refuse(`entry “${clip(entry.name)}” is damaged (${why}).`);
    let stream: Readable;
    try {
      const local = await zip.readLocalFileHeaderPromise(source);
      if (!local.fileName.equals(source.fileNameRaw)) damaged("its two names differ");
      stream = await zip.openReadStreamPromise(source);
    } catch (error) {
      if (error instanceof AppError) throw error;
      damaged(/signature/.test(messageOf(error)) ? "no local header" : "its data runs past the file");
    }
    const chunks: Buffer[] = [];
    let length = 0;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        // yauzl counts too (validateEntrySizes); this stops at the declared size whatever it reports.
        length += chunk.length;
        if (length > entry.size) refuse(`entry “${clip(entry.name)}” unpacks to more than its declared ${entry.size} bytes; refused.`);
        chunks.push(chunk);
      }
    } catch (error) {
      stream.destroy();
      if (error instanceof AppError) throw error;
      const message = messageOf(error);
      if (/too many bytes/.test(message)) refuse(`entry “${clip(entry.name)}” unpacks to more than its declared ${entry.size} bytes; refused.`);
      damaged(/not enough bytes/.test(message) ? "its size or checksum does not match" : "it does not inflate");
    }
    const content = Buffer.concat(chunks, length);
    if (content.length !== entry.size || crc32(content) !== entry.crc32) damaged("its size or checksum does not match");
    return new Uint8Array(content.buffer, content.byteOffset, content.byteLength);
  };
  return { entries, read };
}
