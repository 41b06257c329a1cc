import type { TranscriptTurn } from "../../archive/field-definitions";
import { withoutTranslationNotes } from "../../llm/translation-note";
import { withoutPreface } from "./answer-preface";
import { citationMarkerPattern } from "../../llm/citation-markers";
import { normaliseForMatch, quotationsIn } from "./verify-citations";

/**
 * A passage of a transcript spans several turns; a citation that quotes one sentence should
 * open the recording where that sentence is said. These helpers find, for each citation, the
 * quotation the answer attributes to it and the turn of the record's transcript that contains
 * it, within the passage's time span. Pure.
 */
export function quotesByCitation(answer: string, options: { segmentsAreQuotes: boolean }): Map<number, string[]> {
  const quotes = new Map<number, string[]>();
  let segmentStart = 0;
  for (const match of answer.matchAll(citationMarkerPattern)) {
    const segment = withoutTranslationNotes(withoutPreface(answer.slice(segmentStart, match.index)));
    segmentStart = match.index + match[0].length;
    const found = options.segmentsAreQuotes ? [segment.trim()].filter(Boolean) : quotationsIn(segment);
    for (const raw of match[1]!.split(",")) {
      const number = Number(raw.trim());
      quotes.set(number, [...(quotes.get(number) ?? []), ...found]);
    }
  }
  return quotes;
}

/** The first turn within [from − 1, to + 1] seconds whose words contain the quotation. */
export function turnForQuote(quote: string, turns: readonly TranscriptTurn[], from: number, to: number): TranscriptTurn | undefined {
  const wanted = normaliseForMatch(quote);
  if (!wanted) return undefined;
  return turns.find((turn) => {
    if (turn.end < from - 1 || turn.start > to + 1) return false;
    const said = normaliseForMatch(turn.text);
    const withSpeaker = normaliseForMatch(`${turn.speaker}: ${turn.text}`);
    return said.includes(wanted) || withSpeaker.includes(wanted);
  });
}
