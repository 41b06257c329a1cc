import "server-only";
import { getConfig } from "../../config";
import { AppError } from "../../errors";
import { formatBytes } from "../../format";
import { clipName, type MediaSource } from "./import-media";
import { readZip, type ZipArchive, type ZipEntry } from "./read-zip";
import type { ImportFile } from "./types";

/** What a media zip's entries may be: how many, and how much they unpack to by their declared sizes (a zip bomb is refused before inflating). */
export interface MediaZipLimits {
  maxEntries: number;
  maxUnpackedBytes: number;
}

/** 10,000 entries hold a large collection's photographs; 1 GiB unpacked is far beyond what a 40 MB zip of images and recordings honestly holds. */
export const mediaZipLimits: MediaZipLimits = { maxEntries: 10_000, maxUnpackedBytes: 1024 * 1024 * 1024 };

/**
 * A zip of media files uploaded with an import, read in memory (read-zip.ts) within its limits:
 * its size (MNEMO_IMPORT_MAX_ZIP_BYTES), its entries and their declared unpacked total
 * (mediaZipLimits). A zip that breaks a rule is refused whole.
 */
export async function readMediaZip(zip: ImportFile, limits: MediaZipLimits = mediaZipLimits): Promise<ZipArchive> {
  const config = getConfig();
  if (zip.bytes.byteLength === 0) throw new AppError("bad_request", "The media zip is empty.", { fieldErrors: { mediaZip: ["The media zip is empty."] } });
  if (zip.bytes.byteLength > config.MNEMO_IMPORT_MAX_ZIP_BYTES) {
    const message = `The media zip is ${formatBytes(zip.bytes.byteLength)}; a zip is limited to ${formatBytes(config.MNEMO_IMPORT_MAX_ZIP_BYTES)}. Split the import, or ask an admin to use a server folder.`;
    throw new AppError("payload_too_large", message, { fieldErrors: { mediaZip: [message] } });
  }
  try {
    return await readZip(zip.bytes, { maxEntries: limits.maxEntries, maxTotalBytes: limits.maxUnpackedBytes });
  } catch (error) {
    if (error instanceof AppError) {
      const message = `${error.message.replace(/^The zip/, `The media zip “${zip.fileName.slice(0, 120)}”`)}`;
      throw new AppError(error.code, message, { fieldErrors: { mediaZip: [message] } });
    }
    throw error;
  }
}

/** Folders some archivers add beside the files (macOS resource forks): never what a cell means. */
function isArchiverDebris(name: string): boolean {
  return name.startsWith("__MACOSX/") || name.split("/").pop()?.startsWith("._") === true;
}

/**
 * The zip's files, named as a cell names them: the path inside the zip (`photos/a.jpg`), or a
 * bare file name when exactly one file in the zip has it.
 */
export function zipMediaSource(archive: ZipArchive): MediaSource {
  const byPath = new Map<string, ZipEntry>();
  const byName = new Map<string, ZipEntry[]>();
  for (const entry of archive.entries) {
    if (isArchiverDebris(entry.name)) continue;
    byPath.set(entry.name, entry);
    const base = entry.name.slice(entry.name.lastIndexOf("/") + 1);
    byName.set(base, [...(byName.get(base) ?? []), entry]);
  }
  return {
    async locate(name) {
      let entry = byPath.get(name);
      if (!entry && !name.includes("/")) {
        const candidates = byName.get(name) ?? [];
        if (candidates.length > 1) {
          const paths = candidates
            .slice(0, 3)
            .map((candidate) => candidate.name)
            .join(", ");
          return {
            problem: `names “${clipName(name)}”, which is in the zip ${candidates.length} times (${paths}${candidates.length > 3 ? ", …" : ""}); give its path inside the zip`,
          };
        }
        entry = candidates[0];
      }
      if (!entry) return { problem: `names the file “${clipName(name)}”, which is not in the zip` };
      const found = entry;
      const read = () => archive.read(found);
      return {
        name: found.name.slice(found.name.lastIndexOf("/") + 1),
        size: found.size,
        // The whole entry is inflated even for a dry run: its checksum is checked before the real run.
        head: async () => (await read()).subarray(0, 64),
        bytes: read,
      };
    },
  };
}
