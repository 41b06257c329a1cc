import "server-only";
import { createHash, randomUUID } from "node:crypto";
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Principal } from "../../acl";
import type { PrismaClient } from "../../db/generated/client";
import { AppError, notFound } from "../../errors";
import { isUuid } from "../../ids";
import { imageDecodeTimeoutSeconds, openImage, readImageHeader } from "../image-limits";
import { getReadableMedia, renditionCacheFolder, storagePath } from "../media-storage";
import { scanPageImage } from "../serve-media";
import { canonicalImageRequest, type ImageRequest, imageFormats, imageInfoContentType, imageInformation, parseImageRequest } from "./image-request";
import { iiifUrls } from "./presentation";

/**
 * The IIIF Image API over the archive's images: `/iiif/image/<imageId>/info.json` and
 * `/iiif/image/<imageId>/<region>/<size>/<rotation>/<quality>.<format>`. An image id is a media
 * id (an image field's picture, or a one-page scan), or `<mediaId>~p<N>` for page N of a scan
 * (the page image OCR read). Access is the media's (getReadableMedia): a media file the
 * principal may not read, a missing one, a page that does not exist, an undecodable image and a
 * malformed id are one not_found. Renditions are made by sharp and kept on disk under
 * `<storage>/iiif-cache/<mediaId>/<image|pN>/`, named by the source file's hash and the request's canonical
 * form, at most `renditionsPerImage` per image (the oldest go first); a changed file has another
 * hash, and its old renditions are removed the next time one is made; a deleted file's go with it
 * (removeStoredFiles).
 */
export const renditionsPerImage = 48;

export interface ImageSource {
  /** The image id as the URL names it. */
  imageId: string;
  mediaId: string;
  path: string;
  width: number;
  height: number;
  /** Changes exactly when the pixels served do. */
  sourceTag: string;
  /** Where its renditions are kept, below the storage directory: one folder per image id. */
  cacheKey: string;
}

/** `<uuid>` or `<uuid>~p<N>`; anything else names no image. */
export function parseImageId(imageId: string): { mediaId: string; page?: number } | null {
  const match = /^([0-9a-fA-F-]{36})(?:~p([1-9]\d{0,5}))?$/.exec(imageId);
  if (!match || !isUuid(match[1]!)) return null;
  return { mediaId: match[1]!.toLowerCase(), ...(match[2] ? { page: Number(match[2]) } : {}) };
}

/** The image id of a scan's page. */
export function pageImageId(mediaId: string, page: number): string {
  return `${mediaId}~p${page}`;
}

/** The file and size behind an image id, for a principal who may read it. */
export async function readImageSource(prisma: PrismaClient, principal: Principal, imageId: string, storageDir: string): Promise<ImageSource> {
  const parsed = parseImageId(imageId);
  if (!parsed) throw notFound();
  const media = await getReadableMedia(prisma, principal, parsed.mediaId);
  if (parsed.page !== undefined) {
    const page = await scanPageImage(prisma, media, parsed.page);
    const path = storagePath(storageDir, page.key ?? media.storageKey);
    const size = page.width > 0 && page.height > 0 ? { width: page.width, height: page.height } : await headerOf(path);
    const sourceTag = `${media.sha256.slice(0, 12)}${page.key ? hashOf(page.key).slice(0, 8) : ""}`;
    return { imageId, mediaId: media.id, path, ...size, sourceTag, cacheKey: join(renditionCacheFolder, media.id, `p${parsed.page}`) };
  }
  if (media.kind !== "image" || media.imageCheck === "undecodable") throw notFound();
  const path = storagePath(storageDir, media.storageKey);
  let size = media.width && media.height ? { width: media.width, height: media.height } : null;
  if (!size) {
    // Older rows have no size: read it from the header once and keep it.
    size = await headerOf(path);
    await prisma.media.update({ where: { id: media.id }, data: size });
  }
  return { imageId, mediaId: media.id, path, ...size, sourceTag: media.sha256.slice(0, 12), cacheKey: join(renditionCacheFolder, media.id, "image") };
}

async function headerOf(path: string): Promise<{ width: number; height: number }> {
  const bytes = await readFile(path).catch(() => {
    throw notFound();
  });
  return readImageHeader(bytes).catch(() => {
    throw notFound();
  });
}

function hashOf(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

const imageHeaders = {
  "cache-control": "private, max-age=3600",
  "x-content-type-options": "nosniff",
  link: '<http://iiif.io/api/image/3/level1.json>;rel="profile"',
};

/** info.json: the image's size, the sizes and features served. */
export async function imageInfoResponse(prisma: PrismaClient, principal: Principal, input: { imageId: string; storageDir: string; serviceId: string }): Promise<Response> {
  const source = await readImageSource(prisma, principal, input.imageId, input.storageDir);
  return new Response(JSON.stringify(imageInformation(input.serviceId, source)), {
    headers: { ...imageHeaders, "content-type": imageInfoContentType },
  });
}

/** One rendition: from the cache when it was made before, else made by sharp and kept. */
export async function imageResponse(
  prisma: PrismaClient,
  principal: Principal,
  input: { imageId: string; storageDir: string; region: string; size: string; rotation: string; quality: string },
): Promise<Response> {
  const source = await readImageSource(prisma, principal, input.imageId, input.storageDir);
  const request = parseImageRequest(input, source);
  const canonical = canonicalImageRequest(request, source);
  const { bytes, cached } = await cachedRendition(input.storageDir, source, request, canonical);
  return new Response(new Uint8Array(bytes), {
    headers: {
      ...imageHeaders,
      "content-type": imageFormats[request.format],
      "content-length": String(bytes.byteLength),
      "mnemo-iiif-cache": cached ? "hit" : "miss",
    },
  });
}

async function cachedRendition(storageDir: string, source: ImageSource, request: ImageRequest, canonical: string): Promise<{ bytes: Buffer; cached: boolean }> {
  const directory = storagePath(storageDir, source.cacheKey);
  const name = `${source.sourceTag}-${hashOf(canonical).slice(0, 24)}.${request.format}`;
  const path = join(directory, name);
  const hit = await readFile(path).catch(() => null);
  if (hit) return { bytes: hit, cached: true };
  const bytes = await render(source, request);
  await mkdir(directory, { recursive: true });
  // Written beside and renamed: a reader never sees half a file.
  const partial = join(directory, `.${randomUUID()}.part`);
  await writeFile(partial, bytes);
  await rename(partial, path);
  await pruneRenditions(directory, source.sourceTag);
  return { bytes, cached: false };
}

async function render(source: ImageSource, request: ImageRequest): Promise<Buffer> {
  const { region } = request;
  let image = openImage(source.path).timeout({ seconds: imageDecodeTimeoutSeconds });
  if (region.left !== 0 || region.top !== 0 || region.width !== source.width || region.height !== source.height) image = image.extract(region);
  if (request.width !== region.width || request.height !== region.height) image = image.resize(request.width, request.height, { fit: "fill" });
  if (request.quality === "gray") image = image.grayscale();
  image = request.format === "png" ? image.png() : image.flatten({ background: "#ffffff" }).jpeg({ quality: 85, mozjpeg: false });
  try {
    return await image.toBuffer();
  } catch (error) {
    // Pixels that do not decode (the worker will mark the image): as if there were no image.
    if (error instanceof AppError) throw error;
    throw notFound();
  }
}

/** Keeps a cache directory bounded: renditions of an older file go, then the oldest beyond the limit. */
async function pruneRenditions(directory: string, sourceTag: string): Promise<void> {
  const names = await readdir(directory).catch(() => [] as string[]);
  const stale = names.filter((name) => !name.startsWith(".") && !name.startsWith(`${sourceTag}-`));
  const current = names.filter((name) => name.startsWith(`${sourceTag}-`));
  await Promise.all(stale.map((name) => rm(join(directory, name), { force: true })));
  if (current.length <= renditionsPerImage) return;
  const dated = await Promise.all(current.map(async (name) => ({ name, at: (await stat(join(directory, name)).catch(() => null))?.mtimeMs ?? 0 })));
  dated.sort((a, b) => a.at - b.at);
  await Promise.all(dated.slice(0, dated.length - renditionsPerImage).map(({ name }) => rm(join(directory, name), { force: true })));
}

/** The service's base URI: a 303 to its info.json, for a principal who may read the image. */
export async function imageBaseRedirect(prisma: PrismaClient, principal: Principal, input: { imageId: string; storageDir: string; origin: string }): Promise<Response> {
  await readImageSource(prisma, principal, input.imageId, input.storageDir);
  return new Response(null, { status: 303, headers: { location: `${iiifUrls(input.origin).imageService(input.imageId)}/info.json` } });
}
