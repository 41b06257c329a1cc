import "server-only";
import type { Principal } from "../../acl";
import type { PrismaClient } from "../../db/generated/client";
import { notFound } from "../../errors";
import { authorityLabel } from "../authorities";
import { authorityLinksOf } from "../authority-text";
import { shownDate } from "../date-values";
import type { FieldDefinition, IndexSegment } from "../field-definitions";
import { getRecord, type RecordDetail } from "../get-record";
import { storedTurns } from "../record-captions";
import {
  type AnnotationPage,
  type Canvas,
  type IiifUrls,
  type Manifest,
  type MetadataEntry,
  type Range,
  iiifUrls,
  imageCanvas,
  languageMap,
  linksValue,
  manifest,
  plainValue,
  segmentsRange,
  timeBasedCanvas,
  transcriptAnnotationPage,
} from "./presentation";
import type { ImageServiceSettings } from "./image-request";
import { hasPageCanvas } from "./scan-page-annotations";
import { pageImageId, readImageSource } from "./serve-image";
import { contentSearchServices } from "./content-search";
import { hasObjectContext, linkedArtProfile, linkedArtUrl } from "../linked-data/linked-art";

/**
 * A record as a IIIF Presentation 3 Manifest (`/iiif/<id>/manifest`), read as its page reads it
 * (getRecord: an unreadable record is the same not_found as a missing one; relation values name
 * only readable records):
 * - each image field (an object's views: obverse, reverse, profile…) a Canvas of the image's
 *   size, painted by it, with its Image API service;
 * - each recording a time-based Canvas with its duration, painted by the sound (or video) file;
 *   its timecoded transcripts as supplementing annotations on `<canvas>#t=start,end` (with the
 *   WebVTT captions as a rendering), its index segments (OHMS) as Ranges in `structures`;
 * - each scan one Canvas per page, painted by the page image OCR read, naming the AnnotationPage
 *   of the text read from it, line by line (scan-page-annotations.ts).
 * Authority links are metadata values of `<a href>` links; an object (a section with an object
 * context) names its Linked Art description in `seeAlso`. A record with text to search (a
 * transcript, an index, read pages, long text) declares its Content Search services.
 * A record with nothing to show (no image, recording or scan) has no Manifest: not_found.
 */
export async function recordManifest(
  prisma: PrismaClient,
  principal: Principal,
  input: { recordId: string; origin: string; storageDir: string; imageSettings?: ImageServiceSettings },
): Promise<Manifest> {
  const record = await getRecord(prisma, principal, input.recordId);
  const urls = iiifUrls(input.origin);
  const language = recordLanguage(record);
  const [project, section, mediaRows, pageRows] = await Promise.all([
    prisma.project.findUniqueOrThrow({ where: { id: record.project.id }, select: { slug: true } }),
    prisma.section.findUniqueOrThrow({ where: { id: record.section.id }, select: { objectContext: true } }),
    prisma.media.findMany({ where: { recordId: record.id, projectId: record.project.id }, select: { id: true, mime: true, streamMime: true } }),
    prisma.mediaPage.findMany({
      where: { media: { recordId: record.id, projectId: record.project.id } },
      select: { mediaId: true, page: true, width: true, height: true, imageKey: true, text: true },
      orderBy: [{ mediaId: "asc" }, { page: "asc" }],
    }),
  ]);
  const streams = new Map(mediaRows.map((row) => [row.id, row]));

  const canvases: Canvas[] = [];
  const structures: Range[] = [];
  let searchable = record.section.fields.some(
    (field) => field.type === "longtext" && typeof record.values[field.key] === "string" && (record.values[field.key] as string).trim() !== "",
  );
  for (const field of record.section.fields) {
    const mediaId = record.values[field.key];
    if (typeof mediaId !== "string") continue;
    const media = record.media[mediaId];
    if (!media) continue;
    if (field.type === "image") {
      if (media.kind !== "image" || media.imageCheck === "undecodable") continue;
      const source = await readImageSource(prisma, principal, media.id, input.storageDir).catch(() => null);
      if (!source) continue;
      canvases.push(
        imageCanvas({
          id: urls.recordPart(record.id, "canvas", field.key),
          label: languageMap(field.label, "en"),
          serviceId: urls.imageService(media.id),
          width: source.width,
          height: source.height,
          settings: input.imageSettings,
        }),
      );
    } else if (field.type === "media") {
      const canvas = recordingCanvas(record, field, media, streams.get(media.id)?.streamMime ?? null, urls, language);
      if (!canvas) continue;
      canvases.push(canvas.canvas);
      structures.push(...canvas.structures);
      searchable ||= Boolean(canvas.canvas.annotations?.length) || canvas.structures.length > 0;
    } else if (field.type === "scan") {
      const pages = pageRows.filter((row) => row.mediaId === media.id && hasPageCanvas(row, media.mime));
      for (const page of pages) {
        searchable ||= page.text.trim() !== "";
        canvases.push(
          imageCanvas({
            id: urls.recordPart(record.id, "canvas", field.key, `p${page.page}`),
            label: languageMap(`${field.label}, page ${page.page}`, "en"),
            serviceId: urls.imageService(pageImageId(media.id, page.page)),
            width: page.width,
            height: page.height,
            settings: input.imageSettings,
            // Its OCR lines, served apart (scan-page-annotations.ts).
            annotations: page.text.trim() ? [{ id: urls.recordPart(record.id, "annotations", field.key, `p${page.page}`), type: "AnnotationPage" }] : undefined,
          }),
        );
      }
      // A page image not read yet is still a picture of the page.
      if (pages.length === 0 && media.kind === "image" && media.imageCheck !== "undecodable") {
        const source = await readImageSource(prisma, principal, media.id, input.storageDir).catch(() => null);
        if (source)
          canvases.push(
            imageCanvas({
              id: urls.recordPart(record.id, "canvas", field.key),
              label: languageMap(field.label, "en"),
              serviceId: urls.imageService(media.id),
              width: source.width,
              height: source.height,
              settings: input.imageSettings,
            }),
          );
      }
    }
  }
  if (canvases.length === 0) throw notFound();

  const firstImage = canvases.find((canvas) => canvas.thumbnail);
  const rights = rightsOf(record);
  return manifest({
    id: urls.manifest(record.id),
    label: languageMap(record.title, language),
    summary: summaryOf(record, language),
    metadata: metadataOf(record, language),
    requiredStatement: rights.statement,
    rights: rights.url,
    thumbnail: firstImage?.thumbnail,
    homepage: [{ id: urls.recordPage(record.id), type: "Text", label: languageMap(record.title, language), format: "text/html" }],
    seeAlso: hasObjectContext(section.objectContext)
      ? [
          {
            id: linkedArtUrl(input.origin, record.id),
            type: "Dataset",
            label: languageMap("Linked Art", "en"),
            format: "application/ld+json",
            profile: linkedArtProfile,
          },
        ]
      : undefined,
    service: searchable ? contentSearchServices(urls.recordPart(record.id)) : undefined,
    partOf: [
      { id: urls.sectionCollection(record.section.slug), type: "Collection", label: languageMap(record.section.name, "en") },
      { id: urls.projectCollection(project.slug), type: "Collection", label: languageMap(record.project.name, "en") },
    ],
    items: canvases,
    structures,
  });
}

/** The record's language (its `language` field) when it is a language code; else unknown. */
function recordLanguage(record: RecordDetail): string | null {
  const value = record.values.language;
  return typeof value === "string" && /^[a-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(value) ? value : null;
}

function recordingCanvas(
  record: RecordDetail,
  field: FieldDefinition,
  media: RecordDetail["media"][string],
  streamMime: string | null,
  urls: IiifUrls,
  language: string | null,
): { canvas: Canvas; structures: Range[] } | null {
  if (media.kind !== "audio" && media.kind !== "video") return null;
  const canvasId = urls.recordPart(record.id, "canvas", field.key);
  const { fields } = record.section;
  // Transcripts and indexes of this recording: those that name it, or every one when it is the only recording.
  const belongs = (candidate: FieldDefinition) => recordingFieldOf(fields, candidate)?.key === field.key;
  const transcripts = fields
    .filter((candidate) => candidate.type === "transcript" && belongs(candidate))
    .map((candidate) => ({ field: candidate, turns: storedTurns(record.values[candidate.key]) }))
    .filter((item) => item.turns.length > 0);
  const indexes = fields
    .filter((candidate) => candidate.type === "segments" && belongs(candidate))
    .map((candidate) => ({ field: candidate, segments: storedSegments(record.values[candidate.key]) }))
    .filter((item) => item.segments.length > 0);
  const spoken = Math.max(
    0,
    ...transcripts.flatMap((item) => item.turns.map((turn) => turn.end)),
    ...indexes.flatMap((item) => item.segments.map((segment) => segment.end)),
  );
  // Until the worker has probed a recording, its transcript says how long it at least is.
  const duration = Math.max(media.durationSeconds ?? 0, spoken);
  if (!(duration > 0)) return null;
  const annotations: AnnotationPage[] = transcripts.map((item) =>
    transcriptAnnotationPage({
      id: urls.recordPart(record.id, "annotations", item.field.key),
      label: languageMap(item.field.label, "en"),
      canvasId,
      language,
      turns: item.turns,
    }),
  );
  const canvas = timeBasedCanvas({
    id: canvasId,
    label: languageMap(field.label, "en"),
    media: {
      id: urls.media(media.id, streamMime ? "?variant=stream" : ""),
      type: media.kind === "video" ? "Video" : "Sound",
      format: streamMime ?? media.mime,
    },
    duration,
    width: media.width ?? undefined,
    height: media.height ?? undefined,
    annotations,
    rendering: transcripts.map((item) => ({
      id: urls.captions(record.id, `${item.field.key}.vtt`),
      type: "Text",
      label: languageMap(`${item.field.label} (WebVTT)`, "en"),
      format: "text/vtt",
      ...(language ? { language: [language] } : {}),
    })),
  });
  const structures = indexes.map((item) =>
    segmentsRange({
      id: urls.recordPart(record.id, "range", item.field.key),
      label: languageMap(item.field.label, "en"),
      canvasId,
      language,
      segments: item.segments,
    }),
  );
  return { canvas, structures };
}

/**
 * The recording a transcript or an index is timed against: the one it names, or the record's only
 * recording when it names none; null for other fields.
 */
export function recordingFieldOf(fields: readonly FieldDefinition[], field: FieldDefinition): FieldDefinition | null {
  if (field.type !== "transcript" && field.type !== "segments") return null;
  const recordings = fields.filter((candidate) => candidate.type === "media");
  if (field.mediaField) return recordings.find((candidate) => candidate.key === field.mediaField) ?? null;
  return recordings.length === 1 ? recordings[0]! : null;
}

/** Stored index segments, kept only where they have the shape the editor saves. */
export function storedSegments(value: unknown): IndexSegment[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item): IndexSegment[] => {
    if (!item || typeof item !== "object") return [];
    const { start, end, title, synopsis, keywords, partialTranscript } = item as Record<string, unknown>;
    if (typeof start !== "number" || typeof end !== "number") return [];
    return [
      {
        start,
        end,
        title: typeof title === "string" ? title : "",
        synopsis: typeof synopsis === "string" ? synopsis : "",
        keywords: Array.isArray(keywords) ? keywords.filter((keyword): keyword is string => typeof keyword === "string") : [],
        partialTranscript: typeof partialTranscript === "string" ? partialTranscript : "",
      },
    ];
  });
}

/** Fields that say who may use the record and how: a rights URL, or a statement to show. */
const rightsKeys = new Set(["rights", "license", "licence", "copyright", "creditLine", "credit", "attribution", "provider"]);
const rightsUrl = /^https?:\/\/(creativecommons\.org\/(licenses|publicdomain)\/|rightsstatements\.org\/vocab\/)\S+$/;
const summaryKeys = ["summary", "abstract", "description"];
/** Longer text than this (a publication's body) is the record's content, not its metadata. */
const maxMetadataText = 1000;

function rightsOf(record: RecordDetail): { url?: string; statement?: MetadataEntry } {
  let url: string | undefined;
  let statement: MetadataEntry | undefined;
  for (const field of record.section.fields) {
    const value = record.values[field.key];
    if (typeof value !== "string" || !value.trim()) continue;
    if (!url && rightsUrl.test(value.trim()))
      url = value
        .trim()
        .replace(/^https:\/\/creativecommons\.org/, "http://creativecommons.org")
        .replace(/^https:\/\/rightsstatements\.org/, "http://rightsstatements.org");
    else if (!statement && rightsKeys.has(field.key)) statement = { label: languageMap(field.label, "en"), value: languageMap(plainValue(value.trim())) };
  }
  return { url, statement };
}

function summaryOf(record: RecordDetail, language: string | null) {
  for (const key of summaryKeys) {
    const value = record.values[key];
    if (typeof value === "string" && value.trim()) return languageMap(plainValue(value.trim().slice(0, 2000)), language);
  }
  return undefined;
}

function metadataOf(record: RecordDetail, language: string | null): MetadataEntry[] {
  const titleKey = record.section.fields.find((field) => field.type === "text")?.key;
  const entries: MetadataEntry[] = [];
  for (const field of record.section.fields) {
    if (field.key === titleKey || rightsKeys.has(field.key) || summaryKeys.includes(field.key)) continue;
    const value = record.values[field.key];
    const text = metadataText(record, field, value);
    if (!text) continue;
    // Dates, categories and links are written the same in every language; text is in the record's.
    const valueLanguage = field.type === "text" || field.type === "longtext" ? language : null;
    entries.push({ label: languageMap(field.label, "en"), value: languageMap(field.type === "authority" ? text : plainValue(text), valueLanguage) });
  }
  entries.push({ label: languageMap("Project", "en"), value: languageMap(plainValue(record.project.name)) });
  return entries;
}

function metadataText(record: RecordDetail, field: FieldDefinition, value: unknown): string {
  switch (field.type) {
    case "text":
    case "category":
      return typeof value === "string" ? value.trim() : "";
    case "longtext":
      return typeof value === "string" && value.length <= maxMetadataText ? value.trim() : "";
    case "date":
    case "daterange":
      return shownDate(value);
    case "relation": {
      // Only the records the reader may read are in the values (getRecord), and so in `relations`.
      const ids = Array.isArray(value) ? value : [value];
      return ids.flatMap((id) => (typeof id === "string" && record.relations[id] ? [record.relations[id].title] : [])).join("; ");
    }
    case "authority":
      // HTML: the label as a link to the authority (linksValue).
      return linksValue(authorityLinksOf(value).map((link) => ({ uri: link.uri, label: authorityLabel(link) })));
    default:
      return "";
  }
}
