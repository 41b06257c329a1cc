import { describe, expect, it } from "vitest";
import { verifyResearchAnswer } from "./research-answer";

const sources = [
  { number: 1, text: "Lighthouse keeper's diary\nThe lighthouse lamp burned whale oil until 1902." },
  { number: 2, text: "Mill ledger\nThe mill wheel stopped in the flood of 1962." },
  { number: 3, text: "Harbour log\nThe harbour crane lifted boats." },
];

describe("verifying a research answer", () => {
  it("removes a sentence whose citations are all unsupported, reports them, and renumbers the rest", () => {
    const verified = verifyResearchAnswer(
      'The wheel "stopped in the flood of 1962" [2]. The lamp was "painted bright purple" [1]. The crane "lifted boats" [3][7]. The keeper was kind.',
      sources,
    );
    expect(verified.text).toBe('The wheel "stopped in the flood of 1962" [1]. The crane "lifted boats" [2]. The keeper was kind.');
    expect(verified.order).toEqual([2, 3]);
    expect(verified.dropped).toEqual([
      { number: 1, reason: "quote_not_found", quote: "painted bright purple" },
      { number: 7, reason: "unknown_source" },
    ]);
  });

  it("keeps an answer that cites nothing, and removes a first sentence cleanly", () => {
    expect(verifyResearchAnswer("The records do not answer this.", sources)).toEqual({ text: "The records do not answer this.", order: [], dropped: [] });
    expect(verifyResearchAnswer('Made up [9]. The lamp "burned whale oil" [1].', sources).text).toBe('The lamp "burned whale oil" [1].');
  });
});
