import { describe, expect, it } from "vitest";
import { aggregateDates, voteCategorical, weightedQuantile } from "./characterise-math";

describe("voteCategorical", () => {
  it("picks the value with the most similarity weight, not the most voters", () => {
    const proposal = voteCategorical([
      { value: "denarius", weight: 0.9 },
      { value: "as", weight: 0.3 },
      { value: "as", weight: 0.3 },
      { value: "denarius", weight: 0.5 },
      { value: "as", weight: 0.2 },
    ]);
    expect(proposal?.value).toBe("denarius");
    expect(proposal?.confidence).toBeCloseTo(1.4 / 2.2, 10);
    expect(proposal?.votes.map((vote) => [vote.value, vote.voters])).toEqual([
      ["denarius", 2],
      ["as", 3],
    ]);
    expect(proposal?.votes.reduce((sum, vote) => sum + vote.share, 0)).toBeCloseTo(1, 10);
  });

  it("ignores neighbours without a value or without weight, and folds case and spaces", () => {
    const proposal = voteCategorical([
      { value: "Bronze", weight: 0.4 },
      { value: " bronze ", weight: 0.4 },
      { value: null, weight: 0.9 },
      { value: "", weight: 0.9 },
      { value: "silver", weight: 0 },
      { value: "silver", weight: -0.5 },
    ]);
    expect(proposal).toMatchObject({ value: "Bronze", confidence: 1, voters: 2 });
  });

  it("proposes nothing when no neighbour has a value", () => {
    expect(voteCategorical([])).toBeNull();
    expect(voteCategorical([{ value: undefined, weight: 1 }])).toBeNull();
  });

  it("breaks an exact tie by voters, then alphabetically, so the result is stable", () => {
    expect(
      voteCategorical([
        { value: "b", weight: 0.5 },
        { value: "a", weight: 0.5 },
      ])?.value,
    ).toBe("a");
    expect(
      voteCategorical([
        { value: "b", weight: 0.25 },
        { value: "b", weight: 0.25 },
        { value: "a", weight: 0.5 },
      ])?.value,
    ).toBe("b");
  });
});

describe("weightedQuantile", () => {
  it("is the plain median with equal weights and moves toward heavy values", () => {
    const equal = [1, 2, 3, 4, 5].map((value) => ({ value, weight: 1 }));
    expect(weightedQuantile(equal, 0.5)).toBe(3);
    expect(weightedQuantile([...equal.slice(0, 4), { value: 5, weight: 10 }], 0.5)).toBe(5);
    expect(weightedQuantile(equal, 0)).toBe(1);
    expect(weightedQuantile(equal, 1)).toBe(5);
  });

  it("refuses an empty list", () => {
    expect(() => weightedQuantile([], 0.5)).toThrow(RangeError);
  });
});

describe("aggregateDates", () => {
  it("gives a range around a weighted central estimate, with the weight that agrees as confidence", () => {
    const proposal = aggregateDates([
      { from: -211, to: -200, weight: 0.9 },
      { from: -206, to: -195, weight: 0.8 },
      { from: -150, to: -100, weight: 0.3 },
      { from: 300, to: 320, weight: 0.05 },
    ]);
    expect(proposal).not.toBeNull();
    // Midpoints -205.5 (0.9), -200.5 (0.8), -125 (0.3), 310 (0.05); half the weight (1.025) is
    // reached at -200.5, rounded to a year.
    expect(proposal?.central).toBe(-200);
    expect(proposal?.earliest).toBe(-211);
    // The upper 10% of the weight lies in the last two neighbours' ranges: 2.05 × 0.9 = 1.845 is reached at -100.
    expect(proposal?.latest).toBe(-100);
    // Ranges containing -200: the first two (0.9 + 0.8) of 2.05.
    expect(proposal?.confidence).toBeCloseTo(1.7 / 2.05, 10);
    expect(proposal?.voters).toBe(4);
  });

  it("accepts reversed ranges and a single neighbour", () => {
    expect(aggregateDates([{ from: 1500, to: 1400, weight: 1 }])).toEqual({ earliest: 1400, latest: 1500, central: 1450, confidence: 1, voters: 1 });
  });

  it("proposes nothing without dated, weighted neighbours", () => {
    expect(aggregateDates([])).toBeNull();
    expect(aggregateDates([{ from: 1, to: 2, weight: 0 }])).toBeNull();
  });
});
