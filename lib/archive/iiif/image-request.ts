import { AppError } from "../../errors";

/**
 * IIIF Image API 3.0 (https://iiif.io/api/image/3.0/) requests, level 1 and a little more: pure
 * parsing of `{region}/{size}/{rotation}/{quality}.{format}` against an image's size and the
 * server's limits into what to cut and how large to make it, and the info.json that says so.
 * As the spec's status codes ask: a malformed request (or one beyond the limits) is a 400 naming
 * the parameter; a valid one this server does not render (a rotation, mirroring, bitonal, a
 * format such as tif, gif, jp2 or pdf) is a 501.
 */

export const imageContext = "http://iiif.io/api/image/3/context.json";
/** The Content-Type of an Image API 3 info.json. */
export const imageInfoContentType = `application/ld+json;profile="${imageContext}"`;

/**
 * How large the service renders (defaultImageServiceSettings): no side beyond
 * `maxSize`, and no rendition more than `maxUpscale` times the image's own width or height, so a
 * small image cannot be blown up into a large one. A viewer asks regions for the full resolution
 * of a larger scan.
 */
export interface ImageServiceSettings {
  maxSize: number;
  maxUpscale: number;
}

/** maxSize: a 4096 px side fills any screen; a viewer asks regions for more of a larger scan. maxUpscale: twice an image's size is as far as a viewer zooms a small one usefully. */
export const defaultImageServiceSettings: ImageServiceSettings = { maxSize: 4096, maxUpscale: 2 };

/** One image's limits, as its info.json declares them (Image API 3, technical properties). */
export interface ImageLimits {
  maxWidth: number;
  maxHeight: number;
}

/** An image's limits: its own size times maxUpscale, at most maxSize each way. */
export function imageLimitsOf(image: { width: number; height: number }, settings: ImageServiceSettings = defaultImageServiceSettings): ImageLimits {
  return {
    maxWidth: Math.max(1, Math.min(settings.maxSize, Math.floor(image.width * settings.maxUpscale))),
    maxHeight: Math.max(1, Math.min(settings.maxSize, Math.floor(image.height * settings.maxUpscale))),
  };
}

export type ImageFormat = "jpg" | "png" | "webp";
export type ImageQuality = "default" | "color" | "gray";

export interface ImageRequest {
  /** The region cut from the image, in its pixels. */
  region: { left: number; top: number; width: number; height: number };
  /** The size of the rendition. */
  width: number;
  height: number;
  quality: ImageQuality;
  format: ImageFormat;
}

export const imageFormats: Record<ImageFormat, string> = { jpg: "image/jpeg", png: "image/png", webp: "image/webp" };

/** The spec's qualities and formats: any other is malformed (400); these, when not served, a 501. */
const specQualities = new Set(["default", "color", "gray", "bitonal"]);
const specFormats = new Set(["jpg", "tif", "png", "gif", "jp2", "pdf", "webp"]);

function badRequest(message: string): AppError {
  return new AppError("bad_request", message);
}

function notImplemented(message: string): AppError {
  return new AppError("not_implemented", message);
}

/** Tiles a viewer asks for the full resolution of an image larger than this on a side. */
export const tileWidth = 512;
const tiledAbove = 1024;

const integer = /^\d{1,6}$/;
const decimal = /^\d{1,6}(?:\.\d{1,6})?$/;

function parseRegion(region: string, image: { width: number; height: number }): ImageRequest["region"] {
  if (region === "full") return { left: 0, top: 0, width: image.width, height: image.height };
  if (region === "square") {
    const side = Math.min(image.width, image.height);
    return { left: Math.floor((image.width - side) / 2), top: Math.floor((image.height - side) / 2), width: side, height: side };
  }
  const percent = region.startsWith("pct:");
  const parts = (percent ? region.slice(4) : region).split(",");
  if (parts.length !== 4 || !parts.every((part) => (percent ? decimal : integer).test(part))) {
    throw badRequest(`The region "${region}" is malformed: use full, square, x,y,w,h in pixels or pct:x,y,w,h.`);
  }
  const numbers = parts.map(Number) as [number, number, number, number];
  // Percentages of the full image, in its pixels (the canonical form is in pixels).
  const [x, y, w, h] = percent
    ? (numbers.map((value, index) => Math.round((value * (index % 2 === 0 ? image.width : image.height)) / 100)) as [number, number, number, number])
    : numbers;
  if (w === 0 || h === 0) throw badRequest("The region's width and height must be greater than zero.");
  if (x >= image.width || y >= image.height) throw badRequest("The region lies outside the image.");
  // A region that runs past the edge is cut at the edge (the spec's rule).
  return { left: x, top: y, width: Math.min(w, image.width - x), height: Math.min(h, image.height - y) };
}

function parseSize(size: string, region: { width: number; height: number }, limits: ImageLimits): { width: number; height: number } {
  const upscale = size.startsWith("^");
  const spec = upscale ? size.slice(1) : size;
  const aspect = region.width / region.height;
  // `max` and `!w,h` are as large as allowed: never beyond the limits, nor beyond the region without ^.
  const largestScale = Math.min(upscale ? Number.POSITIVE_INFINITY : 1, limits.maxWidth / region.width, limits.maxHeight / region.height);
  let width: number;
  let height: number;
  let match: RegExpExecArray | null;
  if (spec === "max") {
    return { width: Math.max(1, Math.floor(region.width * largestScale)), height: Math.max(1, Math.floor(region.height * largestScale)) };
  } else if ((match = /^(\d{1,6}),$/.exec(spec))) {
    width = Number(match[1]);
    height = Math.round(width / aspect);
  } else if ((match = /^,(\d{1,6})$/.exec(spec))) {
    height = Number(match[1]);
    width = Math.round(height * aspect);
  } else if ((match = /^pct:(\d{1,3}(?:\.\d{1,4})?)$/.exec(spec))) {
    const percent = Number(match[1]);
    if (percent <= 0) throw badRequest("The size's percentage must be greater than zero.");
    width = Math.round((region.width * percent) / 100);
    height = Math.round((region.height * percent) / 100);
  } else if ((match = /^!(\d{1,6}),(\d{1,6})$/.exec(spec))) {
    const boxWidth = Number(match[1]);
    const boxHeight = Number(match[2]);
    // As large as fits the box and the limits, keeping the aspect; without ^, never beyond the region itself.
    const scale = Math.min(boxWidth / region.width, boxHeight / region.height, largestScale);
    width = Math.floor(region.width * scale);
    height = Math.floor(region.height * scale);
  } else if ((match = /^(\d{1,6}),(\d{1,6})$/.exec(spec))) {
    width = Number(match[1]);
    height = Number(match[2]);
  } else {
    throw badRequest(`The size "${size}" is not supported: use max, w,, ,h, w,h, !w,h or pct:n, with ^ before it to allow upscaling.`);
  }
  if (width < 1 || height < 1) throw badRequest("The requested size is less than one pixel.");
  if (!upscale && (width > region.width || height > region.height)) {
    throw badRequest(`The size ${width}×${height} is larger than the region (${region.width}×${region.height}); put ^ before the size to ask for upscaling.`);
  }
  // The spec's limits (maxWidth, maxHeight): a larger request is refused, not shrunk.
  if (width > limits.maxWidth || height > limits.maxHeight) {
    throw badRequest(
      `The size ${width}×${height} is larger than this image is served (at most ${limits.maxWidth}×${limits.maxHeight}, as its info.json says).`,
    );
  }
  return { width, height };
}

/** The size `max` renders for an image: itself, or less to fit the limits. */
export function largestRendition(
  image: { width: number; height: number },
  settings: ImageServiceSettings = defaultImageServiceSettings,
): { width: number; height: number } {
  return parseSize("max", image, imageLimitsOf(image, settings));
}

/**
 * Parses one Image API request for an image of the given size: a malformed parameter (or a size
 * beyond the limits) is a 400, checked first; then a valid request for what is not rendered, a 501.
 */
export function parseImageRequest(
  parts: { region: string; size: string; rotation: string; quality: string },
  image: { width: number; height: number },
  settings: ImageServiceSettings = defaultImageServiceSettings,
): ImageRequest {
  const region = parseRegion(parts.region, image);
  const size = parseSize(parts.size, region, imageLimitsOf(image, settings));
  const rotation = /^(!?)(\d{1,3}(?:\.\d{1,6})?)$/.exec(parts.rotation);
  if (!rotation || Number(rotation[2]) > 360)
    throw badRequest(`The rotation "${parts.rotation}" is malformed: use degrees from 0 to 360, with ! before them to mirror.`);
  const dot = parts.quality.lastIndexOf(".");
  const quality = dot > 0 ? parts.quality.slice(0, dot) : parts.quality;
  const format = dot > 0 ? parts.quality.slice(dot + 1) : "";
  if (!specQualities.has(quality)) throw badRequest(`The quality "${quality}" is malformed: use default, color, gray or bitonal.`);
  if (!specFormats.has(format)) throw badRequest(`The format "${format}" is malformed: use jpg, png, webp, tif, gif, jp2 or pdf.`);
  if (rotation[1]) throw notImplemented("Mirroring (!) is not offered here: only rotation 0 without it.");
  if (Number(rotation[2]) !== 0) throw notImplemented(`The rotation "${parts.rotation}" is not offered here: only 0.`);
  if (quality !== "default" && quality !== "color" && quality !== "gray")
    throw notImplemented(`The quality "${quality}" is not offered here: use default, color or gray.`);
  if (format !== "jpg" && format !== "png" && format !== "webp") throw notImplemented(`The format "${format}" is not offered here: use jpg, png or webp.`);
  return { region, ...size, quality, format };
}

function regionText(request: ImageRequest, image: { width: number; height: number }): string {
  const { region } = request;
  const full = region.left === 0 && region.top === 0 && region.width === image.width && region.height === image.height;
  return full ? "full" : `${region.left},${region.top},${region.width},${region.height}`;
}

const qualityText = (request: ImageRequest) => `${request.quality === "color" ? "default" : request.quality}.${request.format}`;

/** A request's canonical form (the spec's canonical URI syntax), for the Link header. */
export function canonicalImageRequest(
  request: ImageRequest,
  image: { width: number; height: number },
  settings: ImageServiceSettings = defaultImageServiceSettings,
): string {
  const { region } = request;
  const max = parseSize("max", region, imageLimitsOf(image, settings));
  const sizeText =
    request.width === max.width && request.height === max.height
      ? "max"
      : `${request.width > region.width || request.height > region.height ? "^" : ""}${request.width},${request.height}`;
  return `${regionText(request, image)}/${sizeText}/0/${qualityText(request)}`;
}

/**
 * The key of a request's cached rendition: its canonical form with the size always in pixels,
 * so that `max` of one setting is never served for `max` of another.
 */
export function renditionKey(request: ImageRequest, image: { width: number; height: number }): string {
  return `${regionText(request, image)}/${request.width},${request.height}/0/${qualityText(request)}`;
}

/** The image information document (info.json) of an image service, with the limits it serves. */
export function imageInformation(serviceId: string, image: { width: number; height: number }, settings: ImageServiceSettings = defaultImageServiceSettings) {
  const limits = imageLimitsOf(image, settings);
  const largest = parseSize("max", image, limits);
  // A few ready sizes (halvings of the largest served) for viewers that pick from a list.
  const sizes: { width: number; height: number }[] = [];
  for (let factor = 8; factor >= 1; factor /= 2) {
    const width = Math.floor(largest.width / factor);
    const height = Math.floor(largest.height / factor);
    if (width >= 64 && height >= 1) sizes.push({ width, height });
  }
  return {
    "@context": imageContext,
    id: serviceId,
    type: "ImageService3",
    protocol: "http://iiif.io/api/image",
    profile: "level1",
    width: image.width,
    height: image.height,
    ...limits,
    sizes: sizes.length ? sizes : [largest],
    ...(Math.max(image.width, image.height) > tiledAbove ? { tiles: [{ width: tileWidth, scaleFactors: tileScaleFactors(image) }] } : {}),
    extraFormats: ["png", "webp"],
    extraQualities: ["color", "gray"],
    extraFeatures: ["canonicalLinkHeader", "profileLinkHeader", "regionByPct", "sizeByConfinedWh", "sizeByPct", "sizeUpscaling"],
  };
}

/** How many tiles an image's info.json offers, at every scale factor (none for an untiled image). */
export function tileCount(image: { width: number; height: number }): number {
  if (Math.max(image.width, image.height) <= tiledAbove) return 0;
  return tileScaleFactors(image).reduce(
    (sum, factor) => sum + Math.ceil(image.width / (tileWidth * factor)) * Math.ceil(image.height / (tileWidth * factor)),
    0,
  );
}

/** Halvings from the full resolution down to the one where the whole image is a single tile. */
export function tileScaleFactors(image: { width: number; height: number }): number[] {
  const factors = [1];
  while (Math.max(image.width, image.height) / factors.at(-1)! > tileWidth) factors.push(factors.at(-1)! * 2);
  return factors;
}
