import { describe, expect, it } from "vitest";
import { parseCsv } from "./parse-import-file";
import { csvCell, neutraliseFormula, problemsCsv } from "./problems-csv";

describe("problems as CSV", () => {
  it("neutralises every formula prefix with an apostrophe and leaves other text alone", () => {
    for (const cell of ["=1+1", "+33", "-2", "@SUM(A1)", "\tx", "\rx"]) expect(neutraliseFormula(cell)).toBe(`'${cell}`);
    for (const cell of ["plain", "1-2", "a=b", "'quoted", ""]) expect(neutraliseFormula(cell)).toBe(cell);
  });

  it("quotes cells with commas, quotes or line breaks (RFC 4180)", () => {
    expect(csvCell('He said "hi", twice')).toBe('"He said ""hi"", twice"');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
  });

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
