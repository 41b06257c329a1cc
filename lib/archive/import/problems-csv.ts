import { csvLine } from "../../csv";
import type { ImportProblem } from "./types";

/** The problems of a dry run or job as a CSV download: row,column,field,message (CRLF lines). */
export function problemsCsv(problems: readonly ImportProblem[]): string {
  const lines = [csvLine(["row", "column", "field", "message"])];
  for (const problem of problems) lines.push(csvLine([String(problem.row), problem.column ?? "", problem.field ?? "", problem.message]));
  return lines.join("");
}
