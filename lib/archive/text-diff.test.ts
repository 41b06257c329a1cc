import { describe, expect, it } from "vitest";
import { type DiffPart, diffText } from "./text-diff";

const side = (parts: DiffPart[], keep: "removed" | "added") =>
  parts
    .filter((part) => part.op === "same" || part.op === keep)
    .map((part) => part.text)
    .join("");

describe("diffText", () => {
  it("shows a changed word as that word, old before new", () => {
    expect(diffText("The keeper saw three storms.", "The keeper saw four storms.")).toEqual([
      { op: "same", text: "The keeper saw " },
      { op: "removed", text: "three " },
      { op: "added", text: "four " },
      { op: "same", text: "storms." },
    ]);
  });

  it("an unchanged text is one unchanged part; an emptied or new one is all removed or added", () => {
    expect(diffText("Same.", "Same.")).toEqual([{ op: "same", text: "Same." }]);
    expect(diffText("", "New text")).toEqual([{ op: "added", text: "New text" }]);
    expect(diffText("Old text", "")).toEqual([{ op: "removed", text: "Old text" }]);
  });

  it("rebuilds both texts from its parts (no context shortening), whatever the edits", () => {
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const vocabulary = ["a ", "b ", "c ", "lamp ", "oil\n", "storm ", "  ", "d"];
    const text = (length: number) => Array.from({ length }, () => vocabulary[Math.floor(random() * vocabulary.length)]).join("");
    for (let round = 0; round < 200; round++) {
      const before = text(Math.floor(random() * 40));
      const after = random() < 0.5 ? text(Math.floor(random() * 40)) : before.replace(/b /g, "storm ");
      const parts = diffText(before, after, { context: 10_000 });
      expect(side(parts, "removed")).toBe(before);
      expect(side(parts, "added")).toBe(after);
      expect(parts.every((part, index) => index === 0 || part.op !== parts[index - 1]!.op)).toBe(true);
    }
  });

  it("shortens a long text's unchanged stretches around a one-word change", () => {
    const words = Array.from({ length: 2_000 }, (_, index) => `word${index}`);
    const before = words.join(" ");
    const after = words.map((word, index) => (index === 1_000 ? "CHANGED" : word)).join(" ");
    const parts = diffText(before, after);
    expect(parts.map((part) => part.op)).toEqual(["same", "removed", "added", "same"]);
    expect(parts[0]).toMatchObject({ elided: true });
    expect(parts[0]!.text.startsWith("… ")).toBe(true);
    expect(parts[0]!.text.endsWith("word999 ")).toBe(true);
    expect(parts[1]!.text).toBe("word1000 ");
    expect(parts[3]!.text.startsWith("word1001 ")).toBe(true);
    expect(parts.reduce((length, part) => length + part.text.length, 0)).toBeLessThan(400);
  });

  it("falls back to lines, then to the whole text, when words would take too many edits", () => {
    const before = Array.from({ length: 3_000 }, (_, index) => `a${index}`).join(" ");
    const after = Array.from({ length: 3_000 }, (_, index) => `b${index}`).join(" ");
    const parts = diffText(before, after, { context: 1_000_000 });
    expect(side(parts, "removed")).toBe(before);
    expect(side(parts, "added")).toBe(after);
    const lined = diffText("one\ntwo\nthree\n", "one\n2\nthree\n");
    expect(lined).toEqual([
      { op: "same", text: "one\n" },
      { op: "removed", text: "two\n" },
      { op: "added", text: "2\n" },
      { op: "same", text: "three\n" },
    ]);
  });
});
