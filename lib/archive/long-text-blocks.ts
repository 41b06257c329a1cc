/**
 * A longtext value's structure as the record page shows it: headings (# to ###), page markers
 * ([[page:N]]) and paragraphs. Shared by the page and by the English beside its paragraphs, so
 * the n-th translated paragraph is the n-th paragraph shown. Pure.
 */
export type LongTextBlock = { kind: "heading"; level: 1 | 2 | 3; text: string } | { kind: "page"; page: number } | { kind: "paragraph"; text: string };

const headingPattern = /^(#{1,3}) +(.+)$/;
const pagePattern = /^\[\[page:(\d{1,6})\]\]$/;

export function longTextBlocks(text: string): LongTextBlock[] {
  const blocks: LongTextBlock[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) blocks.push({ kind: "paragraph", text: paragraph.join("\n") });
    paragraph = [];
  };
  for (const rawLine of text.replace(/\r\n?/g, "\n").split("\n")) {
    const line = rawLine.trim();
    const heading = headingPattern.exec(line);
    const page = pagePattern.exec(line);
    if (heading) {
      flush();
      blocks.push({ kind: "heading", level: heading[1]!.length as 1 | 2 | 3, text: heading[2]!.trim() });
    } else if (page) {
      flush();
      blocks.push({ kind: "page", page: Number(page[1]) });
    } else if (!line) {
      flush();
    } else {
      paragraph.push(rawLine);
    }
  }
  flush();
  return blocks;
}

/** The texts of a longtext value's paragraphs, in order. */
export function longTextParagraphs(text: string): string[] {
  return longTextBlocks(text).flatMap((block) => (block.kind === "paragraph" ? [block.text] : []));
}
