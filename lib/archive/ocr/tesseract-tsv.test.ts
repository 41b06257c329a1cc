import { describe, expect, it } from "vitest";
import { parseTesseractTsv } from "./tesseract-tsv";

const header = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext";
const row = (level: number, block: number, paragraph: number, line: number, word: number, box: number[], conf: number, text = "") =>
  [level, 1, block, paragraph, line, word, ...box, conf, text].join("\t");

describe("parseTesseractTsv", () => {
  it("reads words with boxes and confidences, lines and paragraphs into text", () => {
    const tsv = [
      header,
      row(1, 0, 0, 0, 0, [0, 0, 2480, 3508], -1),
      row(2, 1, 0, 0, 0, [240, 250, 1900, 200], -1),
      row(4, 1, 1, 1, 0, [240, 250, 1900, 40], -1),
      row(5, 1, 1, 1, 1, [240, 250, 80, 40], 96.883095, "La"),
      row(5, 1, 1, 1, 2, [340, 250, 220, 42], 90.1, "memòria"),
      row(5, 1, 1, 2, 1, [240, 310, 150, 40], 88, "de"),
      row(5, 1, 1, 2, 2, [400, 310, 50, 40], 95, "la"),
      row(5, 1, 1, 2, 3, [460, 310, 50, 40], 95, "arxi-"),
      row(5, 1, 1, 3, 1, [240, 370, 50, 40], 95, "us"),
      row(5, 1, 2, 1, 1, [240, 450, 120, 40], 70, "Barcelona."),
      row(5, 2, 1, 1, 1, [240, 600, 40, 40], 91, " "),
      row(5, 2, 1, 1, 2, [240, 600, 40, 40], -1, "ignored"),
      "",
    ].join("\n");
    const page = parseTesseractTsv(tsv);
    expect(page.text).toBe("La memòria\nde la arxius\n\nBarcelona.");
    expect(page.words.map((word) => word.t)).toEqual(["La", "memòria", "de", "la", "arxi-", "us", "Barcelona."]);
    expect(page.words[0]).toEqual({ t: "La", x: 240, y: 250, w: 80, h: 40, c: 96.9, n: 1 });
    // Each word's line: a new one at each of tesseract's lines, and at each paragraph and block.
    expect(page.words.map((word) => word.n)).toEqual([1, 1, 2, 2, 2, 3, 4]);
    expect(page.meanConfidence).toBeCloseTo((96.9 + 90.1 + 88 + 95 + 95 + 95 + 70) / 7, 1);
  });

  it("gives an empty page for a blank image and refuses output that is not tesseract's TSV", () => {
    expect(parseTesseractTsv(`${header}\n${row(1, 0, 0, 0, 0, [0, 0, 10, 10], -1)}\n`)).toEqual({ text: "", words: [], meanConfidence: 0 });
    expect(() => parseTesseractTsv("Error opening data file\n")).toThrow(/unexpected header/);
  });
});
