import { describe, expect, it } from "vitest";
import { parsePdfImagesList, parsePdfPageCount } from "./page-images";

describe("pdfimages and pdfinfo output", () => {
  it("lists each page's images with their type and size", () => {
    const listing = [
      "page   num  type   width height color comp bpc  enc interp  object ID x-ppi y-ppi size ratio",
      "--------------------------------------------------------------------------------------------",
      "   1     0 image    2480  3508  gray    1   8  jpeg   no         4  0   300   300  512K 6.0%",
      "   1     1 smask    2480  3508  gray    1   8  image  no         5  0   300   300  1K 0.0%",
      "   3     2 image     800   600  rgb     3   8  image  no        12  0    96    96  40K 2.8%",
    ].join("\n");
    expect(parsePdfImagesList(listing)).toEqual([
      { page: 1, number: 0, type: "image", width: 2480, height: 3508 },
      { page: 1, number: 1, type: "smask", width: 2480, height: 3508 },
      { page: 3, number: 2, type: "image", width: 800, height: 600 },
    ]);
  });

  it("reads the page count, or says the PDF may be damaged", () => {
    expect(parsePdfPageCount("Producer:  x\nPages:           12\nEncrypted:  no\n")).toBe(12);
    expect(() => parsePdfPageCount("Syntax Error: Couldn't find trailer dictionary")).toThrow(/damaged/);
  });
});
