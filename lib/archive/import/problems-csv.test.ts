import { describe, expect, it } from "vitest";
import { parseCsv } from "./parse-import-file";
import { problemsCsv } from "./problems-csv";

describe("problems as CSV", () => {
  it("writes row, column, field and message, and reads back as the same table", () => {
    const csv = problemsCsv([
      { row: 3, column: "Kind", field: "kind", message: "Kind must be one of: letter (not “=cmd|' /C calc'!A0”)" },
      { row: 0, message: '-the file, "whole"' },
    ]);
    expect(csv.endsWith("\r\n")).toBe(true);
    const table = parseCsv(csv);
    expect(table.columns).toEqual(["row", "column", "field", "message"]);
    expect(table.rows).toEqual([
      ["3", "Kind", "kind", "Kind must be one of: letter (not “=cmd|' /C calc'!A0”)"],
      ["0", "", "", `'-the file, "whole"`],
    ]);
    expect(table.rows.flat().some((cell) => /^[=+\-@]/.test(cell))).toBe(false);
  });
});
