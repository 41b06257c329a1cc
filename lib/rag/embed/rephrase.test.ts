import { describe, expect, it } from "vitest";
import { gerund, rephraseForBridge, rephraseFromBridge, rephraseEnglishForCatalan } from "./rephrase";

describe("Spanish 'dejar de' through the bridge", () => {
  it("is said as 'parar de' before an infinitive, in the same person and tense", () => {
    expect(rephraseForBridge("Dejé de salar en 1967 y dejaron de acudir; deja de comer.", "es")).toBe(
      "Paré de salar en 1967 y pararon de acudir; para de comer.",
    );
    expect(rephraseForBridge("El aguafuerte dejó de ser una técnica.", "es")).toBe("El aguafuerte paró de ser una técnica.");
  });

  it("is left alone where it is not before an infinitive, or not Spanish", () => {
    expect(rephraseForBridge("Dejaban agujeros como una puerta. Lo dejó de lado.", "es")).toBe("Dejaban agujeros como una puerta. Lo dejó de lado.");
    expect(rephraseForBridge("Vaig deixar de treballar.", "ca")).toBe("Vaig deixar de treballar.");
    expect(rephraseForBridge("Dejé de trabajar.", "en")).toBe("Dejé de trabajar.");
  });

  it("comes back from Apertium's 'stopped to' as an -ing, an unknown word kept with its mark", () => {
    expect(rephraseFromBridge("I stopped to work in 1967 and they stopped to attend.")).toBe("I stopped working in 1967 and they stopped attending.");
    expect(rephraseFromBridge("I stopped of *salar in 1967. Stop to make it.")).toBe("I stopped *salar in 1967. Stop making it.");
  });

  it("spells the -ing form as English does", () => {
    expect(["work", "make", "stop", "die", "see", "rain", "visit", "sew", "be"].map(gerund)).toEqual([
      "working",
      "making",
      "stopping",
      "dying",
      "seeing",
      "raining",
      "visiting",
      "sewing",
      "being",
    ]);
  });
});

describe("English possessives for Apertium's eng-cat", () => {
  it("drops the 's after an irregular plural, which Apertium reads as 'has'", () => {
    expect(rephraseEnglishForCatalan("Half the fishermen's wives mended nets.")).toBe("Half the fishermen wives mended nets.");
    expect(rephraseEnglishForCatalan("The children’s school and the people's park.")).toBe("The children school and the people park.");
  });

  it("keeps the possessives Apertium reads well, a name's, a singular noun's and one before no word", () => {
    for (const text of [
      "The men's work was hard.",
      "The women's work was hard.",
      "Carmen's husband was a fisherman.",
      "The boys' school closed.",
      "The specimen's label is torn.",
      "It was the fishermen's.",
    ])
      expect(rephraseEnglishForCatalan(text)).toBe(text);
  });
});
