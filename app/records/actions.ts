"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { deleteRecord } from "@/lib/archive/delete-record";
import { discardMedia, removeStoredFiles, storeMedia } from "@/lib/archive/media-storage";
import { saveRecord } from "@/lib/archive/save-record";
import { getSectionBySlug } from "@/lib/archive/sections";
import type { Principal } from "@/lib/acl";
import { getConfig } from "@/lib/config";
import { getDatabase } from "@/lib/db";
import { AppError, isAppError } from "@/lib/errors";
import { authorizedAction } from "@/lib/http/authorized";
import { type RecordFormState, type RecordUpload, readRecordForm } from "@/components/record-form-data";

const optionalEntry = (formData: FormData, name: string) => {
  const value = formData.get(name);
  return typeof value === "string" && value !== "" ? value : undefined;
};

const recordFormSchema = z
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

async function storeUpload(principal: Principal, projectId: string, upload: RecordUpload): Promise<string> {
  const { prisma } = await getDatabase();
  const config = getConfig();
  try {
    const stored = await storeMedia(prisma, principal, {
      projectId,
      file: { name: upload.file.name, bytes: new Uint8Array(await upload.file.arrayBuffer()) },
      expectedKind: upload.kind,
      storageDir: config.storageDir,
      maxBytes: config.MAX_UPLOAD_BYTES,
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

const saveRecordForm = authorizedAction(recordFormSchema, async (input, { principal }): Promise<never> => {
  const { prisma } = await getDatabase();
  const section = await getSectionBySlug(prisma, input.section);
  const form = readRecordForm(section.fields, input.formData);
  if (Object.keys(form.fieldErrors).length > 0) {
    throw new AppError("bad_request", "Some fields need attention.", { fieldErrors: form.fieldErrors });
  }

  // Files are stored first so the record can point at them; if anything after fails, the new
  // uploads are removed again and nothing is half-written.
  const values = { ...form.values };
  const uploaded: string[] = [];
  let saved: { id: string; removedStorageKeys: string[] };
  try {
    for (const upload of form.uploads) {
      const mediaId = await storeUpload(principal, input.projectId, upload);
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
    await discardMedia(prisma, getConfig().storageDir, uploaded).catch((cleanupError: unknown) => {
      console.error("[mnemo] could not discard uploads of a failed save", cleanupError);
    });
    throw error;
  }
  // Replaced or removed files: their rows went with the save; the bytes go now.
  await removeStoredFiles(getConfig().storageDir, saved.removedStorageKeys).catch((error: unknown) => {
    console.error("[mnemo] could not remove replaced files", error);
  });
  redirect(`/records/${saved.id}`);
});

/** The record form's action (new and edit), for useActionState. */
export async function saveRecordAction(_previous: RecordFormState, formData: FormData): Promise<RecordFormState> {
  return saveRecordForm(formData);
}

const deleteRecordForPrincipal = authorizedAction(
  z.object({ id: z.string().max(64), version: z.number().int().positive() }),
  async (input, { principal }): Promise<never> => {
    const { prisma } = await getDatabase();
    const { storageKeys } = await deleteRecord(prisma, principal, input);
    // The rows are gone; a file that cannot be removed now is only disk space, not a dangling link.
    await removeStoredFiles(getConfig().storageDir, storageKeys).catch((error: unknown) => {
      console.error("[mnemo] could not remove files of a deleted record", error);
    });
    redirect("/records");
  },
);

/** Deletes a record at the version the reader saw; a newer version is a conflict. */
export async function deleteRecordAction(input: { id: string; version: number }): Promise<RecordFormState> {
  return deleteRecordForPrincipal(input);
}
