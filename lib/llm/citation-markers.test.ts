import { describe, expect, it } from "vitest";
import { citationMarkerPattern, literalBrackets, splitCitationMarkers, splitLiteralMarkers } from "./citation-markers";

describe("a source's own bracketed numbers", () => {
  it("are written literal wherever a parser would take them for a citation, and nothing else changes", () => {
    const text = "As table [3] shows, the bells [1, 12] fell [1][2]. Not markers: [1234], [a], [ 1 ], [^1], [[page:4]].";
    const literal = literalBrackets(text);
    expect(literal).toBe("As table ［3］ shows, the bells ［1, 12］ fell ［1］［2］. Not markers: [1234], [a], [ 1 ], [^1], [[page:4]].");
    expect([...literal.matchAll(citationMarkerPattern)]).toEqual([]);
    expect(literalBrackets(literal)).toBe(literal);
  });

  it("split apart from citation markers and from the text around them, for display", () => {
    expect(splitCitationMarkers("He saw table ［3］ in 1964 [1]. Then [2, 4]")).toEqual([
      { text: "He saw table ［3］ in 1964 ", numbers: null },
      { text: "[1]", numbers: [1] },
      { text: ". Then ", numbers: null },
      { text: "[2, 4]", numbers: [2, 4] },
    ]);
    expect(splitLiteralMarkers("He saw table ［3］ in 1964")).toEqual([
      { text: "He saw table ", literal: false },
      { text: "［3］", literal: true },
      { text: " in 1964", literal: false },
    ]);
  });
});
