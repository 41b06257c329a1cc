import { crc32, deflateRawSync } from "node:zlib";

/**
 * A small zip writer for tests: real archives (stored or deflated entries, a central directory,
 * an end record) that `unzip` reads, and the lies a hostile zip tells — a name that climbs out,
 * a symlink, an encrypted flag, a declared size smaller than the data inflates to.
 */
export interface ZipEntryInput {
  name: string;
  bytes?: Uint8Array | string;
  /** Default deflate. */
  method?: "store" | "deflate";
  /** Unix mode in the external attributes (e.g. 0o120777 for a symlink); default a regular file. */
  unixMode?: number;
  encrypted?: boolean;
  /** The uncompressed size written in the headers instead of the real one (a lying bomb). */
  declaredSize?: number;
  /** The "version made by" host: 3 Unix (default), 19 macOS, 0 MS-DOS. */
  madeBy?: number;
}

export function writeZip(entries: ZipEntryInput[], options: { comment?: string } = {}): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const content = Buffer.from(typeof entry.bytes === "string" ? entry.bytes : (entry.bytes ?? new Uint8Array()));
    const method = entry.method === "store" ? 0 : 8;
    const data = method === 0 ? content : deflateRawSync(content);
    const name = Buffer.from(entry.name, "utf8");
    const size = entry.declaredSize ?? content.length;
    const crc = crc32(content);
    const flags = 0x0800 | (entry.encrypted ? 0x1 : 0);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, data);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(((entry.madeBy ?? 3) << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    const mode = entry.unixMode ?? (entry.name.endsWith("/") ? 0o040755 : 0o100644);
    central.writeUInt32LE((mode << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const comment = Buffer.from(options.comment ?? "", "utf8");
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  end.writeUInt16LE(comment.length, 20);
  return new Uint8Array(Buffer.concat([...locals, directory, end, comment]));
}
