import { describe, expect, it } from "vitest";
import { mrrAt, ndcgAt, recallAt } from "./retrieval-metrics";

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
});
