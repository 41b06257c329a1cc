import "server-only";
import { open, realpath, stat, readFile } from "node:fs/promises";
import { isAbsolute, join, sep } from "node:path";
import type { Principal } from "../../acl";
import { getConfig } from "../../config";
import type { PrismaClient } from "../../db/generated/client";
import { AppError, isAppError } from "../../errors";
import type { FieldDefinition } from "../field-definitions";
import { storeMedia } from "../media-storage";
import { sniffMediaType } from "../media-types";

/**
 * The server folder an admin names for an import's image and media cells. It must lie under
 * MNEMO_IMPORT_MEDIA_ROOT (after symlinks are resolved), and a cell names a file directly in it:
 * no path separators, no "..". Returns the resolved folder, or refuses the whole import.
 */
export async function confineMediaFolder(folder: string): Promise<string> {
  const root = getConfig().MNEMO_IMPORT_MEDIA_ROOT;
  if (!root) throw new AppError("bad_request", "Media folders are not enabled on this server (MNEMO_IMPORT_MEDIA_ROOT is not set).");
  if (folder.split(/[\\/]/).includes("..")) throw new AppError("bad_request", "The media folder must not contain “..”.");
  const realRoot = await realpath(root).catch(() => {
    throw new AppError("bad_request", "The media root (MNEMO_IMPORT_MEDIA_ROOT) does not exist.");
  });
  const candidate = isAbsolute(folder) ? folder : join(realRoot, folder);
  const resolved = await realpath(candidate).catch(() => null);
  if (!resolved || (resolved !== realRoot && !resolved.startsWith(realRoot + sep)) || !(await stat(resolved)).isDirectory()) {
    throw new AppError("bad_request", `The media folder “${folder.slice(0, 200)}” is not a folder under the media root.`);
  }
  return resolved;
}

/**
 * Checks (dry run) or stores (the real run) the file an image/media cell names. Stored files are
 * unattached media of the project until the batch that writes the row attaches them.
 */
export function folderMedia(prisma: PrismaClient, principal: Principal, projectId: string, folder: string, options: { storeMedia?: boolean }): FolderMedia {
  let resolvedFolder: Promise<string> | null = null;
  const storedByRow = new Map<number, string[]>();
  const check = async (field: FieldDefinition, name: string, row: number): Promise<{ id?: string; problem?: string }> => {
    resolvedFolder ??= confineMediaFolder(folder);
    const directory = await resolvedFolder;
    if (!name || name === "." || name === ".." || /[\\/\0]/.test(name)) return { problem: `names “${name.slice(0, 80)}”, which is not a plain file name` };
    const path = await realpath(join(directory, name)).catch(() => null);
    if (!path || !path.startsWith(directory + sep)) return { problem: `names the file “${name.slice(0, 80)}”, which is not in the media folder` };
    const info = await stat(path);
    if (!info.isFile()) return { problem: `names “${name.slice(0, 80)}”, which is not a file` };
    const maxBytes = getConfig().MAX_UPLOAD_BYTES;
    if (info.size > maxBytes) return { problem: `names a file larger than the upload limit` };
    const expected = field.type === "image" ? "image" : field.type === "media" ? field.mediaKind : null;
    if (!options.storeMedia) {
      const handle = await open(path, "r");
      const head = new Uint8Array(64);
      try {
        await handle.read(head, 0, 64, 0);
      } finally {
        await handle.close();
      }
      const type = sniffMediaType(head);
      if (!type || type.kind !== expected) return { problem: `names “${name.slice(0, 80)}”, which is not ${expected === "image" ? "an image" : `an ${expected ?? ""} file`} Mnemo can store` };
      return {};
    }
    try {
      const stored = await storeMedia(prisma, principal, {
        projectId,
        file: { name, bytes: new Uint8Array(await readFile(path)) },
        expectedKind: expected ?? undefined,
        storageDir: getConfig().storageDir,
        maxBytes,
      });
      storedByRow.set(row, [...(storedByRow.get(row) ?? []), stored.id]);
      return { id: stored.id };
    } catch (error) {
      if (isAppError(error)) return { problem: `(“${name.slice(0, 80)}”): ${error.message}` };
      throw error;
    }
  };
  return Object.assign(check, { storedByRow });
}

/** The cell check, and the files it stored per row (to discard those of rows that fail). */
export type FolderMedia = ((field: FieldDefinition, name: string, row: number) => Promise<{ id?: string; problem?: string }>) & {
  storedByRow: Map<number, string[]>;
};
