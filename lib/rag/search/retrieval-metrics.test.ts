import { describe, expect, it } from "vitest";
import { alignedRecallAt1, mrrAt, ndcgAt, recallAt } from "./retrieval-metrics";

const judged = new Map([
  ["a", 1],
  ["b", 1],
  ["z", 0],
]);

describe("retrieval metrics", () => {
  it("scores a perfect ranking 1 and an empty one 0", () => {
    expect(ndcgAt(["a", "b"], judged, 10)).toBe(1);
    expect(recallAt(["a", "b"], judged, 10)).toBe(1);
    expect(mrrAt(["a", "b"], judged, 10)).toBe(1);
    expect(ndcgAt(["x", "y"], judged, 10)).toBe(0);
    expect(mrrAt([], judged, 10)).toBe(0);
  });

  it("discounts by log2 of the rank and cuts at k", () => {
    // Relevant at ranks 2 and 4: (1/log2 3 + 1/log2 5) / (1 + 1/log2 3)
    expect(ndcgAt(["x", "a", "y", "b"], judged, 10)).toBeCloseTo((1 / Math.log2(3) + 1 / Math.log2(5)) / (1 + 1 / Math.log2(3)), 12);
    expect(recallAt(["x", "a", "y", "b"], judged, 3)).toBe(0.5);
    expect(mrrAt(["x", "z", "b"], judged, 10)).toBeCloseTo(1 / 3, 12);
    expect(mrrAt(["x", "z", "b"], judged, 2)).toBe(0);
  });

  describe("alignedRecallAt1", () => {
    it("counts a query answered only when its aligned (or an identical) item is first, split by parity", () => {
      const result = alignedRecallAt1(
        [
          ["es0", "es1"], // 0, even: hit
          ["es0", "es1"], // 1, odd: the aligned item second is a miss
          ["es3", "es2"], // 2, even: an item identical to es2 is accepted
          [], // 3, odd: nothing found
        ],
        [new Set(["es0"]), new Set(["es1"]), new Set(["es2", "es3"]), new Set(["es3"])],
      );
      expect(result).toEqual({ recall1: 0.5, even: 1, odd: 0, hits: 2, queries: 4 });
    });

    it("gives 0 for no queries and refuses rankings that do not line up with the accepted sets", () => {
      expect(alignedRecallAt1([], [])).toEqual({ recall1: 0, even: 0, odd: 0, hits: 0, queries: 0 });
      expect(() => alignedRecallAt1([["a"]], [])).toThrow(/1 rankings for 0/);
    });
  });
});
