import "server-only";
import { extname } from "node:path";
import { z } from "zod";
import { type ImportFile, dryRunImport, previewImport, startImport } from "../../archive/import";
import { getConfig } from "../../config";
import { AppError } from "../../errors";
import { formatBytes } from "../../format";
import { createImportOutput, importMappingSchema } from "../api-schemas";
import { id, projectIdsOf } from "./inputs";
import { defineOperation } from "./operation";

const importFormats = ["csv", "json", "jsonl", "xml"] as const;

/**
 * The largest body create_import accepts: the import file limit (MNEMO_IMPORT_MAX_BYTES, the
 * service's own check of the file) twice over, because the file travels as a JSON string and
 * escaping (quotes, line breaks) can double its length, plus the media zip's limit
 * (MNEMO_IMPORT_MAX_ZIP_BYTES) in base64 (4 characters for 3 bytes), plus room for the plan. The
 * file and the zip are still held to their own limits by the service.
 */
export function importBodyLimit(importMaxBytes = getConfig().MNEMO_IMPORT_MAX_BYTES, zipMaxBytes = getConfig().MNEMO_IMPORT_MAX_ZIP_BYTES): number {
  return importMaxBytes * 2 + base64Length(zipMaxBytes) + 64 * 1024;
}

function base64Length(bytes: number): number {
  return Math.ceil(bytes / 3) * 4;
}

/**
 * The media zip as the service takes it. It travels as base64 inside the JSON body (the API is
 * JSON only); its decoded size is checked against MNEMO_IMPORT_MAX_ZIP_BYTES by the service.
 */
function mediaZipOf(base64: string | undefined): ImportFile | undefined {
  if (base64 === undefined) return undefined;
  const maxBytes = getConfig().MNEMO_IMPORT_MAX_ZIP_BYTES;
  if (base64.length > base64Length(maxBytes)) {
    const message = `The media zip is larger than ${formatBytes(maxBytes)} (MNEMO_IMPORT_MAX_ZIP_BYTES); use a smaller zip or a server folder.`;
    throw new AppError("payload_too_large", message, { fieldErrors: { mediaZip: [message] } });
  }
  return { fileName: "media.zip", bytes: new Uint8Array(Buffer.from(base64, "base64")) };
}

/** The file as the import service takes it: its name ends with the declared format. */
function importFileOf(content: string, format: (typeof importFormats)[number], fileName: string | undefined): ImportFile {
  const base = (fileName ?? "api-import").replace(/[/\\]/g, "_");
  const stem = extname(base) ? base.slice(0, -extname(base).length) : base;
  return { fileName: `${stem || "api-import"}.${format}`, bytes: new TextEncoder().encode(content) };
}

export const createImportOperation = defineOperation({
  name: "create_import",
  title: "Import records",
  description:
    "Imports a CSV, JSON (an array of objects), JSON Lines or XML file (an EAD3 finding aid: a row per component describing a unit; an EAC-CPF record: one row) into a section of a project you may edit (admins: any), as the token's user. " +
    "Send the file's text in `content` with its `format`. With `dryRun: true` every row is checked and nothing is written; otherwise the valid rows are imported by a background job " +
    "(rows with problems are skipped and reported) and the answer names the job to follow with get_import. Without `mapping`, columns are matched to fields by name (the suggested mapping, returned). " +
    "With an external id column, re-running updates the records it made instead of duplicating them. Needs a token with the write scope.",
  method: "POST",
  path: "/imports",
  pathParams: [],
  input: z.strictObject({
    sectionSlug: id.describe("The section to import into (see list_sections)."),
    projectId: id.describe("The project the records belong to (its id or slug); one you may edit."),
    format: z
      .enum(importFormats, "The format is csv, json, jsonl or xml.")
      .describe(
        "csv (a header row, comma-separated), json (an array of objects), jsonl (one object a line) or xml (an EAD3 finding aid or an EAC-CPF record, told apart by the root element).",
      ),
    content: z.string().describe("The file's text. The file limit is MNEMO_IMPORT_MAX_BYTES (UTF-8 bytes); convert other encodings to UTF-8 first."),
    fileName: z.string().max(200).optional().describe("The file's name, kept with the job (its extension is replaced by the format's)."),
    mapping: importMappingSchema.optional(),
    mediaFolder: z
      .string()
      .min(1)
      .max(1000)
      .optional()
      .describe("Admins: a folder under the server's MNEMO_IMPORT_MEDIA_ROOT holding the files that image and media cells name."),
    mediaZip: z
      .base64("The media zip must be base64 (standard alphabet, padded).")
      .min(1, "The media zip is empty.")
      .optional()
      .describe(
        "A zip of the files that image and media cells name (by their path in the zip, or their file name when only one file has it), base64-encoded; at most MNEMO_IMPORT_MAX_ZIP_BYTES before encoding. Not with mediaFolder.",
      ),
    dryRun: z.boolean().default(false).describe("Check every row and write nothing (default false)."),
  }),
  output: createImportOutput,
  // A file of up to tens of megabytes checked row by row: worth several lookups.
  cost: 5,
  scope: "write",
  maxBodyBytes: () => importBodyLimit(),
  async run(input, { runtime, principal, origin }) {
    const { prisma } = runtime;
    const file = importFileOf(input.content, input.format, input.fileName);
    const mapping = input.mapping ?? (await previewImport(prisma, principal, file, input.sectionSlug)).suggestedMapping;
    const [projectId] = (await projectIdsOf(prisma, principal, [input.projectId]))!;
    const plan = { sectionSlug: input.sectionSlug, projectId: projectId!, mapping, mediaFolder: input.mediaFolder };
    const mediaZip = mediaZipOf(input.mediaZip);
    if (input.dryRun) {
      return { dryRun: true, mapping, result: await dryRunImport(prisma, principal, file, plan, { mediaZip }), jobId: null, jobUrl: null };
    }
    const { jobId, dryRun } = await startImport(prisma, principal, file, plan, { mediaZip });
    return { dryRun: false, mapping, result: dryRun, jobId, jobUrl: `${origin}/api/v1/imports/${jobId}` };
  },
});
