import { crc32, inflateRaw } from "node:zlib";
import { promisify } from "node:util";
import { AppError } from "../../errors";

/**
 * A zip read in memory, never extracted: the central directory is parsed and checked whole before
 * any entry is read, and an entry is inflated only into a buffer capped at its declared size.
 * Only what an import needs: stored and deflated files of a single-disk, non-ZIP64 archive.
 * Refused with a message (AppError bad_request), before anything is written: not a zip, ZIP64,
 * split archives, more than `maxEntries` entries, declared sizes over `maxTotalBytes` (a zip
 * bomb), names that climb out of the archive (`..`, absolute paths, drive letters, backslashes),
 * symlinks and other non-files, encrypted entries, other compression methods, repeated names,
 * and offsets or sizes that point outside the file. An entry that inflates past its declared size
 * or fails its CRC is refused when it is read.
 */
export interface ZipLimits {
  maxEntries: number;
  /** The sum of the entries' declared uncompressed sizes. */
  maxTotalBytes: number;
}

export interface ZipEntry {
  /** The path inside the zip, `/`-separated. */
  name: string;
  method: 0 | 8;
  compressedSize: number;
  size: number;
  crc32: number;
  localHeaderOffset: number;
}

export interface ZipArchive {
  /** The files (directories are left out), in the central directory's order. */
  entries: ZipEntry[];
  /** The entry's bytes: inflated no further than its declared size and checked against its CRC. */
  read(entry: ZipEntry): Promise<Uint8Array>;
}

const endOfCentralDirectory = 0x06054b50;
const zip64Locator = 0x07064b50;
const centralHeader = 0x02014b50;
const localHeader = 0x04034b50;
/** The end record (22 bytes) may be followed by a comment of up to 65,535 bytes. */
const maxEndSearch = 22 + 0xffff;

const inflate = promisify(inflateRaw);
const utf8 = new TextDecoder("utf-8", { fatal: true });

function refuse(message: string): never {
  throw new AppError("bad_request", `The zip ${message}`);
}

function clip(name: string): string {
  return name.length > 120 ? `${name.slice(0, 117)}…` : name;
}

export function readZip(input: Uint8Array, limits: ZipLimits): ZipArchive {
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  const notZip = "is not a zip file (it has no central directory).";
  if (bytes.length < 22) refuse(notZip);
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - maxEndSearch); at--) {
    if (bytes.readUInt32LE(at) === endOfCentralDirectory && at + 22 + bytes.readUInt16LE(at + 20) === bytes.length) {
      end = at;
      break;
    }
  }
  if (end < 0) refuse(notZip);
  if (end >= 20 && bytes.readUInt32LE(end - 20) === zip64Locator) refuse("is a ZIP64 archive, which Mnemo does not read; make a zip under 4 GB with fewer than 65,535 files.");
  const disk = bytes.readUInt16LE(end + 4);
  const directoryDisk = bytes.readUInt16LE(end + 6);
  const entriesOnDisk = bytes.readUInt16LE(end + 8);
  const entryCount = bytes.readUInt16LE(end + 10);
  const directorySize = bytes.readUInt32LE(end + 12);
  const directoryOffset = bytes.readUInt32LE(end + 16);
  if (entryCount === 0xffff || directorySize === 0xffffffff || directoryOffset === 0xffffffff) {
    refuse("is a ZIP64 archive, which Mnemo does not read; make a zip under 4 GB with fewer than 65,535 files.");
  }
  if (disk !== 0 || directoryDisk !== 0 || entriesOnDisk !== entryCount) refuse("is split across several files; send it as one zip.");
  if (entryCount > limits.maxEntries) refuse(`holds ${entryCount} entries; an import takes at most ${limits.maxEntries}.`);
  if (directoryOffset + directorySize > end) refuse("is damaged (its central directory lies outside the file).");

  const entries: ZipEntry[] = [];
  const seen = new Set<string>();
  let declaredTotal = 0;
  let at = directoryOffset;
  for (let index = 0; index < entryCount; index++) {
    if (at + 46 > end || bytes.readUInt32LE(at) !== centralHeader) refuse("is damaged (an entry of its central directory is unreadable).");
    const madeBy = bytes.readUInt16LE(at + 4) >> 8;
    const flags = bytes.readUInt16LE(at + 8);
    const method = bytes.readUInt16LE(at + 10);
    const crc = bytes.readUInt32LE(at + 16);
    const compressedSize = bytes.readUInt32LE(at + 20);
    const size = bytes.readUInt32LE(at + 24);
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    const externalAttributes = bytes.readUInt32LE(at + 38);
    const localHeaderOffset = bytes.readUInt32LE(at + 42);
    const nameBytes = bytes.subarray(at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    if (at > end) refuse("is damaged (an entry of its central directory runs past it).");
    let name: string;
    try {
      name = utf8.decode(nameBytes);
    } catch {
      refuse(`holds an entry (number ${index + 1}) whose name is not UTF-8; make the zip with a tool that writes UTF-8 names.`);
    }
    if (compressedSize === 0xffffffff || size === 0xffffffff || localHeaderOffset === 0xffffffff) {
      refuse(`entry “${clip(name)}” uses ZIP64 sizes, which Mnemo does not read.`);
    }
    const segments = name.split("/");
    if (name.includes("\\") || name.includes("\0") || name.startsWith("/") || /^[A-Za-z]:/.test(name) || segments.includes("..")) {
      refuse(`holds an entry named “${clip(name)}”, which points outside the zip; nothing was imported.`);
    }
    if (flags & 0x1 || method === 99) refuse(`entry “${clip(name)}” is encrypted; Mnemo reads only unencrypted zips.`);
    // Unix (3) and macOS (19) archivers keep the file's mode, symlink bit included, in the high half.
    const unixType = madeBy === 3 || madeBy === 19 ? (externalAttributes >>> 16) & 0o170000 : 0;
    if (unixType === 0o120000) refuse(`entry “${clip(name)}” is a symbolic link; put the file itself in the zip.`);
    const isDirectory = name.endsWith("/") || unixType === 0o040000;
    if (isDirectory) continue;
    if (unixType !== 0 && unixType !== 0o100000) refuse(`entry “${clip(name)}” is not a regular file.`);
    if (method !== 0 && method !== 8) refuse(`entry “${clip(name)}” is compressed with method ${method}; Mnemo reads stored and deflated entries.`);
    if (name === "" || segments.some((segment) => segment === "" || segment === ".")) refuse(`holds an entry with an empty or “.” path segment (“${clip(name)}”).`);
    if (seen.has(name)) refuse(`holds “${clip(name)}” twice.`);
    seen.add(name);
    if (method === 0 && compressedSize !== size) refuse(`entry “${clip(name)}” is damaged (stored, but its sizes differ).`);
    declaredTotal += size;
    if (declaredTotal > limits.maxTotalBytes) refuse(`unpacks to more than ${limits.maxTotalBytes} bytes (the import limit for a zip's contents).`);
    if (localHeaderOffset + 30 > directoryOffset) refuse(`entry “${clip(name)}” is damaged (it points outside the file).`);
    entries.push({ name, method, compressedSize, size, crc32: crc, localHeaderOffset });
  }

  const read = async (entry: ZipEntry): Promise<Uint8Array> => {
    const offset = entry.localHeaderOffset;
    if (bytes.readUInt32LE(offset) !== localHeader) refuse(`entry “${clip(entry.name)}” is damaged (no local header).`);
    const localName = bytes.subarray(offset + 30, offset + 30 + bytes.readUInt16LE(offset + 26));
    if (!localName.equals(Buffer.from(entry.name, "utf8"))) refuse(`entry “${clip(entry.name)}” is damaged (its two names differ).`);
    const start = offset + 30 + bytes.readUInt16LE(offset + 26) + bytes.readUInt16LE(offset + 28);
    if (start + entry.compressedSize > directoryOffset) refuse(`entry “${clip(entry.name)}” is damaged (its data runs past the file).`);
    const data = bytes.subarray(start, start + entry.compressedSize);
    let content: Buffer;
    if (entry.method === 0) content = data;
    else {
      try {
        // maxOutputLength stops inflating as soon as the output passes the declared size: a
        // bomb that lies about its size is refused after at most that many bytes.
        content = await inflate(data, { maxOutputLength: Math.max(entry.size, 1) });
      } catch (error) {
        if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") refuse(`entry “${clip(entry.name)}” unpacks to more than its declared ${entry.size} bytes; refused.`);
        refuse(`entry “${clip(entry.name)}” is damaged (it does not inflate).`);
      }
    }
    if (content.length !== entry.size || crc32(content) !== entry.crc32) refuse(`entry “${clip(entry.name)}” is damaged (its size or checksum does not match).`);
    return new Uint8Array(content.buffer, content.byteOffset, content.byteLength);
  };
  return { entries, read };
}
