/**
 * An answer cites its sources with markers, [n] or [n, m]. A record's own text may hold the same
 * shape — a footnote "[1]", a reference "[12]", an editor's numbering — and such a number must
 * never be read, parsed or shown as one of the system's citations. Wherever source text enters
 * an answer or a prompt, its markers are written with fullwidth brackets, "［1］": to a scholar
 * still the bracketed number the source prints (the quotation stays faithful, and its words and
 * digits still match the source), to every parser and to the ask panel plain text, never a link.
 * Pure, for the server and the browser alike.
 */
export const citationMarkerPattern = /\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g;

/** A source's own bracketed number as `literalBrackets` writes it. */
export const literalMarkerPattern = /［\d{1,3}(?:\s*,\s*\d{1,3})*］/g;

/** Source text with every span a parser would take for a citation marker made literal: "[1]" → "［1］". */
export function literalBrackets(text: string): string {
  return text.replace(citationMarkerPattern, "［$1］");
}

/** Text split into plain runs and a source's literal bracketed numbers, in order (for display). */
export function splitLiteralMarkers(text: string): { text: string; literal: boolean }[] {
  return text
    .split(new RegExp(`(${literalMarkerPattern.source})`, "g"))
    .filter(Boolean)
    .map((part) => ({ text: part, literal: new RegExp(`^${literalMarkerPattern.source}$`).test(part) }));
}

/** Text split into plain runs and citation markers with their numbers, in order (for display). */
export function splitCitationMarkers(text: string): { text: string; numbers: number[] | null }[] {
  const parts: { text: string; numbers: number[] | null }[] = [];
  let last = 0;
  for (const match of text.matchAll(citationMarkerPattern)) {
    if (match.index > last) parts.push({ text: text.slice(last, match.index), numbers: null });
    parts.push({ text: match[0], numbers: match[1]!.split(",").map((number) => Number(number.trim())) });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), numbers: null });
  return parts;
}
