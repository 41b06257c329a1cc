import { describe, expect, it } from "vitest";
import { distributionOf } from "./ask-thresholds";

describe("distributionOf", () => {
  it("bins relevant and irrelevant similarities and suggests the threshold that separates them best", () => {
    const scores = [
      ...[0.62, 0.58, 0.55, 0.41].map((similarity) => ({ similarity, relevant: true })),
      ...[0.12, 0.18, 0.22, 0.31, 0.38, 0.44].map((similarity) => ({ similarity, relevant: false })),
    ];
    const result = distributionOf(scores);
    expect(result.relevant.reduce((sum, count) => sum + count, 0)).toBe(4);
    expect(result.irrelevant.reduce((sum, count) => sum + count, 0)).toBe(6);
    // 0.55 and 0.58 share the bin starting at 0.55.
    expect(result.relevant[result.bins.indexOf(0.55)]).toBe(2);
    // At 0.40: every relevant passage kept (4/4), one irrelevant (0.44) of six.
    const at40 = result.thresholds.find((threshold) => threshold.at === 0.4);
    expect(at40).toEqual({ at: 0.4, relevantKept: 1, irrelevantKept: 1 / 6 });
    expect(result.suggested).toBe(0.4);
  });

  it("clamps out-of-range scores into the end bins and suggests nothing without both kinds", () => {
    const result = distributionOf([
      { similarity: -0.9, relevant: false },
      { similarity: 1, relevant: false },
    ]);
    expect(result.irrelevant[0]).toBe(1);
    expect(result.irrelevant.at(-1)).toBe(1);
    expect(result.suggested).toBeNull();
  });
});
