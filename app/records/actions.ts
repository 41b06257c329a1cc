"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { deleteRecord } from "@/lib/archive/delete-record";
import { removeStoredFiles } from "@/lib/archive/media-storage";
import { recordFormSchema, saveRecordForm } from "@/lib/archive/save-record-form";
import { getConfig } from "@/lib/config";
import { getDatabase } from "@/lib/db";
import { authorizedAction } from "@/lib/http/authorized";
import type { RecordFormState } from "@/lib/archive/record-form-data";

const saveRecordForPrincipal = authorizedAction(recordFormSchema, async (input, { principal }): Promise<never> => {
  const { prisma } = await getDatabase();
  const config = getConfig();
  const saved = await saveRecordForm(prisma, principal, input, { storageDir: config.storageDir, maxBytes: config.MAX_UPLOAD_BYTES });
  redirect(`/records/${saved.id}`);
});

/** The record form's action (new and edit), for useActionState. */
export async function saveRecordAction(_previous: RecordFormState, formData: FormData): Promise<RecordFormState> {
  return saveRecordForPrincipal(formData);
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
