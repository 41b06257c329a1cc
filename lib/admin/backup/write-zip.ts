import { crc32, deflateRawSync } from "node:zlib";
import { AppError } from "../../errors";

/**
 * Writes a zip in memory with zlib alone: deflated entries (stored when deflating does not
 * shrink them, as with JPEG or MP3), UTF-8 names, a central directory and its end record —
 * what lib/archive/import/read-zip.ts and any unzip read. No ZIP64: an archive over 4 GB or
 * 65,535 entries is refused with a message rather than written wrong.
 */
export interface ZipFile {
  name: string;
  bytes: Uint8Array;
}

const maxZipBytes = 0xffffffff;
const maxZipEntries = 0xfffe;

/** DOS date and time of `at` (2-second resolution), as zip headers keep them. */
function dosDateTime(at: Date): { date: number; time: number } {
  const year = Math.max(1980, at.getUTCFullYear());
  return {
    date: ((year - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | Math.floor(at.getUTCSeconds() / 2),
  };
}

export function writeZip(files: readonly ZipFile[], options: { at?: Date } = {}): Uint8Array {
  if (files.length > maxZipEntries)
    throw new AppError("payload_too_large", `The archive would hold ${files.length} files; a zip holds at most ${maxZipEntries}.`);
  const { date, time } = dosDateTime(options.at ?? new Date());
  const parts: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const file of files) {
    const content = Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength);
    const deflated = deflateRawSync(content);
    const method = deflated.length < content.length ? 8 : 0;
    const data = method === 8 ? deflated : content;
    const name = Buffer.from(file.name, "utf8");
    const crc = crc32(content);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(content.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(content.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE((0o100644 << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    parts.push(local, name, data);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
    if (offset > maxZipBytes) throw new AppError("payload_too_large", "The archive would be larger than 4 GB, which a zip without ZIP64 cannot hold.");
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  const zip = Buffer.concat([...parts, directory, end]);
  return new Uint8Array(zip.buffer, zip.byteOffset, zip.byteLength);
}
