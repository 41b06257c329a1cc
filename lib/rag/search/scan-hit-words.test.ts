import { describe, expect, it } from "vitest";
import { queryTerms } from "./highlight";
import { markedScanWords } from "./scan-hit-words";

const words = (text: string) => text.split(" ").map((t) => ({ t }));

describe("markedScanWords", () => {
  // One page, one passage: the letter's page as OCR read it.
  const page = words("Dear Margaret, the women mended the nets with wooden needles, and the needle-makers' shop closed in 1962.");
  const passage = page.map((word) => word.t).join(" ");
  const shown = (indexes: number[]) => indexes.map((index) => page[index]!.t);

  it("marks only the page's words that the query's terms match, folded and stemmed as the result rows mark them", () => {
    expect(shown(markedScanWords(page, passage, queryTerms("wooden needles")))).toEqual(["wooden", "needles,", "needle-makers'"]);
    expect(shown(markedScanWords(page, passage, queryTerms("What did the WOMEN mend?")))).toEqual(["women", "mended"]);
    const catalan = words("Carta a Margarita: l'església i el campanar");
    expect(markedScanWords(catalan, "Carta a Margarita: l'església i el campanar", queryTerms("ESGLESIA"))).toEqual([3]);
  });

  it("marks the whole passage when no word matches (a hit by meaning) or there is no query, and nothing of another page", () => {
    expect(markedScanWords(page, passage, queryTerms("fishing tools"))).toHaveLength(page.length);
    expect(markedScanWords(page, passage, [])).toHaveLength(page.length);
    expect(markedScanWords(page, "campanar sota l'aigua", queryTerms("campanar"))).toEqual([]);
  });

  it("marks only words inside the passage, not the same word elsewhere on the page", () => {
    const twoPassages = words("The nets were old. Later the nets were mended with needles.");
    expect(markedScanWords(twoPassages, "Later the nets were mended with needles.", queryTerms("nets"))).toEqual([6]);
  });
});
