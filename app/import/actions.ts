"use server";

import { z } from "zod";
import { authorizedAction } from "@/lib/http/authorized";
import { dryRunImportUpload, previewImportUpload, startImportUpload } from "@/lib/http/import-upload";

/**
 * The /import page's steps, each a form with the file (the browser keeps it between steps and
 * sends it again, so nothing half-uploaded waits on the server): preview, dry run, start. The
 * import service decides who may import into what (admins; curators into projects they edit;
 * anyone else: not found).
 */
const importForm = z.instanceof(FormData, { message: "Send the file as a form." });

/** The first rows and a mapping suggested for the section. */
export const previewImportAction = authorizedAction(importForm, async (form, { principal, runtime }) =>
  previewImportUpload(runtime.database.prisma, principal, form),
);

/** Every row checked against the plan; nothing written. */
export const dryRunImportAction = authorizedAction(importForm, async (form, { principal, runtime }) =>
  dryRunImportUpload(runtime.database.prisma, principal, form),
);

/** Queues the import job (its valid rows; the others are reported); the page follows its progress. */
export const startImportAction = authorizedAction(importForm, async (form, { principal, runtime }) =>
  startImportUpload(runtime.database.prisma, principal, form),
);
