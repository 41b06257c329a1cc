import { describe, expect, it } from "vitest";
import { changeSelection, maxSelectedRecords, parseSelection } from "./record-selection";

describe("the record selection kept across pages", () => {
  it("reads a stored selection, and anything malformed as empty", () => {
    expect(parseSelection(JSON.stringify(["a1", "b2", "a1"]))).toEqual(["a1", "b2"]);
    expect(parseSelection(null)).toEqual([]);
    expect(parseSelection("{not json")).toEqual([]);
    expect(parseSelection(JSON.stringify({ ids: ["a1"] }))).toEqual([]);
    expect(parseSelection(JSON.stringify(["a1", 7, "../etc", "x".repeat(65), "c3"]))).toEqual(["a1", "c3"]);
  });

  it("adds in order without repeats, removes, and stops at the maximum", () => {
    expect(changeSelection(["a"], ["b", "a", "c"], true)).toEqual(["a", "b", "c"]);
    expect(changeSelection(["a", "b", "c"], ["b", "z"], false)).toEqual(["a", "c"]);
    const many = Array.from({ length: maxSelectedRecords + 20 }, (_, index) => `r${index}`);
    const full = changeSelection([], many, true);
    expect(full).toHaveLength(maxSelectedRecords);
    expect(changeSelection(full, ["extra"], true)).toEqual(full);
    expect(parseSelection(JSON.stringify(many))).toHaveLength(maxSelectedRecords);
  });
});
