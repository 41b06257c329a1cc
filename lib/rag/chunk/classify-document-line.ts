/**
 * The line syntax of a group document (see lib/rag/config): headings `#`…`######`, page markers
 * `[[page:N]]` on a line of their own, and transcript turns `[[turn:START-END]] Speaker: text`.
 */
export type DocumentLine =
  | { kind: "heading"; level: number; text: string }
  | { kind: "page"; page: number }
  | { kind: "turn"; start: number; end: number; prefixLength: number }
  | { kind: "blank" }
  | { kind: "text" };

const HEADING_PATTERN = /^(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const PAGE_PATTERN = /^[ \t]*\[\[page:(\d+)\]\][ \t]*$/;
const TURN_PREFIX_PATTERN = /^\[\[turn:(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)\]\][ \t]*/;
const TURN_LINE_ANYWHERE = new RegExp(TURN_PREFIX_PATTERN.source, "m");

/** `line` excludes its "\n"; a trailing "\r" is ignored. */
export function classifyDocumentLine(line: string): DocumentLine {
  const content = line.endsWith("\r") ? line.slice(0, -1) : line;
  const turn = TURN_PREFIX_PATTERN.exec(content);
  if (turn) return { kind: "turn", start: Number(turn[1]), end: Number(turn[2]), prefixLength: turn[0].length };
  const page = PAGE_PATTERN.exec(content);
  if (page) return { kind: "page", page: Number(page[1]) };
  const heading = HEADING_PATTERN.exec(content);
  if (heading?.[1]) return { kind: "heading", level: heading[1].length, text: (heading[2] ?? "").trim() };
  return content.trim() === "" ? { kind: "blank" } : { kind: "text" };
}

/** Length of the `[[turn:…]] ` prefix that starts `line`, 0 when it has none. */
export function turnPrefixLength(line: string): number {
  return TURN_PREFIX_PATTERN.exec(line)?.[0].length ?? 0;
}

export function containsTurnMarker(document: string): boolean {
  return TURN_LINE_ANYWHERE.test(document);
}
