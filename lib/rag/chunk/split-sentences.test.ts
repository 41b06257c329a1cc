import { describe, expect, it } from "vitest";
import cases from "./split-sentences.cases.json";
import { splitSentences } from "./split-sentences";

function sentencesOf(text: string): string[] {
  return splitSentences(text).map((range) => text.slice(range.start, range.end));
}

describe("splitSentences", () => {
  it.each(cases.map((item) => [item.case, item.text, item.sentences] as const))("%s", (_name, text, expected) => {
    expect(sentencesOf(text)).toEqual(expected);
  });

  it("returns trimmed ranges and nothing for blank text", () => {
    expect(splitSentences("  \n\t ")).toEqual([]);
    expect(splitSentences("  Hola.  Adéu.  ")).toEqual([
      { start: 2, end: 7 },
      { start: 9, end: 14 },
    ]);
  });
});
