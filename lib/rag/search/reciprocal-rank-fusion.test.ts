import { describe, expect, it } from "vitest";
import { reciprocalRankFusion } from "./reciprocal-rank-fusion";

describe("reciprocalRankFusion", () => {
  it("ranks an item found by both legs above items found by one", () => {
    const fused = reciprocalRankFusion([
      { leg: "meaning", ids: ["a", "b", "c"] },
      { leg: "words", ids: ["d", "c", "e"] },
    ]);
    expect(fused[0]).toEqual({ id: "c", score: 1 / 63 + 1 / 62, ranks: { meaning: 3, words: 2 } });
    expect(fused.map((item) => item.id)).toEqual(["c", "a", "d", "b", "e"]);
  });

  it("uses k to flatten or sharpen the ranks", () => {
    const lists = [
      { leg: "meaning", ids: ["a", "b"] },
      { leg: "words", ids: ["b", "x"] },
    ];
    expect(reciprocalRankFusion(lists, 0)[0]?.id).toBe("b");
    expect(reciprocalRankFusion(lists, 1000)[0]?.id).toBe("b");
    expect(reciprocalRankFusion([{ leg: "meaning", ids: ["a", "b"] }], 0).map((item) => item.score)).toEqual([1, 0.5]);
  });

  it("counts a repeated id once per leg and is deterministic on ties", () => {
    const fused = reciprocalRankFusion([
      { leg: "meaning", ids: ["a", "a", "b"] },
      { leg: "words", ids: ["b", "a"] },
    ]);
    expect(fused.map((item) => [item.id, item.ranks])).toEqual([
      ["a", { meaning: 1, words: 2 }],
      ["b", { meaning: 2, words: 1 }],
    ]);
    expect(() => reciprocalRankFusion([], -1)).toThrow(RangeError);
    expect(reciprocalRankFusion([])).toEqual([]);
  });

  it("breaks a tie by the order the lists gave, never by id (ids differ from one index build to the next)", () => {
    // "z" and "a" tie on score, legs and best rank: the first list's item comes first.
    expect(
      reciprocalRankFusion([
        { leg: "meaning", ids: ["z"] },
        { leg: "words", ids: ["a"] },
      ]).map((item) => item.id),
    ).toEqual(["z", "a"]);
    expect(
      reciprocalRankFusion([
        { leg: "meaning", ids: ["a"] },
        { leg: "words", ids: ["z"] },
      ]).map((item) => item.id),
    ).toEqual(["a", "z"]);
  });

  it("weights a leg's contributions: a half-weight context leg cannot outvote two image views", () => {
    const views = [
      { leg: "view:obverse", ids: ["both", "context-only", "one-face"] },
      { leg: "view:reverse", ids: ["both", "x", "y"] },
    ];
    const fused = reciprocalRankFusion([...views, { leg: "context", ids: ["context-only", "one-face", "both"], weight: 0.5 }], 0);
    expect(fused.map((item) => item.id).slice(0, 2)).toEqual(["both", "context-only"]);
    // both: 1 + 1 + 0.5/3; context-only: 1/2 + 0.5/1
    expect(fused[0]?.score).toBeCloseTo(2 + 0.5 / 3, 10);
    expect(fused[1]?.score).toBeCloseTo(1, 10);
    // At full weight the context leg counts like a view.
    expect(reciprocalRankFusion([{ leg: "context", ids: ["a"], weight: 1 }], 0)[0]?.score).toBe(1);
  });
});
