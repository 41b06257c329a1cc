import { joinLines, lineGlues } from "./unwrap-lines";
import { foldAccents } from "../../language/fold-accents";
import { withoutTranslationNotes } from "../../llm/translation-note";
import { withoutPreface } from "./answer-preface";
import { citationMarkerPattern, literalBrackets } from "../../llm/citation-markers";

/**
 * Checks an answer's citations against the sources it was given: every [n] must name a given
 * source, and a quotation in the cited sentence must occur in that source. Unsupported
 * citations are removed from the text and reported, so the reader never sees a reference the
 * server could not verify. A machine translation note beside a quotation is no quotation: it is
 * left out of what a marker vouches for. Only markers the system issued count: a source's own
 * bracketed numbers reach the answer literal ("［3］"), and a marker inside a quotation that a
 * source holds, number and all ("as shown in [3] the bells fell"), is that source's text copied
 * by a model, so it is made literal too rather than taken as a citation. Pure.
 */
export interface CitableSource {
  number: number;
  text: string;
}

export interface DroppedCitation {
  number: number;
  reason: "unknown_source" | "quote_not_found";
  /** The quotation that was not found, when that was the reason. */
  quote?: string;
}

export interface VerifiedAnswer {
  /** The answer with unsupported markers removed. */
  text: string;
  /** Verified source numbers, in order of first citation. */
  cited: number[];
  dropped: DroppedCitation[];
}

export function normaliseForMatch(text: string): string {
  return foldAccents(text)
    .toLowerCase()
    .replace(/[‘’]/g, "'")
    .replace(/[^\p{L}\p{N}']+/gu, " ")
    .trim();
}

const quotePattern = /[“"«]([^“”"«»]{3,}?)[”"»]/g;

/** Quotations of at least three words in a stretch of answer text. */
export function quotationsIn(text: string): string[] {
  return [...text.matchAll(quotePattern)].map((match) => match[1]!.trim()).filter((quote) => quote.split(/\s+/).length >= 3);
}

/** Markers inside a quotation that some source holds with those numbers are the source's own: literal. */
function literalQuotedMarkers(answer: string, sourceTexts: readonly string[]): string {
  return answer.replace(quotePattern, (quotation, inner: string) => {
    if (literalBrackets(inner) === inner) return quotation;
    const quoted = normaliseForMatch(inner);
    return sourceTexts.some((text) => text.includes(quoted)) ? literalBrackets(quotation) : quotation;
  });
}

/**
 * A hard-wrapped source's words as the answerer reads them (unwrap-lines.ts): a word hyphenated at
 * a line's end ("campa-" / "nes") is one word, a Catalan pronoun keeps its hyphen ("despenjar-" /
 * "se"). The source as written, that reading and the one joining every such hyphen are all
 * searched, so a quotation matches whichever the answerer (or a model) took.
 */
const lineEndHyphen = /(?<=\p{L})[-\u00ad][ \t]*\n\s*(?=\p{Ll})/gu;
const sourceReadings = (text: string) => {
  if (!text.match(lineEndHyphen)) return normaliseForMatch(text);
  const readings = [text, joinLines(text, lineGlues(text)).join("\n"), text.replace(lineEndHyphen, "")];
  return readings.map(normaliseForMatch).join("\n");
};

export function verifyCitations(given: string, sources: CitableSource[], options: { segmentsAreQuotes?: boolean } = {}): VerifiedAnswer {
  const byNumber = new Map(sources.map((source) => [source.number, sourceReadings(source.text)]));
  // The extractive answerer writes every marker itself, its quotations' own already literal.
  const answer = options.segmentsAreQuotes ? given : literalQuotedMarkers(given, [...byNumber.values()]);
  const cited: number[] = [];
  const dropped: DroppedCitation[] = [];
  let output = "";
  let last = 0;
  let segmentStart = 0;
  for (const match of answer.matchAll(citationMarkerPattern)) {
    const start = match.index;
    const end = start + match[0].length;
    const before = answer.slice(last, start);
    output += before;
    // The text this marker vouches for: back to the previous marker or sentence end.
    const segment = withoutTranslationNotes(withoutPreface(answer.slice(segmentStart, start)));
    const quotes = options.segmentsAreQuotes
      ? [segment.replace(/^\s+|\s+$/g, "")].filter(Boolean)
      : quotationsIn(segment.split(/(?<=[.!?])\s+(?=\S)/).pop() ?? segment);
    const kept: number[] = [];
    for (const raw of match[1]!.split(",")) {
      const number = Number(raw.trim());
      const source = byNumber.get(number);
      if (source === undefined) {
        dropped.push({ number, reason: "unknown_source" });
        continue;
      }
      const missing = quotes.find((quote) => !source.includes(normaliseForMatch(quote)));
      if (missing !== undefined) {
        dropped.push({ number, reason: "quote_not_found", quote: missing.slice(0, 200) });
        continue;
      }
      kept.push(number);
      if (!cited.includes(number)) cited.push(number);
    }
    if (kept.length > 0) output += `[${kept.join(", ")}]`;
    else output = output.replace(/[ \t]+$/, "");
    last = end;
    segmentStart = end;
  }
  output += answer.slice(last);
  return { text: output, cited, dropped };
}
