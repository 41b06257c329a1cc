import { describe, expect, it } from "vitest";
import { resolveRunForViewer, storedRunRecordIds } from "./golden-run-results";

describe("a stored golden run shown to a viewer", () => {
  const stored = [
    { question: "nets", judged: ["open-a", "sealed-a"], ranked: ["sealed-a", "sealed-b", "open-a", "open-x"] },
    { question: "ledgers", judged: ["sealed-c"], ranked: ["sealed-c", "open-x"] },
  ];

  it("ranks, measures and names only the records the viewer can read", () => {
    const shown = resolveRunForViewer(
      stored,
      new Map([
        ["open-a", "Net menders"],
        ["open-x", "Harbour"],
      ]),
    );
    expect(shown.results[0]).toEqual({
      question: "nets",
      recall: 1,
      ndcg: 1,
      reciprocalRank: 1,
      found: [{ recordId: "open-a", title: "Net menders", rank: 1 }],
      missed: [],
      unreadableExpected: true,
    });
    // Nothing left to measure: no figures, and the question is not counted.
    expect(shown.results[1]).toEqual({ question: "ledgers", recall: null, ndcg: null, reciprocalRank: null, found: [], missed: [], unreadableExpected: true });
    expect(shown.metrics).toEqual({ questions: 1, recallAtK: 1, ndcg10: 1, mrr10: 1 });
    expect(JSON.stringify(shown)).not.toMatch(/sealed/);
  });

  it("is the runner's own view when the viewer reads everything", () => {
    const everything = new Map(storedRunRecordIds(stored).map((id) => [id, id.toUpperCase()]));
    const shown = resolveRunForViewer(stored, everything);
    expect(shown.results[0]?.found).toEqual([
      { recordId: "sealed-a", title: "SEALED-A", rank: 1 },
      { recordId: "open-a", title: "OPEN-A", rank: 3 },
    ]);
    expect(shown.results.every((result) => !result.unreadableExpected)).toBe(true);
    expect(shown.metrics.questions).toBe(2);
  });
});
