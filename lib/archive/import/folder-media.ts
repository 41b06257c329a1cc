import "server-only";
import { open, readFile, realpath, stat } from "node:fs/promises";
import { isAbsolute, join, sep } from "node:path";
import { getConfig } from "../../config";
import { AppError } from "../../errors";
import { clipName, type MediaSource } from "./import-media";

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

/** The files of a confined server folder, named by plain file names. */
export async function folderMediaSource(folder: string): Promise<MediaSource> {
  const directory = await confineMediaFolder(folder);
  return {
    async locate(name) {
      if (!name || name === "." || name === ".." || /[\\/\0]/.test(name)) return { problem: `names “${clipName(name)}”, which is not a plain file name` };
      const path = await realpath(join(directory, name)).catch(() => null);
      if (!path || !path.startsWith(directory + sep)) return { problem: `names the file “${clipName(name)}”, which is not in the media folder` };
      const info = await stat(path);
      if (!info.isFile()) return { problem: `names “${clipName(name)}”, which is not a file` };
      return {
        name,
        size: info.size,
        async head() {
          const handle = await open(path, "r");
          const head = new Uint8Array(64);
          try {
            await handle.read(head, 0, 64, 0);
          } finally {
            await handle.close();
          }
          return head;
        },
        bytes: async () => new Uint8Array(await readFile(path)),
      };
    },
  };
}
