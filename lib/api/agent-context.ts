import { type ApiCitation, citationLine } from "./api-schemas";

/** Passages as one block of numbered sources, cut to a character budget. */
export function formatAgentContext(
  passages: readonly { citation: ApiCitation; text: string; translation: string | null }[],
  maxChars: number,
): { context: string; citations: ApiCitation[]; truncated: boolean; omitted: number } {
  const blocks: string[] = [];
  const citations: ApiCitation[] = [];
  let used = 0;
  let truncated = false;
  for (const [index, passage] of passages.entries()) {
    const separator = blocks.length > 0 ? 2 : 0;
    const header = citationLine(passage.citation);
    const body = passage.translation ? `${passage.text}\n(English, machine translation: ${passage.translation})` : passage.text;
    const block = `${header}\n${body}`;
    const room = maxChars - used - separator;
    if (block.length <= room) {
      blocks.push(block);
      citations.push(passage.citation);
      used += separator + block.length;
      continue;
    }
    // The passage that does not fit is cut at a word boundary if a useful part of it fits.
    const bodyRoom = room - header.length - 2;
    if (bodyRoom >= 120) {
      const cut = body.slice(0, bodyRoom);
      const boundary = cut.search(/\s\S*$/);
      blocks.push(`${header}\n${(boundary > bodyRoom / 2 ? cut.slice(0, boundary) : cut).trimEnd()}…`);
      citations.push(passage.citation);
      truncated = true;
      return { context: blocks.join("\n\n"), citations, truncated, omitted: passages.length - index - 1 };
    }
    return { context: blocks.join("\n\n"), citations, truncated, omitted: passages.length - index };
  }
  return { context: blocks.join("\n\n"), citations, truncated, omitted: 0 };
}
