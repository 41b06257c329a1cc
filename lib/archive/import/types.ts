/**
 * The shapes of a bulk import, shared by the service, the CLI, the /import page and the API
 * (the contract in lib/archive/import/index.ts).
 */
/** The table's source: EAD3 and EAC-CPF are XML files told apart by their root element. */
export type ImportFormat = "csv" | "json" | "jsonl" | "ead3" | "eac-cpf";

/** An uploaded file: the format comes from the extension, or is sniffed from the first byte (and an XML file's root). */
export interface ImportFile {
  fileName: string;
  bytes: Uint8Array;
}

/**
 * Column → field key (null: the column is ignored on purpose). Every column of the file must be
 * named, so a misspelt header never silently drops a column. A daterange may come from two
 * columns mapped to `<key>.from` and `<key>.to`.
 */
export interface ImportMapping {
  externalIdColumn?: string;
  columns: Record<string, string | null>;
}

export interface ImportPlan {
  sectionSlug: string;
  projectId: string;
  mapping: ImportMapping;
  /** A folder under MNEMO_IMPORT_MEDIA_ROOT holding the files image/media cells name (admins only). */
  mediaFolder?: string;
}

export interface ImportProblem {
  /** 1-based data row (the header is not counted); 0 = the file as a whole. */
  row: number;
  column?: string;
  field?: string;
  message: string;
}

export interface ImportPreview {
  format: ImportFormat;
  columns: string[];
  /** The first 10 data rows. */
  rows: string[][];
  rowCount: number;
  suggestedMapping: ImportMapping;
  problems: ImportProblem[];
  /** Columns the suggestion ignores because they match no field (shown beside the mapping). */
  ignoredColumns: string[];
}

export interface DryRunResult {
  rows: number;
  valid: number;
  creates: number;
  updates: number;
  /** Rows whose external id names a record that already holds exactly these values. */
  unchanged: number;
  problems: ImportProblem[];
}

export type ImportJobStatus = "queued" | "running" | "done" | "failed";

export interface ImportJobView {
  id: string;
  status: ImportJobStatus;
  sectionSlug: string;
  projectId: string;
  fileName: string;
  total: number;
  processed: number;
  created: number;
  updated: number;
  unchanged: number;
  skipped: number;
  problems: ImportProblem[];
  createdAt: string;
  finishedAt: string | null;
  error: string | null;
}

/** The parsed table: header and data rows, every cell a string. */
export interface ParsedTable {
  format: ImportFormat;
  columns: string[];
  rows: string[][];
  /** The line each data row starts on in the file (CSV, JSON Lines, an EAD3 component, an EAC-CPF description), for messages. */
  lines: number[];
}
