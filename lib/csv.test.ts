import { describe, expect, it } from "vitest";
import { csvCell, csvLine, neutraliseFormula } from "./csv";

describe("formula-safe CSV cells", () => {
  it("neutralises every formula prefix with an apostrophe and leaves other text alone", () => {
    for (const cell of ["=1+1", "+33", "-2", "@SUM(A1)", "\tx", "\rx"]) expect(neutraliseFormula(cell)).toBe(`'${cell}`);
    for (const cell of ["plain", "1-2", "a=b", "'quoted", ""]) expect(neutraliseFormula(cell)).toBe(cell);
  });

  it("quotes cells with commas, quotes or line breaks (RFC 4180)", () => {
    expect(csvCell('He said "hi", twice')).toBe('"He said ""hi"", twice"');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
  });

  it("ends a line with CRLF", () => {
    expect(csvLine(["a", "b,c", "=1"])).toBe(`a,"b,c",'=1\r\n`);
  });
});
