import type { ImportProblem } from "./types";

/**
 * A cell a spreadsheet would run as a formula (=, +, -, @, or a leading tab or carriage return)
 * gets a leading apostrophe, so opening an export never executes what an imported file held.
 */
export function neutraliseFormula(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}

/** One CSV cell: formula-safe, quoted when it holds a delimiter, quote or line break (RFC 4180). */
export function csvCell(value: string): string {
  const safe = neutraliseFormula(value);
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The problems of a dry run or job as a CSV download: row,column,field,message (CRLF lines). */
export function problemsCsv(problems: readonly ImportProblem[]): string {
  const lines = [["row", "column", "field", "message"].join(",")];
  for (const problem of problems) {
    lines.push([String(problem.row), problem.column ?? "", problem.field ?? "", problem.message].map(csvCell).join(","));
  }
  return `${lines.join("\r\n")}\r\n`;
}
