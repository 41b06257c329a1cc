import { describe, expect, it } from "vitest";
import { findHighlights, heldTerms, highlightParts, pageQueryTerms, queryTerms, snippet, wordMatches } from "./highlight";

const marked = (text: string, ranges: { start: number; end: number }[]) => ranges.map((range) => text.slice(range.start, range.end));

describe("highlights", () => {
  it("keeps meaningful, folded, distinct query terms", () => {
    expect(queryTerms("The Bells of the old CHURCH, the bells!")).toEqual(["bells", "old", "church"]);
    expect(queryTerms("les campanes de l'església")).toEqual(["campanes", "esglesia"]);
    expect(queryTerms("   ")).toEqual([]);
  });

  it("matches words regardless of case, accents and short endings", () => {
    expect(wordMatches("mines", "mine")).toBe(true);
    expect(wordMatches("bell", "bells")).toBe(true);
    expect(wordMatches("mining", "mine")).toBe(false);
    expect(wordMatches("cat", "cats")).toBe(false);
    // An irregular past is its verb: "what did he find?" is answered by "he found".
    expect(wordMatches("found", "find")).toBe(true);
    expect(wordMatches("finds", "found")).toBe(true);
    expect(wordMatches("taken", "took")).toBe(true);
    expect(wordMatches("found", "fund")).toBe(false);
    const text = "La Església de Sant Romà: les CAMPANES van baixar.";
    expect(marked(text, findHighlights(text, queryTerms("campana iglesia església")))).toEqual(["Església", "CAMPANES"]);
  });

  it("windows a long passage around its densest matches, at word boundaries", () => {
    const filler = "lorem ipsum dolor sit amet ".repeat(30);
    const text = `${filler}the keeper lit the lighthouse lamp every night ${filler}`;
    const result = snippet(text, queryTerms("lighthouse lamp"), 120);
    expect(result.clippedStart).toBe(true);
    expect(result.clippedEnd).toBe(true);
    expect(result.text.length).toBeLessThanOrEqual(120);
    expect(marked(result.text, result.highlights)).toEqual(["lighthouse", "lamp"]);
    expect(result.text.startsWith(" ")).toBe(false);
  });

  it("shows a short passage whole and the start of a long one without matches", () => {
    expect(snippet("A short   passage.", ["zebra"])).toEqual({ text: "A short passage.", highlights: [], clippedStart: false, clippedEnd: false });
    const long = snippet("word ".repeat(200), ["zebra"], 50);
    expect(long.clippedStart).toBe(false);
    expect(long.clippedEnd).toBe(true);
  });
});

describe("irregular English pasts", () => {
  it("match their verb both ways, for the first, a middle and the last entry of the table", () => {
    for (const [word, term] of [
      ["found", "find"],
      ["find", "found"],
      ["written", "write"],
      ["wrote", "write"],
      ["taught", "teaching"],
      ["lent", "lend"],
    ] as const) {
      expect(wordMatches(word, term), `${word} ~ ${term}`).toBe(true);
    }
  });

  it("does not join unrelated words through the table", () => {
    expect(wordMatches("found", "fond")).toBe(false);
    expect(wordMatches("went", "want")).toBe(false);
  });
});

describe("marking a whole text on the record page", () => {
  it("cuts a text into plain runs and matched words that join back to the text", () => {
    const text = "Els miners de la mina van fer vaga; the Miners' strike.";
    const parts = highlightParts(text, queryTerms("miner vaga"));
    expect(parts.map((part) => part.text).join("")).toBe(text);
    expect(parts.filter((part) => part.marked).map((part) => part.text)).toEqual(["miners", "vaga", "Miners"]);
    expect(parts[0]).toEqual({ text: "Els ", marked: false });
  });

  it("marks the same query in the original and its English", () => {
    const terms = queryTerms("mines flooded");
    expect(
      highlightParts("Les mines es van inundar el 1952.", terms)
        .filter((part) => part.marked)
        .map((part) => part.text),
    ).toEqual(["mines"]);
    expect(
      highlightParts("The mines were flooded in 1952.", terms)
        .filter((part) => part.marked)
        .map((part) => part.text),
    ).toEqual(["mines", "flooded"]);
  });

  it("gives the text as one plain run without terms or matches, and an empty text one empty run", () => {
    expect(highlightParts("Res a veure.", [])).toEqual([{ text: "Res a veure.", marked: false }]);
    expect(highlightParts("Res a veure.", ["zinc"])).toEqual([{ text: "Res a veure.", marked: false }]);
    expect(highlightParts("", ["zinc"])).toEqual([{ text: "", marked: false }]);
  });

  it("takes a page's query only when it is a short string, and keeps its meaningful terms", () => {
    expect(pageQueryTerms("the strike at the mine")).toEqual(["strike", "mine"]);
    expect(pageQueryTerms(["strike"])).toEqual([]);
    expect(pageQueryTerms(undefined)).toEqual([]);
    expect(pageQueryTerms("x".repeat(501))).toEqual([]);
  });
});

describe("terms a text holds", () => {
  it("holds a decade's words by a year of that decade", () => {
    expect([...heldTerms(["perdio", "habitantes", "anos", "noventa"], "Después del cierre de 1993 perdió habitantes.")].sort()).toEqual([
      "anos",
      "habitantes",
      "noventa",
      "perdio",
    ]);
    expect([...heldTerms(["anos", "noventa"], "En 1989 cerró la mina.")]).toEqual([]);
    expect([...heldTerms(["1950s", "lots"], "En un día de la década de 1950 se vendían 260 lotes.")]).toEqual(["1950s"]);
  });
});
