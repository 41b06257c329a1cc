/**
 * Bulk import (issue 18): CSV, JSON arrays, JSON Lines, EAD3 finding aids and EAC-CPF records
 * (issue 47) into a section of a project, with a preview, a dry run that writes nothing, and
 * resumable jobs the worker runs in batches.
 * The one service behind the CLI (scripts/import.ts), the /import page and the JSON API.
 */
export type { DryRunResult, ImportFile, ImportFormat, ImportJobStatus, ImportJobView, ImportMapping, ImportPlan, ImportPreview, ImportProblem } from "./types";
export { dryRunImport, importPlanSchema, previewImport } from "./plan-import";
export { getImportJob, listImportJobs, runImportJobs, startImport, type RunImportJobsOptions } from "./import-jobs";
export { problemsCsv } from "./problems-csv";
export { suggestMapping } from "./suggest-mapping";
