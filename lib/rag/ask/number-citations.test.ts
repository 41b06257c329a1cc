import { describe, expect, it } from "vitest";
import { createStreamingNumbering, renumberCitations } from "./number-citations";

describe("citation numbering", () => {
  it("numbers the sources [1], [2]… in the order the answer first cites them, without gaps", () => {
    const result = renumberCitations("The bells came down in 1964 [3]. They went by lorry [5][3]. Both rang [5, 3].");
    expect(result.text).toBe("The bells came down in 1964 [1]. They went by lorry [2][1]. Both rang [2, 1].");
    expect(result.order).toEqual([3, 5]);
  });

  it("leaves out numbers that name no source, and the marker when none is left", () => {
    const result = renumberCitations("One [4]. Two [9]. Three [4, 9].", (number) => number <= 8);
    expect(result.text).toBe("One [1]. Two. Three [1].");
    expect(result.order).toEqual([4]);
  });

  it("renumbers a stream the same way, holding back a marker split across pieces", () => {
    const numbering = createStreamingNumbering((number) => number <= 8);
    const pieces = ["Les van baixar el 1964 [", "3] i les van", " portar en camió [6", "]. Fi [3][", "7", "]"];
    const shown = pieces.map((piece) => numbering.push(piece));
    shown.push(numbering.flush());
    expect(shown.map((part) => part.text).join("")).toBe("Les van baixar el 1964 [1] i les van portar en camió [2]. Fi [1][3]");
    expect(shown.map((part) => part.introduced)).toEqual([[], [3], [], [6], [], [7], []]);
    // The streamed text equals the complete answer renumbered.
    expect(shown.map((part) => part.text).join("")).toBe(renumberCitations(pieces.join("")).text);
    // Nothing that looks like a given number ever reaches the reader on its own.
    expect(shown.some((part) => /\[$|\[\d+$/.test(part.text))).toBe(false);
  });

  it("never numbers a source's own bracketed numbers, which reach it literal", () => {
    const result = renumberCitations("The report says table ［3］ holds ［1, 2］ finds. [5]");
    expect(result).toEqual({ text: "The report says table ［3］ holds ［1, 2］ finds. [1]", order: [5] });
    const numbering = createStreamingNumbering(() => true);
    expect(numbering.push("Footnote ［1］ and ［").text).toBe("Footnote ［1］ and ［");
    expect(numbering.push("2］ end [4]")).toEqual({ text: "2］ end [1]", introduced: [4] });
  });

  it("lets a bracket that never becomes a marker through", () => {
    const numbering = createStreamingNumbering(() => true);
    expect(numbering.push("a list [").text).toBe("a list ");
    expect(numbering.push("see the note] and [2").text).toBe("[see the note] and ");
    expect(numbering.push("] end.")).toEqual({ text: "[1] end.", introduced: [2] });
    expect(numbering.flush()).toEqual({ text: "", introduced: [] });
  });
});
