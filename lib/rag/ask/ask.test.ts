import { describe, expect, it } from "vitest";
import { diverse, fitBudget } from "./ask";

describe("the sources given to the answerer", () => {
  it("keeps the order but lets no record take more than two places before the others have theirs", () => {
    const hits = ["report", "report", "report", "report", "interview", "place"].map((recordId, index) => ({ recordId, index }));
    expect(diverse(hits).map((hit) => hit.index)).toEqual([0, 1, 4, 5, 2, 3]);
  });

  it("fits the budget in that order", () => {
    const passage = (words: number) => ({ passage: { text: "word ".repeat(words) } });
    expect(fitBudget([passage(10), passage(500), passage(10)], 100, 8)).toHaveLength(2);
  });
});
