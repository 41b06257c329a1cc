import { describe, expect, it } from "vitest";
import { formatAgentContext } from "./agent-context";
import type { ApiCitation } from "./api-schemas";

function citation(id: string, extra: Partial<ApiCitation> = {}): ApiCitation {
  return {
    id,
    recordId: `r${id}`,
    recordTitle: `Record ${id}`,
    section: "oral-histories",
    sectionName: "Oral histories",
    chunkId: `c${id}`,
    location: "Transcript",
    language: "en",
    page: null,
    pageEnd: null,
    timeStart: null,
    timeEnd: null,
    url: `/records/r${id}?passage=c${id}#cited-passage`,
    ...extra,
  };
}

const words = (count: number) => Array.from({ length: count }, (_v, index) => `word${index}`).join(" ");

describe("formatAgentContext", () => {
  it("numbers whole passages with where they come from, within the budget", () => {
    const result = formatAgentContext(
      [
        { citation: citation("1", { timeStart: 247, timeEnd: 312 }), text: "The mine closed in 1962.", translation: null },
        { citation: citation("2", { page: 3, pageEnd: 4, location: "Body › Chapter 2" }), text: "La mina va tancar.", translation: "The mine closed." },
      ],
      1000,
    );
    expect(result.context).toBe(
      "[1] Record 1 — Oral histories · Transcript, 04:07–05:12\nThe mine closed in 1962.\n\n" +
        "[2] Record 2 — Oral histories · Body › Chapter 2, pp. 3–4\nLa mina va tancar.\n(English, machine translation: The mine closed.)",
    );
    expect(result.citations.map((item) => item.id)).toEqual(["1", "2"]);
    expect(result).toMatchObject({ truncated: false, omitted: 0 });
  });

  it("cuts the passage that does not fit at a word, and counts the ones left out", () => {
    const passages = [1, 2, 3, 4].map((n) => ({ citation: citation(String(n)), text: words(60), translation: null }));
    const result = formatAgentContext(passages, 700);
    expect(result.context.length).toBeLessThanOrEqual(700);
    expect(result.citations.map((item) => item.id)).toEqual(["1", "2"]);
    expect(result.truncated).toBe(true);
    expect(result.omitted).toBe(2);
    expect(result.context).toMatch(/word\d+…$/);
  });

  it("leaves out a passage when too little room remains to be useful, and is empty with nothing to give", () => {
    const result = formatAgentContext([{ citation: citation("1"), text: words(40), translation: null }, { citation: citation("2"), text: words(40), translation: null }], 420);
    expect(result.citations).toHaveLength(1);
    expect(result).toMatchObject({ truncated: false, omitted: 1 });
    expect(formatAgentContext([], 500)).toEqual({ context: "", citations: [], truncated: false, omitted: 0 });
  });
});
