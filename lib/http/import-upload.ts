import "server-only";
import { z } from "zod";
import type { Principal } from "../acl";
import {
  type DryRunResult,
  type ImportFile,
  type ImportPlan,
  type ImportPreview,
  dryRunImport,
  importPlanSchema,
  previewImport,
  problemsCsv,
  startImport,
} from "../archive/import";
import type { PrismaClient } from "../db/generated/client";
import { getConfig } from "../config";
import { AppError, parseInput } from "../errors";
import { formatBytes } from "../format";
import { refuseUnstorableText } from "../storable-text";

/**
 * An import file as the /import page sends it: a form (multipart/form-data) with the `file`, and
 * the `sectionSlug` (preview) or the `plan` as JSON and an optional `mediaZip` (dry run, start,
 * problems). The server
 * actions (app/import/actions.ts) and the problems download are one line each over the functions
 * at the end, so the checks and their messages are one: the file is there, not empty, and within
 * MNEMO_IMPORT_MAX_BYTES — checked on its declared size before its bytes are read; the import
 * service (lib/archive/import) checks its encoding and rows and decides who may import what.
 */
export function importMaxBytes(): number {
  return getConfig().MNEMO_IMPORT_MAX_BYTES;
}

/** The largest media zip sent with an import (MNEMO_IMPORT_MAX_ZIP_BYTES). */
export function importZipMaxBytes(): number {
  return getConfig().MNEMO_IMPORT_MAX_ZIP_BYTES;
}

/**
 * The most the page's server actions take in one form (`serverActions.bodySizeLimit` in
 * next.config.ts): the file and the media zip travel together, so the page checks their sum.
 */
export const importPageFormMaxBytes = 50 * 1024 * 1024;

/** The largest form a route takes for an import: the file and zip limits, plus room for the plan and multipart framing. */
export function importUploadLimit(): number {
  return importMaxBytes() + importZipMaxBytes() + 256 * 1024;
}

export async function importFileFromForm(form: FormData): Promise<ImportFile> {
  const file = form.get("file");
  if (!(file instanceof File))
    throw new AppError("bad_request", "Choose a file to import.", { fieldErrors: { file: ["Choose a CSV, JSON, JSON Lines or XML file."] } });
  const maxBytes = importMaxBytes();
  if (file.size > maxBytes) {
    const message = `The file is ${formatBytes(file.size)}; imports are limited to ${formatBytes(maxBytes)}. Split it into smaller files.`;
    throw new AppError("payload_too_large", message, { fieldErrors: { file: [message] } });
  }
  if (file.size === 0) throw new AppError("bad_request", "The file is empty.", { fieldErrors: { file: ["The file is empty."] } });
  refuseUnstorableText({ file: file.name });
  return { fileName: file.name, bytes: new Uint8Array(await file.arrayBuffer()) };
}

/**
 * The zip of media files sent with the file, if any (an empty file input is no zip). Its size is
 * checked before its bytes are read; what is inside is checked by the import service.
 */
export async function mediaZipFromForm(form: FormData): Promise<ImportFile | undefined> {
  const zip = form.get("mediaZip");
  if (zip === null || (zip instanceof File && zip.size === 0 && zip.name === "")) return undefined;
  if (!(zip instanceof File))
    throw new AppError("bad_request", "Send the media zip as a file.", { fieldErrors: { mediaZip: ["Send the media zip as a file."] } });
  const maxBytes = importZipMaxBytes();
  if (zip.size > maxBytes) {
    const message = `The media zip is ${formatBytes(zip.size)}; a zip is limited to ${formatBytes(maxBytes)}. Split the import, or ask an admin to use a server folder.`;
    throw new AppError("payload_too_large", message, { fieldErrors: { mediaZip: [message] } });
  }
  refuseUnstorableText({ mediaZip: zip.name });
  return { fileName: zip.name, bytes: new Uint8Array(await zip.arrayBuffer()) };
}

const sectionSlugSchema = z.object({ sectionSlug: z.string().min(1, "Choose a section.").max(200) });

/** The section a preview suggests a mapping for. */
export function sectionSlugFromForm(form: FormData): string {
  const input = { sectionSlug: form.get("sectionSlug") ?? "" };
  refuseUnstorableText(input);
  return parseInput(sectionSlugSchema, input).sectionSlug;
}

/** The plan (section, project, mapping), sent as JSON in the form's `plan` entry. */
export function importPlanFromForm(form: FormData): ImportPlan {
  const raw = form.get("plan");
  let plan: unknown;
  try {
    plan = typeof raw === "string" ? JSON.parse(raw) : undefined;
  } catch {
    plan = undefined;
  }
  if (!plan || typeof plan !== "object" || Array.isArray(plan)) {
    throw new AppError("bad_request", "The import plan is missing or not valid JSON.", {
      fieldErrors: { plan: ["Send the section, project and mapping as a JSON object."] },
    });
  }
  refuseUnstorableText(plan);
  return parseInput(importPlanSchema, plan) as ImportPlan;
}

// ---- The page's steps, each a form in and the import service's answer out.

export async function previewImportUpload(prisma: PrismaClient, principal: Principal, form: FormData): Promise<ImportPreview> {
  const sectionSlug = sectionSlugFromForm(form);
  return previewImport(prisma, principal, await importFileFromForm(form), sectionSlug);
}

export async function dryRunImportUpload(prisma: PrismaClient, principal: Principal, form: FormData): Promise<DryRunResult> {
  const plan = importPlanFromForm(form);
  const file = await importFileFromForm(form);
  return dryRunImport(prisma, principal, file, plan, { mediaZip: await mediaZipFromForm(form) });
}

export async function startImportUpload(prisma: PrismaClient, principal: Principal, form: FormData): Promise<{ jobId: string; dryRun: DryRunResult }> {
  const plan = importPlanFromForm(form);
  const file = await importFileFromForm(form);
  return startImport(prisma, principal, file, plan, { mediaZip: await mediaZipFromForm(form) });
}

/** A dry run's problems as a CSV file (row, column, field, message), named after the uploaded file. */
export async function dryRunProblemsCsv(prisma: PrismaClient, principal: Principal, form: FormData): Promise<{ csv: string; fileName: string }> {
  const plan = importPlanFromForm(form);
  const file = await importFileFromForm(form);
  const result = await dryRunImport(prisma, principal, file, plan, { mediaZip: await mediaZipFromForm(form) });
  const stem =
    file.fileName
      .replace(/\.[^.]*$/, "")
      .replace(/[^A-Za-z0-9._-]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60) || "import";
  return { csv: problemsCsv(result.problems), fileName: `${stem}-problems.csv` };
}
