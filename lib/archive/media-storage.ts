import "server-only";
import { createHash, randomUUID } from "node:crypto";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { dirname, resolve, sep } from "node:path";
import { type Principal, canEditProject, projectScopeWhere } from "../acl";
import type { PrismaClient } from "../db/generated/client";
import { AppError, notFound } from "../errors";
import { truncateText } from "../storable-text";
import { readImageHeader } from "./image-limits";
import { oggDurationSeconds, type SniffedType, sniffMediaType } from "./media-types";
import { isUuid } from "../ids";

export interface UploadedFile {
  name: string;
  bytes: Uint8Array;
}

/** What a form field takes: a picture, a recording, or a scan whose pages are read by OCR. */
export type UploadKind = "image" | "audio" | "video" | "scan";

/** Scans are page images (TIFF, JPEG, PNG) or PDFs; an image field takes only what browsers show. */
export function uploadAccepts(kind: UploadKind, type: Pick<SniffedType, "kind" | "mime">): boolean {
  if (kind === "scan") return type.kind === "document" || ["image/tiff", "image/jpeg", "image/png"].includes(type.mime);
  if (kind === "image") return type.kind === "image" && type.mime !== "image/tiff";
  return type.kind === kind;
}

/** Resolves a stored key inside the storage directory, refusing anything that escapes it. */
export function storagePath(storageDir: string, storageKey: string): string {
  const root = resolve(storageDir);
  const path = resolve(root, storageKey);
  if (!path.startsWith(root + sep)) throw new AppError("not_found", "Not found.");
  return path;
}

/**
 * Stores an upload for a project the principal may edit: checks size, recognises the type from
 * the bytes, reads an image's header to check its dimensions and pixel count, writes the file
 * under a generated name, then the media row. If the row cannot be written, the file is removed
 * again. An image's pixels are not decoded here — a 64 MP decode is seconds of CPU, and the
 * request would pay it — but by the index worker (`verify-images.ts`), which marks an image
 * whose body does not decode as undecodable: kept, never shown or indexed as a picture.
 */
export async function storeMedia(
  prisma: PrismaClient,
  principal: Principal,
  input: { projectId: string; file: UploadedFile; expectedKind?: UploadKind; storageDir: string; maxBytes: number },
): Promise<{ id: string; kind: SniffedType["kind"]; mime: string }> {
  if (!canEditProject(principal, input.projectId)) throw new AppError("forbidden", "You may not upload files to this project.");
  const { bytes } = input.file;
  if (bytes.byteLength === 0) throw new AppError("bad_request", "The file is empty.");
  if (bytes.byteLength > input.maxBytes) {
    throw new AppError("payload_too_large", `The file is larger than the limit of ${Math.round(input.maxBytes / 1024 / 1024)} MB.`);
  }
  const type = sniffMediaType(bytes);
  if (!type)
    throw new AppError(
      "unsupported_media_type",
      "This file type is not supported. Use PNG, JPEG, WebP or GIF images, Ogg, MP3, WAV or FLAC audio, MP4 or WebM video, or TIFF or PDF scans.",
    );
  if (input.expectedKind && !uploadAccepts(input.expectedKind, type)) {
    const expected = {
      image: "an image (PNG, JPEG, WebP or GIF)",
      audio: "an audio file",
      video: "a video file",
      scan: "a scan (a TIFF, JPEG or PNG page image, or a PDF)",
    }[input.expectedKind];
    throw new AppError("unsupported_media_type", `Expected ${expected}, got ${type.mime}.`);
  }
  let width: number | null = null;
  let height: number | null = null;
  let durationSeconds: number | null = null;
  if (type.kind === "image") {
    ({ width, height } = await readImageHeader(bytes));
  } else if (type.mime === "audio/ogg") {
    durationSeconds = oggDurationSeconds(bytes);
  }

  const id = randomUUID();
  const written = await writeMediaFile(input.storageDir, id, type.extension, bytes);
  try {
    await prisma.media.create({
      data: {
        id,
        projectId: input.projectId,
        kind: type.kind,
        mime: type.mime,
        size: bytes.byteLength,
        width,
        height,
        durationSeconds,
        imageCheck: type.kind === "image" ? "pending" : null,
        // Recordings are probed, made streamable and segmented by the index worker (audio-intake.ts).
        intake: type.kind === "image" ? null : "pending",
        originalName: sanitiseName(input.file.name),
        ...written,
      },
    });
  } catch (error) {
    await removeStoredFiles(input.storageDir, [written.storageKey]);
    throw error;
  }
  return { id, kind: type.kind, mime: type.mime };
}

/** A generated, dated storage key (`yyyy/mm/<id>.<ext>`); never derived from user input. */
export function mediaFileKey(id: string, extension: string): string {
  const now = new Date();
  return `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, "0")}/${id}.${extension}`;
}

/** Writes bytes under a generated, dated key; the key never comes from user input. */
export async function writeMediaFile(storageDir: string, id: string, extension: string, bytes: Uint8Array): Promise<{ storageKey: string; sha256: string }> {
  const storageKey = mediaFileKey(id, extension);
  const path = storagePath(storageDir, storageKey);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, bytes);
  return { storageKey, sha256: createHash("sha256").update(bytes).digest("hex") };
}

/**
 * Every file stored for a media row: the upload, its thumbnail, a recording's streamable copy and
 * the page images taken out of a scan.
 */
export function storedKeysOf(media: {
  storageKey: string;
  thumbnailKey: string | null;
  streamKey?: string | null;
  pages?: { imageKey: string | null }[];
}): string[] {
  return [media.storageKey, media.thumbnailKey, media.streamKey ?? null, ...(media.pages ?? []).map((page) => page.imageKey)].filter((key): key is string =>
    Boolean(key),
  );
}

/** Removes stored files and their rows for uploads whose record save failed. */
export async function discardMedia(prisma: PrismaClient, storageDir: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const rows = await prisma.media.findMany({ where: { id: { in: ids }, recordId: null } });
  await prisma.media.deleteMany({ where: { id: { in: rows.map((row) => row.id) } } });
  await removeStoredFiles(
    storageDir,
    rows.map((row) => row.storageKey),
  );
}

/** Where the IIIF image service keeps its renditions of a media file: `<folder>/<media id>/` (lib/archive/iiif/serve-image.ts). */
export const renditionCacheFolder = "iiif-cache";

/**
 * Removes stored files, and the IIIF renditions made from an upload: an upload's key is named by
 * its media id (`mediaFileKey`), which names its rendition folder too.
 */
export async function removeStoredFiles(storageDir: string, storageKeys: string[]): Promise<void> {
  await Promise.all(storageKeys.map((key) => rm(storagePath(storageDir, key), { force: true })));
  const mediaIds = storageKeys.flatMap((key) => {
    const id = /([0-9a-fA-F-]{36})\.[A-Za-z0-9]+$/.exec(key)?.[1];
    return id && isUuid(id) ? [id] : [];
  });
  await Promise.all(mediaIds.map((id) => rm(storagePath(storageDir, `${renditionCacheFolder}/${id}`), { recursive: true, force: true })));
}

/** A media row the principal may read; missing and unreadable are the same not_found. */
export async function getReadableMedia(prisma: PrismaClient, principal: Principal, id: string) {
  if (!isUuid(id)) throw notFound();
  const media = await prisma.media.findFirst({ where: { id, ...projectScopeWhere(principal) } });
  if (!media) throw notFound();
  return media;
}

function sanitiseName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const cleaned = truncateText(
    base
      .toWellFormed()
      .replace(/[\u0000-\u001f\u007f"<>|:*?]/g, "_")
      .trim(),
    200,
  );
  return cleaned || "upload";
}
