import { describe, expect, it } from "vitest";
import { createByteBudget } from "./byte-budget";

describe("a cache's byte budget", () => {
  it("keeps entries while they fit, then drops the least recently used first", () => {
    const budget = createByteBudget(100);
    expect(budget.add("a", 40)).toEqual([]);
    expect(budget.add("b", 40)).toEqual([]);
    budget.touch("a");
    expect(budget.add("c", 40)).toEqual(["b"]);
    expect(budget.totalBytes).toBe(80);
    expect([budget.has("a"), budget.has("b"), budget.has("c")]).toEqual([true, false, true]);
  });

  it("drops as many as it takes, never the entry just added", () => {
    const budget = createByteBudget(100);
    budget.add("a", 30);
    budget.add("b", 30);
    budget.add("c", 30);
    expect(budget.add("big", 90)).toEqual(["a", "b", "c"]);
    expect(budget.add("huge", 500)).toEqual(["big"]);
    expect(budget.totalBytes).toBe(500);
  });

  it("counts a re-added entry once, and forgets a removed one", () => {
    const budget = createByteBudget(100);
    budget.add("a", 60);
    expect(budget.add("a", 70)).toEqual([]);
    expect(budget.totalBytes).toBe(70);
    budget.remove("a");
    budget.touch("a");
    expect([budget.totalBytes, budget.has("a")]).toEqual([0, false]);
  });
});
