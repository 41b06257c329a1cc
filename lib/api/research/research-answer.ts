import { citationMarkerPattern } from "../../llm/citation-markers";
import { renumberCitations } from "../../rag/ask/number-citations";
import { type CitableSource, type DroppedCitation, verifyCitations } from "../../rag/ask/verify-citations";

/**
 * The research answer checked as ask's is (verify-citations.ts), one sentence at a time: a
 * citation whose source is unknown or does not hold the quotation is dropped and reported, and a
 * sentence whose every citation was dropped is removed — it claimed support it does not have.
 * Sentences that cite nothing stay as written. The citations left are renumbered [1], [2]… in
 * order of first citation, without gaps. Pure.
 */
export interface VerifiedResearchAnswer {
  text: string;
  /** Source numbers as given to the model, in display order: `order[0]` is shown as [1]. */
  order: number[];
  dropped: DroppedCitation[];
}

export function verifyResearchAnswer(answer: string, sources: readonly CitableSource[]): VerifiedResearchAnswer {
  const dropped: DroppedCitation[] = [];
  const kept: string[] = [];
  for (const part of answer.split(/(?<=[.!?])(\s+)/)) {
    if (part.trim() === "" || !new RegExp(citationMarkerPattern.source).test(part)) {
      kept.push(part);
      continue;
    }
    const verified = verifyCitations(part, [...sources]);
    dropped.push(...verified.dropped);
    if (verified.cited.length > 0) kept.push(verified.text);
    // A removed sentence takes the space before it along.
    else if (kept.length > 0 && kept.at(-1)!.trim() === "") kept.pop();
  }
  const joined = kept.join("").trim();
  const renumbered = renumberCitations(joined);
  return { text: renumbered.text, order: renumbered.order, dropped };
}
