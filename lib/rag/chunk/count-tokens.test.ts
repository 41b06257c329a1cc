import { describe, expect, it } from "vitest";
import { countTokens, splitIntoTokens } from "./count-tokens";

describe("countTokens", () => {
  it.each([
    ["", 0],
    ["  \n\t ", 0],
    ["som", 1],
    ["Vilanova", 2],
    ["interdisciplinary", 3],
    ["Som a Vilanova.", 5],
    ["«Què?»", 4],
    ["Doncs...", 2],
    ["l'any 1962", 4],
    ["col·lecció", 3],
    ["4.41 g", 4],
  ])("%j is %i tokens", (text, expected) => {
    expect(countTokens(text)).toBe(expected);
  });

  it("adds up across pieces cut at whitespace", () => {
    const pieces = ["Marta Puig: Som a Vilanova i la Geltrú,", "l'any 1962.", "¿I vostè hi treballava?", "¡Quina feina!"];
    const separate = pieces.reduce((sum, piece) => sum + countTokens(piece), 0);
    expect(countTokens(pieces.join(" \n "))).toBe(separate);
  });
});

describe("splitIntoTokens", () => {
  it("cuts a long word into one-token pieces that rebuild it", () => {
    const word = "https://arxiu.example.cat/fons/Vilanova-1962/entrevista_Marta_Puig";
    const pieces = splitIntoTokens(word);
    expect(pieces.map((piece) => word.slice(piece.start, piece.end)).join("")).toBe(word);
    for (const piece of pieces) expect(countTokens(word.slice(piece.start, piece.end))).toBe(1);
    expect(pieces).toHaveLength(countTokens(word));
  });

  it("never cuts between the halves of a surrogate pair", () => {
    const word = "abcde𝐀𝐁𝐂𝐃𝐄𝐅";
    for (const piece of splitIntoTokens(word)) {
      expect(word.slice(piece.start, piece.end).isWellFormed()).toBe(true);
    }
  });
});
