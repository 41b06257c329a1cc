import "server-only";
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { type Principal, isAnonymous } from "../../acl";
import { type TrustedProxies, throttleKey, trustedProxies } from "../../auth/client-address";
import type { Config } from "../../config";
import type { PrismaClient } from "../../db/generated/client";
import { AppError, notFound } from "../../errors";
import { isUuid } from "../../ids";
import { type RateLimiter, createRateLimiter } from "../../rate-limit";
import { imageDecodeTimeoutSeconds, openImage, readImageHeader } from "../image-limits";
import { getReadableMedia, renditionCacheFolder, storagePath } from "../media-storage";
import { scanPageImage } from "../serve-media";
import {
  type ImageRequest,
  type ImageServiceSettings,
  canonicalImageRequest,
  defaultImageServiceSettings,
  imageFormats,
  imageInfoContentType,
  imageInformation,
  parseImageRequest,
  renditionKey,
  tileCount,
} from "./image-request";
import { iiifUrls } from "./presentation";
import { type RenditionCache, createRenditionCache, renditionsPerImage } from "./rendition-cache";

/**
 * The IIIF Image API over the archive's images: `/iiif/image/<imageId>/info.json` and
 * `/iiif/image/<imageId>/<region>/<size>/<rotation>/<quality>.<format>`. An image id is a media
 * id (an image field's picture, or a one-page scan), or `<mediaId>~p<N>` for page N of a scan
 * (the page image OCR read). Access is the media's (getReadableMedia), checked on every request
 * before anything else: a media file the principal may not read, a missing one, a page that does
 * not exist, an undecodable image and a malformed id are one not_found. Then the request is
 * parsed against the image's limits (image-request.ts: malformed or beyond them a 400, valid but
 * not rendered a 501; a tile is a region and a size like any other), and the rendition is
 * served from the cache (rendition-cache.ts), keyed by the image's current file and the request
 * in canonical form with its size in pixels; or it is rendered by sharp and kept. Only a render
 * counts against the public reader's limit of renders a minute per client address (a 429 with
 * Retry-After beyond it); signed-in people and API tokens (limited by their token) are not.
 */
export interface ImageService {
  settings: ImageServiceSettings;
  /** Renders a minute per client address, for the public reader. */
  anonymousRenders: RateLimiter;
  cache: RenditionCache;
  proxies: TrustedProxies;
}

type ImageServiceConfig = Pick<Config, "MNEMO_IIIF_ANONYMOUS_RENDERS_PER_MINUTE" | "MNEMO_TRUSTED_PROXIES">;

/** The cached renditions under <storage>/iiif-cache/ each web process keeps (least recently served go first): a viewer's tiles of many scans, small beside the media. */
const renditionCacheBytes = 1024 * 1024 * 1024;

export function createImageService(config: ImageServiceConfig, now?: () => number): ImageService {
  return {
    settings: defaultImageServiceSettings,
    anonymousRenders: createRateLimiter({ perMinute: config.MNEMO_IIIF_ANONYMOUS_RENDERS_PER_MINUTE, now }),
    cache: createRenditionCache(renditionCacheBytes),
    proxies: trustedProxies(config.MNEMO_TRUSTED_PROXIES),
  };
}

// On globalThis: Next.js may bundle this module more than once, and the limit and the byte count must be one per process.
const processService = Symbol.for("mnemo.iiifImageService");

/** The process's image service (one limiter and one cache count per process). */
export function processImageService(config: ImageServiceConfig): ImageService {
  const holder = globalThis as unknown as Record<symbol, ImageService | undefined>;
  holder[processService] ??= createImageService(config);
  return holder[processService];
}

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

const profileLink = '<http://iiif.io/api/image/3/level1.json>;rel="profile"';
// Revalidated on every use (an ETag makes that cheap): access is checked again, so an image
// whose record left a public project stops being shown at once, from a browser's cache too.
const imageHeaders = { "cache-control": "private, no-cache", "x-content-type-options": "nosniff" };

/** info.json: the image's size, the sizes, limits and features served. */
export async function imageInfoResponse(
  prisma: PrismaClient,
  principal: Principal,
  input: { imageId: string; storageDir: string; serviceId: string; settings?: ImageServiceSettings },
): Promise<Response> {
  const source = await readImageSource(prisma, principal, input.imageId, input.storageDir);
  return new Response(JSON.stringify(imageInformation(input.serviceId, source, input.settings ?? defaultImageServiceSettings)), {
    headers: { ...imageHeaders, link: profileLink, "content-type": imageInfoContentType },
  });
}

/**
 * One rendition, for a principal who may read the image: from the cache when it was made before,
 * else rendered (the public reader within its limit of renders per address) and kept.
 * `serviceId` adds the canonical URI as a Link header.
 */
export async function imageResponse(
  prisma: PrismaClient,
  principal: Principal,
  input: {
    imageId: string;
    storageDir: string;
    region: string;
    size: string;
    rotation: string;
    quality: string;
    service: ImageService;
    clientAddress: string | null;
    serviceId?: string;
    ifNoneMatch?: string | null;
  },
): Promise<Response> {
  const { service } = input;
  const source = await readImageSource(prisma, principal, input.imageId, input.storageDir);
  const request = parseImageRequest(input, source, service.settings);
  const stem = `${source.sourceTag}-${hashOf(renditionKey(request, source)).slice(0, 24)}`;
  // A tiled image keeps its whole pyramid besides its other renditions: a viewer panning it asks them again.
  const file = { folder: source.cacheKey, sourceTag: source.sourceTag, name: `${stem}.${request.format}`, keep: renditionsPerImage + tileCount(source) };
  const etag = `"${stem}"`;
  const links = [profileLink];
  if (input.serviceId) links.push(`<${input.serviceId}/${canonicalImageRequest(request, source, service.settings)}>;rel="canonical"`);
  const headers: Record<string, string> = { ...imageHeaders, link: links.join(", "), etag };
  if (input.ifNoneMatch?.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)) return new Response(null, { status: 304, headers });

  let bytes = await service.cache.read(input.storageDir, file);
  const cached = bytes !== null;
  if (!bytes) {
    if (isAnonymous(principal)) takeAnonymousRender(service, input.clientAddress);
    bytes = await render(source, request);
    await service.cache.write(input.storageDir, file, bytes);
  }
  return new Response(new Uint8Array(bytes), {
    headers: {
      ...headers,
      "content-type": imageFormats[request.format],
      "content-length": String(bytes.byteLength),
      "mnemo-iiif-cache": cached ? "hit" : "miss",
    },
  });
}

/**
 * Counts one render for the public reader at this address (an IPv6 address by its /64); beyond
 * the limit, a 429 with Retry-After. Without a known address (outside server.ts) the public
 * readers share one allowance.
 */
function takeAnonymousRender(service: ImageService, clientAddress: string | null): void {
  const decision = service.anonymousRenders.take(`iiif-render:${clientAddress ? throttleKey(clientAddress) : "unknown"}`);
  if (decision.allowed) return;
  throw new AppError(
    "rate_limited",
    `Too many new image sizes asked from this address without signing in. Try again in ${decision.retryAfterSeconds} s, or sign in.`,
    { retryAfterSeconds: decision.retryAfterSeconds },
  );
}

async function render(source: ImageSource, request: ImageRequest): Promise<Buffer> {
  const { region } = request;
  let image = openImage(source.path).timeout({ seconds: imageDecodeTimeoutSeconds });
  if (region.left !== 0 || region.top !== 0 || region.width !== source.width || region.height !== source.height) image = image.extract(region);
  if (request.width !== region.width || request.height !== region.height) image = image.resize(request.width, request.height, { fit: "fill" });
  if (request.quality === "gray") image = image.grayscale();
  if (request.format === "png") image = image.png();
  else if (request.format === "webp") image = image.webp({ quality: 80 });
  else image = image.flatten({ background: "#ffffff" }).jpeg({ quality: 85, mozjpeg: false });
  try {
    return await image.toBuffer();
  } catch (error) {
    // Pixels that do not decode (the worker will mark the image): as if there were no image.
    if (error instanceof AppError) throw error;
    throw notFound();
  }
}

/** The service's base URI: a 303 to its info.json, for a principal who may read the image. */
export async function imageBaseRedirect(
  prisma: PrismaClient,
  principal: Principal,
  input: { imageId: string; storageDir: string; origin: string },
): Promise<Response> {
  await readImageSource(prisma, principal, input.imageId, input.storageDir);
  return new Response(null, { status: 303, headers: { location: `${iiifUrls(input.origin).imageService(input.imageId)}/info.json` } });
}
