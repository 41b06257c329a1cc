import { describe, expect, it } from "vitest";
import { passageWordIndexes } from "./passage-words";

const words = (text: string) => text.split(" ").map((t) => ({ t }));

describe("passageWordIndexes", () => {
  const page = words("Des d'aleshores el poble apareix i s'amaga. El 1973, el 1989 i el 2005 el nivell va baixar.");

  it("marks the run of page words the passage was cut from", () => {
    expect(passageWordIndexes(page, "El 1973, el 1989 i el 2005")).toEqual([7, 8, 9, 10, 11, 12, 13]);
    expect(passageWordIndexes(page, "Des d’aleshores el POBLE apareix")).toEqual([0, 1, 2, 3, 4]);
  });

  it("falls back to the words it shares when the edges were read differently, and marks none for another page", () => {
    expect(passageWordIndexes(page, "nivell va baixar")).toEqual([15, 16, 17]);
    expect(passageWordIndexes(page, "xnivell va baixar")).toEqual([16, 17]);
    expect(passageWordIndexes(page, "campanar sota l'aigua")).toEqual([]);
    expect(passageWordIndexes([], "el")).toEqual([]);
  });
});
