import "server-only";
import { z } from "zod";
import type { Principal } from "../acl";
import type { PrismaClient } from "../db/generated/client";
import { AppError, isAppError } from "../errors";
import { type RecordUpload, readRecordForm } from "./record-form-data";
import { discardMedia, removeStoredFiles, storeMedia } from "./media-storage";
import { saveRecord } from "./save-record";
import { getSectionBySlug } from "./sections";

/**
 * The record form's save (new and edit): the submitted FormData read against the section's
 * fields, uploads stored, the record saved. Files are stored first so the record can point at
 * them; if anything after fails, the new uploads are removed again and nothing is half-written.
 */
const optionalEntry = (formData: FormData, name: string) => {
  const value = formData.get(name);
  return typeof value === "string" && value !== "" ? value : undefined;
};

export const recordFormSchema = z
  .instanceof(FormData)
  .transform((formData): { formData: FormData; id?: unknown; version?: unknown; section?: unknown; projectId?: unknown } => ({
    formData,
    id: optionalEntry(formData, "id"),
    version: optionalEntry(formData, "version"),
    section: optionalEntry(formData, "section"),
    projectId: optionalEntry(formData, "projectId"),
  }))
  .pipe(
    z.object({
      formData: z.instanceof(FormData),
      id: z.string().max(64).optional(),
      version: z.coerce.number().int().positive().optional(),
      section: z.string({ error: "The section is missing; reload the page." }).max(64),
      projectId: z.string({ error: "Choose a project." }).max(64),
    }),
  );

export interface MediaStorageOptions {
  storageDir: string;
  maxBytes: number;
}

async function storeUpload(prisma: PrismaClient, principal: Principal, projectId: string, upload: RecordUpload, storage: MediaStorageOptions): Promise<string> {
  try {
    const stored = await storeMedia(prisma, principal, {
      projectId,
      file: { name: upload.file.name, bytes: new Uint8Array(await upload.file.arrayBuffer()) },
      expectedKind: upload.kind,
      ...storage,
    });
    return stored.id;
  } catch (error) {
    // Shown under the file input it belongs to.
    if (isAppError(error)) {
      throw new AppError(error.code, `The file for ${upload.label} was not accepted.`, {
        fieldErrors: { [upload.key]: [`${upload.label}: ${error.message}`] },
      });
    }
    throw error;
  }
}

export async function saveRecordForm(
  prisma: PrismaClient,
  principal: Principal,
  input: z.output<typeof recordFormSchema>,
  storage: MediaStorageOptions,
): Promise<{ id: string; version: number }> {
  const section = await getSectionBySlug(prisma, input.section);
  const form = readRecordForm(section.fields, input.formData);
  if (Object.keys(form.fieldErrors).length > 0) {
    throw new AppError("bad_request", "Some fields need attention.", { fieldErrors: form.fieldErrors });
  }

  const values = { ...form.values };
  const uploaded: string[] = [];
  let saved: Awaited<ReturnType<typeof saveRecord>>;
  try {
    for (const upload of form.uploads) {
      const mediaId = await storeUpload(prisma, principal, input.projectId, upload, storage);
      uploaded.push(mediaId);
      values[upload.key] = mediaId;
    }
    saved = await saveRecord(prisma, principal, {
      id: input.id,
      version: input.version,
      sectionSlug: section.slug,
      projectId: input.projectId,
      values,
    });
  } catch (error) {
    await discardMedia(prisma, storage.storageDir, uploaded).catch((cleanupError: unknown) => {
      console.error("[mnemo] could not discard uploads of a failed save", cleanupError);
    });
    throw error;
  }
  // Replaced or removed files: their rows went with the save; the bytes go now.
  await removeStoredFiles(storage.storageDir, saved.removedStorageKeys).catch((error: unknown) => {
    console.error("[mnemo] could not remove replaced files", error);
  });
  return { id: saved.id, version: saved.version };
}
