/**
 * Tesseract's TSV output (`tesseract <image> stdout tsv`) read into words with their boxes and
 * confidences, and the page's text rebuilt from its blocks, paragraphs and lines. Pure.
 */

/**
 * A recognised word: text, box in the page image's pixels, confidence 0–100, and the line it is
 * on (tesseract's block, paragraph and line, counted from 1 in reading order; absent on pages
 * read before it was kept). Short keys: a page's words are stored as JSON.
 */
export interface OcrWord {
  t: string;
  x: number;
  y: number;
  w: number;
  h: number;
  c: number;
  n?: number;
}

export interface OcrPage {
  /** Paragraphs separated by a blank line, lines by a line break. */
  text: string;
  words: OcrWord[];
  /** Mean word confidence (0–100); 0 for a page without words. */
  meanConfidence: number;
}

const columns = ["level", "page_num", "block_num", "par_num", "line_num", "word_num", "left", "top", "width", "height", "conf", "text"] as const;

export function parseTesseractTsv(tsv: string): OcrPage {
  const rows = tsv.replace(/\r\n?/g, "\n").split("\n");
  const header = rows[0]?.split("\t") ?? [];
  if (columns.some((name, index) => header[index] !== name)) throw new Error("tesseract's TSV output has an unexpected header");
  const words: OcrWord[] = [];
  const paragraphs: string[][][] = [];
  let paragraphKey = "";
  let lineKey = "";
  let lineNumber = 0;
  for (const row of rows.slice(1)) {
    const cells = row.split("\t");
    if (cells.length < columns.length || cells[0] !== "5") continue;
    // A word's text may itself hold a tab only in theory; keep whatever follows the 11th column.
    const text = cells.slice(11).join("\t").trim();
    const confidence = Number(cells[10]);
    if (!text || !Number.isFinite(confidence) || confidence < 0) continue;
    const [, page, block, paragraph, line] = cells;
    const thisParagraph = `${page}:${block}:${paragraph}`;
    const thisLine = `${thisParagraph}:${line}`;
    if (thisParagraph !== paragraphKey) {
      paragraphs.push([]);
      paragraphKey = thisParagraph;
      lineKey = "";
    }
    const lines = paragraphs.at(-1) ?? [];
    if (thisLine !== lineKey) {
      lines.push([]);
      lineKey = thisLine;
      lineNumber++;
    }
    lines.at(-1)?.push(text);
    words.push({
      t: text,
      x: Number(cells[6]),
      y: Number(cells[7]),
      w: Number(cells[8]),
      h: Number(cells[9]),
      c: Math.round(confidence * 10) / 10,
      n: lineNumber,
    });
  }
  const meanConfidence = words.length ? Math.round((words.reduce((sum, word) => sum + word.c, 0) / words.length) * 10) / 10 : 0;
  return { text: joinHyphenated(paragraphs.map((lines) => lines.map((line) => line.join(" ")).join("\n")).join("\n\n")), words, meanConfidence };
}

/** A word broken at a line's end ("arxi-\nus") is read as one word; the line break goes. */
function joinHyphenated(text: string): string {
  return text.replace(/(\p{L})-\n(\p{Ll})/gu, "$1$2");
}
