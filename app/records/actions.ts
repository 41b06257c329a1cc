"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { deleteRecord } from "@/lib/archive/delete-record";
import { removeStoredFiles } from "@/lib/archive/media-storage";
import { restoreRecordVersion } from "@/lib/archive/record-history";
import { recordFormSchema, saveRecordForm } from "@/lib/archive/save-record-form";
import { authorizedAction } from "@/lib/http/authorized";
import type { RecordFormState } from "@/lib/archive/record-form-data";

const saveRecordForPrincipal = authorizedAction(recordFormSchema, async (input, { principal, runtime }): Promise<never> => {
  const {
    database: { prisma },
    config,
  } = runtime;
  const saved = await saveRecordForm(prisma, principal, input, { storageDir: config.storageDir, maxBytes: config.MAX_UPLOAD_BYTES });
  redirect(`/records/${saved.id}`);
});

/** The record form's action (new and edit), for useActionState. */
export async function saveRecordAction(_previous: RecordFormState, formData: FormData): Promise<RecordFormState> {
  return saveRecordForPrincipal(formData);
}

const deleteRecordForPrincipal = authorizedAction(
  z.object({ id: z.string().max(64), version: z.number().int().positive() }),
  async (input, { principal, runtime }): Promise<never> => {
    const {
      database: { prisma },
      config,
    } = runtime;
    const { storageKeys } = await deleteRecord(prisma, principal, input);
    // The rows are gone; a file that cannot be removed now is only disk space, not a dangling link.
    await removeStoredFiles(config.storageDir, storageKeys).catch((error: unknown) => {
      console.error("[mnemo] could not remove files of a deleted record", error);
    });
    redirect("/records");
  },
);

/** Deletes a record at the version the reader saw; a newer version is a conflict. */
export async function deleteRecordAction(input: { id: string; version: number }): Promise<RecordFormState> {
  return deleteRecordForPrincipal(input);
}

const restoreVersionForPrincipal = authorizedAction(
  z.object({ id: z.string().max(64), version: z.number().int().positive(), restore: z.number().int().positive() }),
  async (input, { principal, runtime }) => {
    const {
      database: { prisma },
      config,
    } = runtime;
    const restored = await restoreRecordVersion(prisma, principal, { recordId: input.id, version: input.version, restore: input.restore }, config.storageDir);
    return { version: restored.version, keptFiles: restored.keptFiles };
  },
);

/** Restores an earlier version as a new save, against the version the reader saw (a newer one is a conflict). */
export async function restoreVersionAction(input: { id: string; version: number; restore: number }) {
  return restoreVersionForPrincipal(input);
}
