import { describe, expect, it } from "vitest";
import { scoreFusion } from "./score-fusion";

const items = (entries: [string, number][]) => entries.map(([id, score]) => ({ id, score }));

describe("scoreFusion", () => {
  it("scales each leg to its best score and adds the weighted shares", () => {
    const fused = scoreFusion([
      {
        leg: "meaning",
        items: items([
          ["a", 0.6],
          ["b", 0.3],
        ]),
        weight: 0.5,
        unlisted: "lowest",
      },
      {
        leg: "words",
        items: items([
          ["b", 20],
          ["a", 5],
        ]),
        weight: 0.5,
        unlisted: "zero",
      },
    ]);
    expect(fused.map((item) => item.id)).toEqual(["b", "a"]);
    expect(fused[0]).toEqual({ id: "b", score: expect.closeTo(0.5 * 0.5 + 0.5 * 1, 10), ranks: { words: 1, meaning: 2 } });
    expect(fused[1]?.score).toBeCloseTo(0.5 * 1 + 0.5 * 0.25, 10);
  });

  it("gives an item a leg left out the leg's lowest listed score, or nothing", () => {
    const meaning = {
      leg: "meaning",
      items: items([
        ["m", 0.8],
        ["low", 0.4],
      ]),
      unlisted: "lowest" as const,
    };
    const words = { leg: "words", items: items([["w", 10]]), unlisted: "zero" as const };
    const fused = new Map(scoreFusion([meaning, words]).map((item) => [item.id, item.score]));
    expect(fused.get("w")).toBeCloseTo(1 + 0.5, 10); // meaning's floor 0.4 / 0.8
    expect(fused.get("m")).toBeCloseTo(1, 10); // words' floor is 0
    expect(fused.get("low")).toBeCloseTo(0.5, 10);
  });

  it("counts an id once per leg, at its best score, and lets a leg of non-positive scores add nothing", () => {
    const fused = scoreFusion([
      {
        leg: "words",
        items: items([
          ["a", 2],
          ["a", 4],
          ["b", 4],
        ]),
        unlisted: "zero",
      },
      {
        leg: "meaning",
        items: items([
          ["a", -0.2],
          ["b", -0.1],
        ]),
        unlisted: "lowest",
      },
    ]);
    expect(fused.map((item) => [item.id, item.score])).toEqual([
      ["a", 1],
      ["b", 1],
    ]);
  });

  it("breaks ties by legs, then the best single rank, then id; a weight of 0 silences a leg", () => {
    const fused = scoreFusion([
      {
        leg: "meaning",
        items: items([
          ["x", 0.9],
          ["y", 0.5],
        ]),
        weight: 0,
        unlisted: "lowest",
      },
      {
        leg: "words",
        items: items([
          ["y", 3],
          ["x", 3],
          ["z", 3],
        ]),
        weight: 1,
        unlisted: "zero",
      },
    ]);
    expect(fused.map((item) => item.id)).toEqual(["x", "y", "z"]);
    expect(scoreFusion([])).toEqual([]);
  });
});
