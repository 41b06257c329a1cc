import "server-only";
import { randomUUID } from "node:crypto";
import { mkdir, readFile, readdir, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { renditionCacheFolder, storagePath } from "../media-storage";
import { type ByteBudget, createByteBudget } from "./byte-budget";

/**
 * The IIIF image service's renditions on disk, under `<storage>/iiif-cache/<mediaId>/<image|pN>/`,
 * one file per source and rendition: `<sourceTag>-<hash of the rendition key>.<format>`. Nothing
 * here checks access: the caller reads a rendition only after the principal may read its image.
 * Bounded twice: at most `renditionsPerImage` per image, more for an image served in tiles (its
 * whole pyramid on top; the oldest go first; those of an older file of the image whenever one is
 * written), and at most `maxBytes` in all, the least recently
 * served going first. The byte count is this process's: it is read from the folder once, then
 * kept as renditions are written, served and removed (several web processes sharing the storage
 * each keep their own count, so the folder may hold up to that many budgets).
 */
export const renditionsPerImage = 48;

export interface RenditionFile {
  /** The image's folder below the storage directory (ImageSource.cacheKey). */
  folder: string;
  /** Changes exactly when the image's pixels do. */
  sourceTag: string;
  /** The file's name in that folder. */
  name: string;
  /** How many renditions of the image to keep, when more than `renditionsPerImage` (its tiles). */
  keep?: number;
}

export interface RenditionCache {
  /** The rendition's bytes, or null when it was not made before (or has been dropped). */
  read(storageDir: string, file: RenditionFile): Promise<Buffer | null>;
  /** Keeps a rendition just made; drops what no longer fits. */
  write(storageDir: string, file: RenditionFile, bytes: Buffer): Promise<void>;
}

export function createRenditionCache(maxBytes: number): RenditionCache {
  const budgets = new Map<string, Promise<ByteBudget>>();
  const budgetOf = (storageDir: string) => {
    let budget = budgets.get(storageDir);
    if (!budget) {
      budget = loadBudget(storageDir, maxBytes);
      budgets.set(storageDir, budget);
    }
    return budget;
  };
  return {
    async read(storageDir, file) {
      const relative = join(file.folder, file.name);
      const path = storagePath(storageDir, relative);
      const bytes = await readFile(path).catch(() => null);
      if (!bytes) return null;
      const budget = await budgetOf(storageDir);
      if (budget.has(relative)) budget.touch(relative);
      else await removeAll(storageDir, budget.add(relative, bytes.byteLength));
      // The file's time is its last use, for the order after a restart.
      const now = new Date();
      await utimes(path, now, now).catch(() => undefined);
      return bytes;
    },
    async write(storageDir, file, bytes) {
      const directory = storagePath(storageDir, file.folder);
      await mkdir(directory, { recursive: true });
      // Written beside and renamed: a reader never sees half a file.
      const partial = join(directory, `.${randomUUID()}.part`);
      await writeFile(partial, bytes);
      await rename(partial, join(directory, file.name));
      const budget = await budgetOf(storageDir);
      const pruned = await pruneImageFolder(directory, file.sourceTag, Math.max(renditionsPerImage, file.keep ?? 0));
      for (const name of pruned) budget.remove(join(file.folder, name));
      await removeAll(storageDir, budget.add(join(file.folder, file.name), bytes.byteLength));
    },
  };
}

/** The renditions already on disk, least recently used first (by their files' times). */
async function loadBudget(storageDir: string, maxBytes: number): Promise<ByteBudget> {
  const budget = createByteBudget(maxBytes);
  const found: { relative: string; bytes: number; at: number }[] = [];
  const names = async (relative: string) => readdir(storagePath(storageDir, relative)).catch(() => [] as string[]);
  for (const media of await names(renditionCacheFolder)) {
    for (const variant of await names(join(renditionCacheFolder, media))) {
      for (const name of await names(join(renditionCacheFolder, media, variant))) {
        if (name.startsWith(".")) continue;
        const relative = join(renditionCacheFolder, media, variant, name);
        const info = await stat(storagePath(storageDir, relative)).catch(() => null);
        if (info?.isFile()) found.push({ relative, bytes: info.size, at: info.mtimeMs });
      }
    }
  }
  found.sort((a, b) => a.at - b.at);
  for (const file of found) await removeAll(storageDir, budget.add(file.relative, file.bytes));
  return budget;
}

async function removeAll(storageDir: string, relatives: string[]): Promise<void> {
  await Promise.all(relatives.map((relative) => rm(storagePath(storageDir, relative), { force: true })));
}

/** One image's folder: renditions of an older file go, then the oldest beyond the limit. Returns the names removed. */
async function pruneImageFolder(directory: string, sourceTag: string, keep: number): Promise<string[]> {
  const names = await readdir(directory).catch(() => [] as string[]);
  const stale = names.filter((name) => !name.startsWith(".") && !name.startsWith(`${sourceTag}-`));
  const current = names.filter((name) => name.startsWith(`${sourceTag}-`));
  let removed = stale;
  if (current.length > keep) {
    const dated = await Promise.all(current.map(async (name) => ({ name, at: (await stat(join(directory, name)).catch(() => null))?.mtimeMs ?? 0 })));
    dated.sort((a, b) => a.at - b.at);
    removed = [...stale, ...dated.slice(0, dated.length - keep).map(({ name }) => name)];
  }
  await Promise.all(removed.map((name) => rm(join(directory, name), { force: true })));
  return removed;
}
