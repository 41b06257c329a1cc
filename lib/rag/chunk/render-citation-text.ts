import { turnPrefixLength } from "./classify-document-line";

/**
 * The citation text of a source span: turn markers dropped from the lines they start, spaces
 * and tabs collapsed, lines trimmed, line breaks kept and runs of blank lines kept as one, so
 * turns and paragraphs still read apart. Words are left exactly as written.
 */
export function renderCitationText(document: string, start: number, end: number): string {
  const lines: string[] = [];
  let blankBefore = false;
  document
    .slice(start, end)
    .split("\n")
    .forEach((line, index) => {
      const startsLine = index > 0 || start === 0 || document.charAt(start - 1) === "\n";
      const text = (startsLine ? line.slice(turnPrefixLength(line)) : line).replace(/\s+/g, " ").trim();
      if (text === "") {
        blankBefore = lines.length > 0;
        return;
      }
      if (blankBefore) lines.push("");
      lines.push(text);
      blankBefore = false;
    });
  return lines.join("\n");
}
