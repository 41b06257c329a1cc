import { describe, expect, it } from "vitest";
import { describeMatch } from "./match-strength";

const thresholds = { good: 0.35, strong: 0.5 };

describe("what a hit's relevance means", () => {
  it("reads the meaning similarity against the calibrated thresholds", () => {
    expect(describeMatch({ similarity: 0.62, legs: ["meaning"] }, thresholds)).toMatchObject({ strength: "strong", label: "Strong match" });
    expect(describeMatch({ similarity: 0.5, legs: ["meaning"] }, thresholds).strength).toBe("strong");
    expect(describeMatch({ similarity: 0.4, legs: ["meaning", "words"] }, thresholds)).toMatchObject({ strength: "good", label: "Good match" });
    expect(describeMatch({ similarity: 0.4, legs: ["meaning", "words"] }, thresholds).explanation).toMatch(/0\.40.*also matches the words/);
    expect(describeMatch({ similarity: 0.12, legs: ["meaning"] }, thresholds)).toMatchObject({ strength: "weak", label: "Weak match" });
  });

  it("says a hit only the words found matches the words, with no made-up figure", () => {
    const words = describeMatch({ similarity: null, legs: ["words"] }, thresholds);
    expect(words).toMatchObject({ strength: "words", label: "Matches the words" });
    expect(words.explanation).not.toMatch(/\d/);
  });
});
