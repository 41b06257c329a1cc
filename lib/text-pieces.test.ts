import { describe, expect, it } from "vitest";
import { pieceEnd } from "./text-pieces";

describe("pieceEnd", () => {
  it("cuts a text into pieces of the size asked, the last one shorter", () => {
    expect(pieceEnd("abcdefg", 0, 3)).toBe(3);
    expect(pieceEnd("abcdefg", 6, 3)).toBe(7);
  });

  it("never cuts between the halves of a surrogate pair", () => {
    const text = "ab😀cd"; // 😀 is two UTF-16 units, at 2 and 3
    expect(pieceEnd(text, 0, 3)).toBe(2);
    expect(pieceEnd(text, 0, 4)).toBe(4);
    // Pieces joined give the text back, each one well-formed.
    const pieces: string[] = [];
    for (let start = 0; start < text.length;) {
      const end = pieceEnd(text, start, 3);
      pieces.push(text.slice(start, end));
      start = end;
    }
    expect(pieces.join("")).toBe(text);
    expect(pieces.every((piece) => piece.isWellFormed())).toBe(true);
  });
});
