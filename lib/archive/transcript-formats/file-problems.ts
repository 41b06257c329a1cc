import type { IndexSegment, TranscriptTurn } from "../field-definitions";

/** A mistake in an imported file, with the 1-based line it is on. */
export interface FileProblem {
  line: number;
  message: string;
}

/**
 * What every parser of a transcript file returns. A file with problems is refused as a whole by
 * its callers (the editor and transcriptFromFile): the turns found are returned only so a test
 * can see how far the parser got; nothing is filled in or saved while `problems` is not empty.
 */
export interface TranscriptFileResult {
  turns: TranscriptTurn[];
  segments: IndexSegment[];
  problems: FileProblem[];
}

/** Files larger than this are refused before they are parsed (the biggest OHMS exports are a few MB). */
export const maxTranscriptFileCharacters = 10_000_000;

/** Lines of a text file: a byte-order mark dropped, CRLF and CR read as line ends. */
export function fileLines(text: string): string[] {
  return text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
}

const namedEntities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
/** Characters HTML captions use besides XML's five (WebVTT defines these too). */
const captionEntities: Record<string, string> = { ...namedEntities, nbsp: "\u00A0", lrm: "\u200E", rlm: "\u200F" };

/**
 * Decodes `&name;` and numeric character references. Only the predefined names are known (XML's
 * five, and for captions nbsp/lrm/rlm): nothing is ever expanded from a declaration in the file.
 * An unknown name or an impossible code point is passed to `onUnknown` and kept as written.
 */
export function decodeEntities(text: string, options: { captions?: boolean; onUnknown?: (entity: string, offset: number) => void } = {}): string {
  const names = options.captions ? captionEntities : namedEntities;
  return text.replace(/&(#[xX][0-9a-fA-F]{1,6}|#\d{1,7}|[a-zA-Z][a-zA-Z0-9]{0,31});/g, (entity: string, body: string, offset: number) => {
    if (body.startsWith("#")) {
      const code = body[1] === "x" || body[1] === "X" ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
      if (code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff)) return String.fromCodePoint(code);
    } else {
      const named = names[body];
      if (named !== undefined) return named;
    }
    options.onUnknown?.(entity, offset);
    return entity;
  });
}

/** Whitespace runs (line breaks inside a cue too) become one space. */
export function collapseWhitespace(text: string): string {
  return text.replace(/[\s\u00A0]+/g, " ").trim();
}
