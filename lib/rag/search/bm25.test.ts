import { describe, expect, it } from "vitest";
import {
  averageLength,
  bm25Idf,
  bm25Parameters,
  bm25Score,
  bm25Term,
  defaultBm25,
  selectCandidates,
  selectTerms,
  wordDocumentFrequencies,
  wordGroups,
} from "./bm25";

describe("BM25", () => {
  it("weights rare lexemes more, never negatively, and not at all when absent", () => {
    expect(bm25Idf(10, 1)).toBeCloseTo(Math.log(1 + 9.5 / 1.5), 12);
    expect(bm25Idf(10, 1)).toBeGreaterThan(bm25Idf(10, 5));
    expect(bm25Idf(10, 10)).toBeCloseTo(Math.log(1 + 0.5 / 10.5), 12);
    expect(bm25Idf(10, 10)).toBeGreaterThan(0);
    expect(bm25Idf(10, 0)).toBe(0);
    expect(bm25Idf(0, 0)).toBe(0);
    // A frequency above N (a statistic from another moment) counts as N.
    expect(bm25Idf(10, 12)).toBe(bm25Idf(10, 10));
  });

  it("saturates term frequency with k1 and normalises length with b", () => {
    const base = { idf: 2, length: 10, averageLength: 10 };
    // At the average length: idf · tf · (k1 + 1) / (tf + k1).
    expect(bm25Term({ ...base, tf: 1 })).toBeCloseTo(2, 12);
    expect(bm25Term({ ...base, tf: 3 })).toBeCloseTo((2 * 3 * 2.2) / 4.2, 12);
    expect(bm25Term({ ...base, tf: 1000 })).toBeLessThan(2 * 2.2);
    // k1 = 0: presence only.
    expect(bm25Term({ ...base, tf: 5 }, { k1: 0, b: 0.75 })).toBeCloseTo(2, 12);
    // Twice the average length: k1 · (1 − b + 2b) in the denominator; b = 0 ignores length.
    expect(bm25Term({ ...base, tf: 1, length: 20 })).toBeCloseTo((2 * 2.2) / (1 + 1.2 * 1.75), 12);
    expect(bm25Term({ ...base, tf: 1, length: 20 }, { k1: 1.2, b: 0 })).toBeCloseTo(2, 12);
    expect(bm25Term({ ...base, tf: 0 })).toBe(0);
  });

  it("sums a passage's lexemes, as computed by hand on a three-passage corpus", () => {
    // "apple apple banana", "apple cherry cherry cherry", "banana cherry": N 3, avgdl 3.
    const corpus = { passages: 3, totalLength: 9 };
    expect(averageLength(corpus)).toBe(3);
    const df = new Map([
      ["apple", 2],
      ["cherry", 2],
    ]);
    const idf = Math.log(1.6);
    const second = bm25Score(
      {
        length: 4,
        tf: new Map([
          ["apple", 1],
          ["cherry", 3],
        ]),
      },
      df,
      corpus,
    );
    expect(second).toBeCloseTo((idf * 2.2) / (1 + 1.5) + (idf * 3 * 2.2) / (3 + 1.5), 12);
    expect(second).toBeCloseTo(1.1029, 4);
    expect(bm25Score({ length: 3, tf: new Map([["apple", 2]]) }, df, corpus)).toBeCloseTo(0.64625, 4);
    expect(bm25Score({ length: 2, tf: new Map([["banana", 1]]) }, df, corpus)).toBe(0);
  });

  it("has an average length of 1 for an empty corpus rather than dividing by zero", () => {
    expect(averageLength({ passages: 0, totalLength: 0 })).toBe(1);
  });

  it("validates its parameters", () => {
    expect(bm25Parameters()).toEqual(defaultBm25);
    expect(bm25Parameters({ k1: 0.9 })).toEqual({ k1: 0.9, b: 0.75 });
    expect(() => bm25Parameters({ b: 1.5 })).toThrow(/b must be between 0 and 1/);
    expect(() => bm25Parameters({ k1: Number.NaN })).toThrow(/k1/);
  });

  it("lets the rarest lexemes bring in candidates within a budget, and always the rarest one", () => {
    const terms = [
      { lexeme: "the", df: 900, idf: 0.1 },
      { lexeme: "mill", df: 40, idf: 3 },
      { lexeme: "flour", df: 60, idf: 2.7 },
      { lexeme: "zanzibar", df: 0, idf: 0 },
    ];
    expect(selectTerms(terms, 100).map((term) => [term.lexeme, term.selects])).toEqual([
      ["mill", true],
      ["flour", true],
      ["the", false],
    ]);
    expect(selectTerms(terms, 10).map((term) => term.selects)).toEqual([true, false, false]);
    expect(selectTerms(terms, 10_000).every((term) => term.selects)).toBe(true);
  });

  describe("selectCandidates", () => {
    const term = (lexeme: string, df: number, word = lexeme, lines = [1]) => ({ lexeme, df, idf: 1, word, lines });

    it("keeps selectTerms' choice while the rarest lexeme is within the budget", () => {
      const chosen = selectCandidates([term("the", 900), term("mill", 40), term("flour", 60)], 100, 1000);
      expect(chosen).toMatchObject({ tsquery: "'mill' | 'flour'", cap: null, fallback: null });
      expect(chosen.terms.map((row) => [row.lexeme, row.selects])).toEqual([
        ["mill", true],
        ["flour", true],
        ["the", false],
      ]);
    });

    it("past the budget, asks for two of a line's words together, every form of each, and falls back to its rarest word", () => {
      // "molinos harina pan" at a million passages: no form of a word is within a budget of 15,000;
      // two of the words together would be, were they independent (2,000 + 2,400 + 3,000).
      const terms = [term("molin", 30_000, "molin"), term("molinos", 20_000, "molin"), term("harin", 40_000), term("pan", 60_000)];
      const chosen = selectCandidates(terms, 15_000, 1_000_000);
      expect(chosen.cap).toBe(15_000);
      expect(chosen.tsquery).toBe("(('harin') & ('molinos' | 'molin')) | (('harin') & ('pan')) | (('molinos' | 'molin') & ('pan'))");
      expect(chosen.fallback).toBe("'harin'");
      expect(chosen.terms.every((row) => row.selects)).toBe(true);
    });

    it("asks for more words together while pairs would still pass the budget, and uses at most the four rarest", () => {
      // Five words in a tenth of the passages each: six pairs of the four rarest ≈ 60,000 passages, four triples ≈ 4,000.
      const terms = ["a", "b", "c", "d", "e"].map((word, index) => term(word, 100_000 + index));
      const pairs = selectCandidates(terms, 80_000, 1_000_000);
      expect(pairs.tsquery.split(" | ")).toHaveLength(6);
      const triples = selectCandidates(terms, 20_000, 1_000_000);
      expect(triples.tsquery.split(" | ")).toHaveLength(4);
      expect(triples.tsquery).not.toContain("'e'");
      expect(triples.terms.find((row) => row.lexeme === "e")?.selects).toBe(false);
    });

    it("combines a word only with words of its own line, and a line of one word has no combination", () => {
      // "trabajo" and its bridge translation "work": two lines of one word, not two words.
      const single = selectCandidates([term("trabaj", 150_000, "trabaj", [1]), term("work", 90_000, "work", [2])], 4000, 1_000_000);
      expect(single).toEqual({ terms: expect.any(Array), tsquery: "'trabaj' | 'work'", cap: 4000, fallback: null });
      const two = selectCandidates(
        [term("mina", 50_000, "mina", [1]), term("trabaj", 150_000, "trabaj", [1]), term("mine", 60_000, "mine", [2]), term("work", 90_000, "work", [2])],
        4000,
        1_000_000,
      );
      expect(two.tsquery).toBe("(('mina') & ('trabaj')) | (('mine') & ('work'))");
      expect(two.fallback).toBe("'mina' | 'mine'");
    });

    it("groups a query word's forms, as wordDocumentFrequencies joins them", () => {
      const groups = wordGroups([
        { word: "cancer", lexeme: "cancer", single: true },
        { word: "cancer", lexeme: "canc", single: true },
        { word: "day-old", lexeme: "day", single: false },
        { word: "old", lexeme: "old", single: true },
      ]);
      expect(groups.get("cancer")).toBe(groups.get("canc"));
      expect(groups.get("day")).not.toBe(groups.get("old"));
    });
  });

  it("weighs every form of a query word by the word's frequency, not by the form's own", () => {
    // "cancer": English stem "cancer" (in 900 passages), Spanish stem "canc" (5 passages of English
    // text indexed as Spanish). "mills": "mill" in English, "mills" as written.
    const forms = [
      { word: "cancer", lexeme: "cancer", single: true },
      { word: "cancer", lexeme: "canc", single: true },
      { word: "mills", lexeme: "mill", single: true },
      { word: "mills", lexeme: "mills", single: true },
      { word: "mill", lexeme: "mill", single: true },
    ];
    const df = new Map([
      ["cancer", 900],
      ["canc", 5],
      ["mill", 40],
      ["mills", 2],
    ]);
    const words = wordDocumentFrequencies(forms, df, 1000);
    expect(words.get("canc")).toBe(905);
    expect(words.get("cancer")).toBe(905);
    expect(words.get("mill")).toBe(42);
    expect(words.get("mills")).toBe(42);
    // Never more than N.
    expect(wordDocumentFrequencies(forms, df, 500).get("canc")).toBe(500);
  });

  it("keeps the parts of a split word as words of their own", () => {
    // "day-old" gives "day-old", "day" and "old" in one analysis: none of them is its only lexeme.
    const forms = [
      { word: "day-old", lexeme: "day-old", single: false },
      { word: "day-old", lexeme: "day", single: false },
      { word: "day-old", lexeme: "old", single: false },
      { word: "day", lexeme: "day", single: true },
      { word: "old", lexeme: "old", single: true },
    ];
    const words = wordDocumentFrequencies(
      forms,
      new Map([
        ["day-old", 3],
        ["day", 300],
        ["old", 200],
      ]),
      1000,
    );
    expect(Object.fromEntries(words)).toEqual({ "day-old": 3, day: 300, old: 200 });
  });
});
