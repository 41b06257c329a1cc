import "server-only";
import { z } from "zod";
import { type Principal, assertAdmin, canEditProject } from "../../acl";
import { getConfig } from "../../config";
import type { PrismaClient } from "../../db/generated/client";
import { AppError, notFound, parseInput } from "../../errors";
import { getSectionBySlug, type SectionSummary } from "../sections";
import { checkRows, firstRowsOfExternalIds, type CheckContext, type CheckedRow } from "./check-rows";
import { resolveMapping } from "./convert-cells";
import { eventLoopPacer, turnBudgetMs, yieldToEventLoop } from "./event-loop";
import { folderMediaSource } from "./folder-media";
import { importMedia } from "./import-media";
import { parseImportFileInSteps } from "./parse-import-file";
import { suggestMapping } from "./suggest-mapping";
import type { ZipArchive } from "./read-zip";
import type { DryRunResult, ImportFile, ImportPlan, ImportPreview, ImportProblem, ParsedTable } from "./types";
import { type MediaZipLimits, readMediaZip, zipMediaSource } from "./zip-media";

const fileSchema = z.object({
  fileName: z.string().max(500, "The file name must be at most 500 characters."),
  bytes: z.instanceof(Uint8Array, { message: "The file is missing." }),
});

export const importPlanSchema = z.object({
  sectionSlug: z.string().min(1, "Choose a section.").max(200),
  projectId: z.string().min(1, "Choose a project.").max(200),
  mapping: z.object({
    externalIdColumn: z.string().max(500).optional(),
    columns: z.record(z.string().max(500), z.string().max(200).nullable()),
  }),
  mediaFolder: z.string().min(1).max(1000).optional(),
});

/**
 * Who may import: admins, and curators who may edit the target project. Anyone else — and a
 * project that does not exist — gets the same "not found". Naming a server media folder is
 * for admins only.
 */
export async function authorizeImport(prisma: PrismaClient, principal: Principal, plan: ImportPlan): Promise<SectionSummary> {
  if (!canEditProject(principal, plan.projectId)) throw notFound();
  const project = await prisma.project.findUnique({ where: { id: plan.projectId }, select: { id: true } });
  if (!project) throw notFound();
  if (plan.mediaFolder !== undefined) assertAdmin(principal);
  return getSectionBySlug(prisma, plan.sectionSlug);
}

/**
 * The file as a table, refused whole when it cannot be read. Parsed in steps that give the event
 * loop a turn now and then: a large file would otherwise hold the web process while it is read.
 */
export async function readImportFile(file: ImportFile): Promise<ParsedTable> {
  const parsed = parseInput(fileSchema, file, { fieldErrors: false });
  return parseImportFileInSteps(parsed, getConfig().MNEMO_IMPORT_MAX_BYTES, eventLoopPacer(turnBudgetMs));
}

/**
 * The first rows and a suggested mapping for a section. Only admins and curators who edit some
 * project may preview; the section is the one the mapping is suggested for.
 */
export async function previewImport(prisma: PrismaClient, principal: Principal, file: ImportFile, sectionSlug?: string): Promise<ImportPreview> {
  if (principal.role !== "admin" && !(principal.role === "curator" && principal.editableProjectIds.length > 0)) throw notFound();
  const table = await readImportFile(file);
  const section = sectionSlug ? await getSectionBySlug(prisma, sectionSlug) : null;
  const suggestedMapping = section ? suggestMapping(section.fields, table.columns, table.rows) : { columns: {} };
  const problems: ImportProblem[] = [];
  const ignoredColumns = table.columns.filter((column) => suggestedMapping.columns[column] === null);
  return {
    format: table.format,
    columns: table.columns,
    rows: table.rows.slice(0, 10),
    rowCount: table.rows.length,
    suggestedMapping,
    problems,
    ignoredColumns,
  };
}

/** Rows checked per round trip: bounds memory and the size of each lookup. */
const checkSliceSize = 500;

export interface CheckedImport {
  section: SectionSummary;
  table: ParsedTable;
  context: CheckContext;
}

/** What comes with the file besides the plan: a zip of the media files its cells name. */
export interface ImportAttachments {
  mediaZip?: ImportFile;
  /** Unset: mediaZipLimits (tests set smaller ones). */
  mediaZipLimits?: MediaZipLimits;
}

/**
 * Everything a dry run and a job need before touching rows: access (first, so a refused importer's
 * zip is never even read), the media zip read whole, the file, the mapping.
 */
export async function prepareImport(
  prisma: PrismaClient,
  principal: Principal,
  file: ImportFile,
  planInput: ImportPlan,
  attachments: ImportAttachments = {},
): Promise<CheckedImport> {
  const plan = parseInput(importPlanSchema, planInput) as ImportPlan;
  const section = await authorizeImport(prisma, principal, plan);
  if (attachments.mediaZip && plan.mediaFolder !== undefined) {
    throw new AppError("bad_request", "Name a media folder or attach a media zip, not both.", {
      fieldErrors: { mediaZip: ["Name a media folder or attach a media zip, not both."] },
    });
  }
  const mediaZip = attachments.mediaZip ? await readMediaZip(attachments.mediaZip, attachments.mediaZipLimits) : undefined;
  const table = await readImportFile(file);
  return { section, table, context: checkContext(prisma, principal, section, table, plan, { mediaZip }) };
}

/**
 * How rows are checked. `storeMedia` (the job) stores the files media cells name; `mediaZip` is
 * the uploaded zip they are looked up in when the plan names no server folder.
 */
export function checkContext(
  prisma: PrismaClient,
  principal: Principal,
  section: SectionSummary,
  table: ParsedTable,
  plan: ImportPlan,
  options: { storeMedia?: boolean; mediaZip?: ZipArchive } = {},
): CheckContext {
  const mapping = resolveMapping(section.fields, table.columns, plan.mapping);
  const usesMedia = [...mapping.fields.keys()].some((key) => {
    const type = section.fields.find((field) => field.key === key)?.type;
    return type === "image" || type === "media";
  });
  return {
    prisma,
    principal,
    section,
    projectId: plan.projectId,
    mapping,
    firstRowOfExternalId: firstRowsOfExternalIds(table.rows, mapping),
    media: !usesMedia
      ? undefined
      : plan.mediaFolder !== undefined
        ? importMedia(prisma, principal, plan.projectId, () => folderMediaSource(plan.mediaFolder as string), options)
        : options.mediaZip
          ? importMedia(prisma, principal, plan.projectId, async () => zipMediaSource(options.mediaZip as ZipArchive), options)
          : undefined,
  };
}

/** Checks every row; with `onChecked`, hands over the valid ones slice by slice. */
export async function checkAllRows(prepared: CheckedImport, onChecked?: (rows: CheckedRow[]) => void): Promise<DryRunResult> {
  const result: DryRunResult = { rows: prepared.table.rows.length, valid: 0, creates: 0, updates: 0, unchanged: 0, problems: [] };
  for (let offset = 0; offset < prepared.table.rows.length; offset += checkSliceSize) {
    const { checked, problems } = await checkRows(prepared.context, prepared.table.rows.slice(offset, offset + checkSliceSize), offset + 1);
    result.problems.push(...problems);
    result.valid += checked.length;
    for (const row of checked) {
      if (!row.existing) result.creates++;
      else if (row.unchanged) result.unchanged++;
      else result.updates++;
    }
    onChecked?.(checked);
    await yieldToEventLoop();
  }
  return result;
}

/** Every row validated as the real run will validate it; nothing is written. */
export async function dryRunImport(
  prisma: PrismaClient,
  principal: Principal,
  file: ImportFile,
  plan: ImportPlan,
  attachments: ImportAttachments = {},
): Promise<DryRunResult> {
  return checkAllRows(await prepareImport(prisma, principal, file, plan, attachments));
}
