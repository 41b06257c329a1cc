/**
 * IIIF Presentation API 3.0 resources (https://iiif.io/api/presentation/3.0/), built as plain
 * JSON by pure functions: a Manifest of Canvases, each painted by an Annotation in an
 * AnnotationPage; supplementing annotations (a transcript's turns) on a time-based Canvas;
 * Ranges (a recording's index segments); Collections of Manifests or of Collections. Ids are
 * absolute URLs the caller builds (`iiifUrls`); labels are language maps.
 */

import { type ImageServiceSettings, defaultImageServiceSettings, largestRendition } from "./image-request";

export const presentationContext = "http://iiif.io/api/presentation/3/context.json";

/** The Content-Type of a Presentation 3 response (the spec's JSON-LD media type with its profile). */
export const presentationContentType = `application/ld+json;profile="${presentationContext}"`;

/** `{ "en": ["…"] }`; `none` when the language is not known (the spec's rule). */
export type LanguageMap = Record<string, string[]>;

export function languageMap(value: string | string[], language?: string | null): LanguageMap {
  return { [language || "none"]: Array.isArray(value) ? value : [value] };
}

export interface MetadataEntry {
  label: LanguageMap;
  value: LanguageMap;
}

/**
 * Plain text for a `summary` or a metadata `value`: the spec reads a string that starts with `<`
 * and ends with `>` as HTML, so such text gets the trailing space the spec asks for.
 */
export function plainValue(text: string): string {
  return /^<[\s\S]*>$/.test(text) ? `${text} ` : text;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/**
 * Links as the minimal HTML a metadata `value` may hold (one `<span>`, `<a href>` inside, only
 * http(s) targets: what the spec lets clients keep), so a viewer shows each label as a link to
 * its authority.
 */
export function linksValue(links: readonly { uri: string; label: string }[]): string {
  const anchors = links.filter((link) => /^https?:\/\//.test(link.uri)).map((link) => `<a href="${escapeHtml(link.uri)}">${escapeHtml(link.label)}</a>`);
  return anchors.length ? `<span>${anchors.join("; ")}</span>` : "";
}

export interface ResourceReference {
  id: string;
  type: string;
  label?: LanguageMap;
  format?: string;
  language?: string[];
  profile?: string;
}

export interface ImageService {
  id: string;
  type: "ImageService3";
  profile: "level0" | "level1" | "level2";
}

export interface ImageBody {
  id: string;
  type: "Image";
  format: string;
  width: number;
  height: number;
  service?: ImageService[];
}

export interface TimeBasedBody {
  id: string;
  type: "Sound" | "Video";
  format: string;
  duration: number;
  width?: number;
  height?: number;
}

export interface TextualBody {
  type: "TextualBody";
  value: string;
  format: "text/plain";
  language?: string;
}

export interface Annotation {
  id: string;
  type: "Annotation";
  motivation: "painting" | "supplementing";
  label?: LanguageMap;
  body: ImageBody | TimeBasedBody | TextualBody;
  target: string;
}

export interface AnnotationPage {
  id: string;
  type: "AnnotationPage";
  label?: LanguageMap;
  items: Annotation[];
}

/** An AnnotationPage a Canvas names by its id, for a viewer to fetch when it shows the Canvas (a scan page's OCR lines). */
export interface AnnotationPageReference {
  id: string;
  type: "AnnotationPage";
  label?: LanguageMap;
}

export interface Canvas {
  id: string;
  type: "Canvas";
  label: LanguageMap;
  width?: number;
  height?: number;
  duration?: number;
  thumbnail?: ImageBody[];
  items: AnnotationPage[];
  annotations?: (AnnotationPage | AnnotationPageReference)[];
  rendering?: ResourceReference[];
}

/** A Range item: a Canvas, or a part of one (`#t=`, `#xywh=`), or a nested Range. */
export type RangeItem = { id: string; type: "Canvas" } | Range;

export interface Range {
  id: string;
  type: "Range";
  label: LanguageMap;
  summary?: LanguageMap;
  metadata?: MetadataEntry[];
  items: RangeItem[];
}

/**
 * A service of a Manifest: Presentation 3's form (`id`, `type`) or an older API's (`@id`, `@type`,
 * `profile`), as the Content Search services are declared for viewers of either version.
 */
export type ServiceReference = Record<string, unknown> & ({ id: string; type: string } | { "@id": string; "@type": string });

export interface Manifest {
  "@context": typeof presentationContext;
  id: string;
  type: "Manifest";
  label: LanguageMap;
  summary?: LanguageMap;
  metadata?: MetadataEntry[];
  requiredStatement?: MetadataEntry;
  rights?: string;
  thumbnail?: ImageBody[];
  homepage?: ResourceReference[];
  rendering?: ResourceReference[];
  seeAlso?: ResourceReference[];
  partOf?: ResourceReference[];
  service?: ServiceReference[];
  items: Canvas[];
  structures?: Range[];
}

export interface Collection {
  "@context"?: typeof presentationContext;
  id: string;
  type: "Collection";
  label: LanguageMap;
  summary?: LanguageMap;
  homepage?: ResourceReference[];
  partOf?: ResourceReference[];
  items: ResourceReference[];
}

/** The image service of an image id: what a viewer asks sizes and regions from. */
export function imageService(serviceId: string): ImageService {
  return { id: serviceId, type: "ImageService3", profile: "level1" };
}

/**
 * An image as a painting body: the full image as JPEG (`full/max`), with its image service so a
 * viewer can ask the sizes and regions it needs (and the full resolution in tiles).
 */
export function imageBody(serviceId: string, size: { width: number; height: number }, settings: ImageServiceSettings = defaultImageServiceSettings): ImageBody {
  // `max` is the image itself, or less when it is larger than the service renders.
  const served = largestRendition(size, settings);
  return {
    id: `${serviceId}/full/max/0/default.jpg`,
    type: "Image",
    format: "image/jpeg",
    width: served.width,
    height: served.height,
    service: [imageService(serviceId)],
  };
}

/** A small rendition for lists and thumbnails: at most 400 px each way, never larger than the image. */
export function thumbnailBody(serviceId: string, size: { width: number; height: number }): ImageBody {
  const scale = Math.min(1, 400 / Math.max(size.width, size.height));
  return {
    id: `${serviceId}/full/!400,400/0/default.jpg`,
    type: "Image",
    format: "image/jpeg",
    // Rounded down, as the image service sizes a `!w,h` request.
    width: Math.max(1, Math.floor(size.width * scale)),
    height: Math.max(1, Math.floor(size.height * scale)),
    service: [imageService(serviceId)],
  };
}

/** A Canvas of one image, the size of the image, painted by it; its annotation pages (a scan page's OCR lines) named. */
export function imageCanvas(input: {
  id: string;
  label: LanguageMap;
  serviceId: string;
  width: number;
  height: number;
  settings?: ImageServiceSettings;
  annotations?: AnnotationPageReference[];
}): Canvas {
  const size = { width: input.width, height: input.height };
  return {
    id: input.id,
    type: "Canvas",
    label: input.label,
    width: input.width,
    height: input.height,
    thumbnail: [thumbnailBody(input.serviceId, size)],
    items: [
      {
        id: `${input.id}/page`,
        type: "AnnotationPage",
        items: [
          {
            id: `${input.id}/page/image`,
            type: "Annotation",
            motivation: "painting",
            body: imageBody(input.serviceId, size, input.settings),
            target: input.id,
          },
        ],
      },
    ],
    ...(input.annotations?.length ? { annotations: input.annotations } : {}),
  };
}

/**
 * A time-based Canvas of a recording: its duration, painted by the sound (or video) file; the
 * supplementing pages (a transcript) and renderings (its captions) go with it.
 */
export function timeBasedCanvas(input: {
  id: string;
  label: LanguageMap;
  media: { id: string; type: "Sound" | "Video"; format: string };
  duration: number;
  width?: number;
  height?: number;
  annotations?: AnnotationPage[];
  rendering?: ResourceReference[];
}): Canvas {
  const dimensions = input.width && input.height ? { width: input.width, height: input.height } : {};
  return {
    id: input.id,
    type: "Canvas",
    label: input.label,
    ...dimensions,
    duration: input.duration,
    items: [
      {
        id: `${input.id}/page`,
        type: "AnnotationPage",
        items: [
          {
            id: `${input.id}/page/media`,
            type: "Annotation",
            motivation: "painting",
            body: { ...input.media, duration: input.duration, ...dimensions },
            target: input.id,
          },
        ],
      },
    ],
    ...(input.annotations?.length ? { annotations: input.annotations } : {}),
    ...(input.rendering?.length ? { rendering: input.rendering } : {}),
  };
}

/** Seconds as a media fragment value: at most three decimals, no trailing zeros. */
export function fragmentSeconds(seconds: number): string {
  return String(Math.round(Math.max(0, seconds) * 1000) / 1000);
}

/** A part of a time-based Canvas: `<canvas>#t=start,end` (W3C Media Fragments). */
export function timeFragment(canvasId: string, start: number, end: number): string {
  return `${canvasId}#t=${fragmentSeconds(start)},${fragmentSeconds(Math.max(start, end))}`;
}

/** A pixel box of an image Canvas, as OCR gives a word's. */
export interface PixelBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A region of an image Canvas: `<canvas>#xywh=x,y,w,h` (W3C Media Fragments), in whole pixels. */
export function regionFragment(canvasId: string, box: PixelBox): string {
  const [x, y] = [Math.max(0, Math.floor(box.x)), Math.max(0, Math.floor(box.y))];
  return `${canvasId}#xywh=${x},${y},${Math.max(1, Math.ceil(box.x + box.w) - x)},${Math.max(1, Math.ceil(box.y + box.h) - y)}`;
}

/** The smallest box holding every box given (null for none): a run of words on a page. */
export function boxAround(boxes: readonly PixelBox[]): PixelBox | null {
  if (boxes.length === 0) return null;
  const left = Math.min(...boxes.map((box) => box.x));
  const top = Math.min(...boxes.map((box) => box.y));
  const right = Math.max(...boxes.map((box) => box.x + box.w));
  const bottom = Math.max(...boxes.map((box) => box.y + box.h));
  return { x: left, y: top, w: right - left, h: bottom - top };
}

/**
 * The turns of a transcript as one AnnotationPage of supplementing annotations: each turn's text
 * (with its speaker) targets its moment of the recording's Canvas.
 */
export function transcriptAnnotationPage(input: {
  id: string;
  label: LanguageMap;
  canvasId: string;
  language?: string | null;
  turns: readonly { speaker: string; start: number; end: number; text: string }[];
}): AnnotationPage {
  return {
    id: input.id,
    type: "AnnotationPage",
    label: input.label,
    items: input.turns.map((turn, index) => ({
      id: `${input.id}/${index + 1}`,
      type: "Annotation",
      motivation: "supplementing",
      body: {
        type: "TextualBody",
        value: turn.speaker ? `${turn.speaker}: ${turn.text}` : turn.text,
        format: "text/plain",
        ...(input.language ? { language: input.language } : {}),
      },
      target: timeFragment(input.canvasId, turn.start, turn.end),
    })),
  };
}

/**
 * A scan page's OCR lines as an AnnotationPage served apart (its Canvas names it by its id): each
 * line's text a supplementing annotation on `<canvas>#xywh=` of the box around its words, in the
 * Canvas's pixels (the page image OCR read), kept inside the Canvas.
 */
export function linesAnnotationPage(input: {
  id: string;
  label: LanguageMap;
  canvas: { id: string; width: number; height: number };
  language?: string | null;
  lines: readonly ({ text: string } & PixelBox)[];
}): AnnotationPage & { "@context": typeof presentationContext } {
  const { canvas } = input;
  const items: Annotation[] = [];
  for (const line of input.lines) {
    const left = Math.max(0, line.x);
    const top = Math.max(0, line.y);
    const box = { x: left, y: top, w: Math.min(canvas.width, line.x + line.w) - left, h: Math.min(canvas.height, line.y + line.h) - top };
    if (!line.text.trim() || box.w <= 0 || box.h <= 0) continue;
    items.push({
      id: `${input.id}/${items.length + 1}`,
      type: "Annotation",
      motivation: "supplementing",
      body: { type: "TextualBody", value: line.text, format: "text/plain", ...(input.language ? { language: input.language } : {}) },
      target: regionFragment(canvas.id, box),
    });
  }
  return { "@context": presentationContext, id: input.id, type: "AnnotationPage", label: input.label, items };
}

/** A recording's index (OHMS-style segments) as a Range of Ranges, each a part of the Canvas. */
export function segmentsRange(input: {
  id: string;
  label: LanguageMap;
  canvasId: string;
  language?: string | null;
  segments: readonly { start: number; end: number; title: string; synopsis: string; keywords: readonly string[] }[];
}): Range {
  return {
    id: input.id,
    type: "Range",
    label: input.label,
    items: input.segments.map((segment, index) => ({
      id: `${input.id}/${index + 1}`,
      type: "Range",
      label: languageMap(segment.title || `Segment ${index + 1}`, input.language),
      ...(segment.synopsis ? { summary: languageMap(plainValue(segment.synopsis), input.language) } : {}),
      ...(segment.keywords.length
        ? { metadata: [{ label: languageMap("Keywords", "en"), value: languageMap(plainValue(segment.keywords.join("; ")), input.language) }] }
        : {}),
      items: [{ id: timeFragment(input.canvasId, segment.start, segment.end), type: "Canvas" as const }],
    })),
  };
}

export function manifest(input: Omit<Manifest, "@context" | "type">): Manifest {
  const { id, label, items, ...rest } = input;
  const optional = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined && !(Array.isArray(value) && value.length === 0)));
  return { "@context": presentationContext, id, type: "Manifest", label, ...optional, items };
}

export function collection(input: Omit<Collection, "@context" | "type">): Collection {
  const { id, label, items, ...rest } = input;
  const optional = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined && !(Array.isArray(value) && value.length === 0)));
  return { "@context": presentationContext, id, type: "Collection", label, ...optional, items };
}

/** Where every IIIF resource of a record, a collection and an image lives, from the origin. */
export function iiifUrls(origin: string) {
  const base = `${origin.replace(/\/+$/, "")}/iiif`;
  return {
    manifest: (recordId: string) => `${base}/${encodeURIComponent(recordId)}/manifest`,
    /** Canvases, annotation pages and ranges hang below the manifest's record path. */
    recordPart: (recordId: string, ...parts: string[]) => [`${base}/${encodeURIComponent(recordId)}`, ...parts.map(encodeURIComponent)].join("/"),
    sectionCollection: (slug: string, page?: number) => `${base}/collection/section/${encodeURIComponent(slug)}${page === undefined ? "" : `/${page}`}`,
    projectCollection: (slug: string, page?: number) => `${base}/collection/project/${encodeURIComponent(slug)}${page === undefined ? "" : `/${page}`}`,
    imageService: (imageId: string) => `${base}/image/${encodeURIComponent(imageId)}`,
    recordPage: (recordId: string) => `${origin.replace(/\/+$/, "")}/records/${encodeURIComponent(recordId)}`,
    media: (mediaId: string, query = "") => `${origin.replace(/\/+$/, "")}/api/media/${encodeURIComponent(mediaId)}${query}`,
    captions: (recordId: string, file: string) =>
      `${origin.replace(/\/+$/, "")}/api/records/${encodeURIComponent(recordId)}/captions/${encodeURIComponent(file)}`,
  };
}

export type IiifUrls = ReturnType<typeof iiifUrls>;

/**
 * Whether a record has something a IIIF Manifest shows: a decodable image, a recording or a
 * scan among its values (the record page offers the manifest link then).
 */
export function showsInIiif(record: {
  values: Record<string, unknown>;
  section: { fields: readonly { key: string; type: string }[] };
  media: Record<string, { kind: string; imageCheck: string | null }>;
}): boolean {
  return record.section.fields.some((field) => {
    const value = record.values[field.key];
    const media = typeof value === "string" ? record.media[value] : undefined;
    if (!media || !["image", "media", "scan"].includes(field.type)) return false;
    return media.imageCheck !== "undecodable";
  });
}
