import { describe, expect, it } from "vitest";
import { withContinuations } from "./answer-continuations";
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

  it("gives the passage that answers the interviewer's question right after it, and keeps the link when that passage was found on its own", () => {
    const passage = (chunkId: string) => ({ passage: { chunkId } });
    const [asks, other, answers, alsoAsks, earlier] = ["asks", "other", "answers", "also-asks", "earlier"].map(passage) as [
      ReturnType<typeof passage>,
      ReturnType<typeof passage>,
      ReturnType<typeof passage>,
      ReturnType<typeof passage>,
      ReturnType<typeof passage>,
    ];
    // "answers" was retrieved too, but after "other": it moves up to follow its question, once.
    const found = withContinuations(
      [earlier, asks, other, answers, alsoAsks],
      new Map([
        ["asks", answers],
        ["also-asks", earlier],
      ]),
    );
    expect(found.ordered.map((hit) => hit.passage.chunkId)).toEqual(["earlier", "asks", "answers", "other", "also-asks"]);
    // Linked whether it came later (moved up) or earlier (left where it is).
    expect(Object.fromEntries(found.continues)).toEqual({ answers: "asks", earlier: "also-asks" });
    // A continuation not retrieved on its own is added after its question.
    const added = withContinuations([asks, other], new Map([["asks", answers]]));
    expect(added.ordered.map((hit) => hit.passage.chunkId)).toEqual(["asks", "answers", "other"]);
    expect(withContinuations([asks], new Map()).continues.size).toBe(0);
  });

  it("follows a chain: a continuation that ends on a question brings the passage that answers it", () => {
    const [first, second, third, other] = ["first", "second", "third", "other"].map((chunkId) => ({ passage: { chunkId } }));
    // "second" answers "first" and ends on a question of its own, which "third" (retrieved later) answers.
    const found = withContinuations(
      [first!, other!, second!, third!],
      new Map([
        ["first", second!],
        ["second", third!],
      ]),
    );
    expect(found.ordered.map((hit) => hit.passage.chunkId)).toEqual(["first", "second", "third", "other"]);
    expect(Object.fromEntries(found.continues)).toEqual({ second: "first", third: "second" });
  });
});
