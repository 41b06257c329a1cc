import { describe, expect, it } from "vitest";
import { ocrLines } from "./ocr-lines";
import { parseTesseractTsv } from "./tesseract-tsv";

const header = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext";
const word = (block: number, paragraph: number, line: number, number: number, box: [number, number, number, number], text: string) =>
  [5, 1, block, paragraph, line, number, ...box, 95, text].join("\t");

describe("ocrLines", () => {
  it("groups words by tesseract's block, paragraph and line into lines with the box around their words", () => {
    const page = parseTesseractTsv(
      [
        header,
        word(1, 1, 1, 1, [240, 250, 80, 40], "Dear"),
        word(1, 1, 1, 2, [340, 252, 220, 42], "Margaret,"),
        word(1, 2, 1, 1, [240, 330, 60, 38], "the"),
        word(1, 2, 1, 2, [310, 326, 90, 44], "nets"),
        word(1, 2, 2, 1, [240, 390, 120, 40], "mended."),
        // Same line number in another block: another line.
        word(2, 1, 1, 1, [1200, 250, 100, 40], "1962"),
        "",
      ].join("\n"),
    );
    expect(ocrLines(page.words)).toEqual([
      { text: "Dear Margaret,", x: 240, y: 250, w: 320, h: 44, words: [0, 1] },
      { text: "the nets", x: 240, y: 326, w: 160, h: 44, words: [2, 3] },
      { text: "mended.", x: 240, y: 390, w: 120, h: 40, words: [4] },
      { text: "1962", x: 1200, y: 250, w: 100, h: 40, words: [5] },
    ]);
  });

  it("splits words of pages read before lines were kept where the text goes back left or down, and has no lines for no words", () => {
    const old = [
      { t: "Dear", x: 240, y: 250, w: 80, h: 40, c: 95 },
      { t: "Margaret,", x: 340, y: 252, w: 220, h: 42, c: 95 },
      { t: "the", x: 240, y: 330, w: 60, h: 38, c: 95 },
      { t: "nets", x: 310, y: 326, w: 90, h: 44, c: 95 },
      // Further down and to the right (a date in the margin): a new line too.
      { t: "1962", x: 1200, y: 600, w: 100, h: 40, c: 95 },
    ];
    expect(ocrLines(old).map((line) => line.text)).toEqual(["Dear Margaret,", "the nets", "1962"]);
    expect(ocrLines([])).toEqual([]);
  });
});
