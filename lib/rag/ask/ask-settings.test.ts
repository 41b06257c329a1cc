import { describe, expect, it } from "vitest";
import { answerSettings } from "../config/settings";
import { defaultAskSettings } from "./ask";
import { askThresholdsSchema } from "./ask-settings";

describe("Ask's thresholds", () => {
  it("are answerSettings' defaults, and exactly those an admin may override are marked so", () => {
    const overridable = Object.entries(answerSettings)
      .filter(([, entry]) => "overriddenBy" in entry && entry.overriddenBy === "Admin → Ask thresholds")
      .map(([name]) => name);
    expect(overridable.sort()).toEqual(Object.keys(askThresholdsSchema.shape).sort());
    expect([defaultAskSettings.minSimilarity, defaultAskSettings.strongSimilarity, defaultAskSettings.minTermCoverage]).toEqual([
      answerSettings.minSimilarity.value,
      answerSettings.strongSimilarity.value,
      answerSettings.minTermCoverage.value,
    ]);
    // The defaults pass the admin form's own checks (minimum at most the strong threshold).
    expect(
      askThresholdsSchema.safeParse({
        minSimilarity: answerSettings.minSimilarity.value,
        strongSimilarity: answerSettings.strongSimilarity.value,
        minTermCoverage: answerSettings.minTermCoverage.value,
      }).success,
    ).toBe(true);
  });
});
