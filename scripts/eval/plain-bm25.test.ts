import { describe, expect, it } from "vitest";
import { bm25Score } from "../../lib/rag/search/bm25";
import { type PlainBm25Index, rankPlainBm25 } from "./plain-bm25";

/** An index as buildPlainBm25 makes it, from documents already split into lexemes. */
function indexOf(documents: Record<string, string[]>): PlainBm25Index {
  const ids = Object.keys(documents);
  const lengths = ids.map((id) => documents[id]!.length);
  const postings = new Map<string, [number, number][]>();
  ids.forEach((id, at) => {
    const tf = new Map<string, number>();
    for (const lexeme of documents[id]!) tf.set(lexeme, (tf.get(lexeme) ?? 0) + 1);
    for (const [lexeme, count] of tf) postings.set(lexeme, [...(postings.get(lexeme) ?? []), [at, count]]);
  });
  return { ids, lengths, averageLength: lengths.reduce((a, b) => a + b, 0) / ids.length, postings };
}

describe("plain BM25 (the reference eval:retrieval holds the keyword leg to)", () => {
  const documents = {
    d1: ["vitamin", "d", "bone", "density", "trial"],
    d2: ["vitamin", "c", "cold"],
    d3: ["bone", "fracture", "fracture", "elderly", "cohort", "study", "long", "follow"],
    d4: ["unrelated", "text"],
  };
  const index = indexOf(documents);

  it("scores every document as the keyword leg's bm25Score would, whole", () => {
    const parameters = { k1: 1.2, b: 0.75 };
    const query = ["bone", "fracture"];
    const expected = Object.entries(documents)
      .map(([id, words]) => {
        const tf = new Map<string, number>();
        for (const word of words) tf.set(word, (tf.get(word) ?? 0) + 1);
        const df = new Map(query.map((lexeme) => [lexeme, Object.values(documents).filter((other) => other.includes(lexeme)).length]));
        const corpus = { passages: index.ids.length, totalLength: index.lengths.reduce((a, b) => a + b, 0) };
        return { id, score: bm25Score({ length: words.length, tf }, df, corpus, parameters) };
      })
      .filter((entry) => entry.score > 0)
      .sort((a, b) => b.score - a.score)
      .map((entry) => entry.id);
    expect(rankPlainBm25(index, query, parameters)).toEqual(expected);
    expect(expected).toEqual(["d3", "d1"]);
  });

  it("counts a repeated query word once, breaks ties by id, and stops at the depth", () => {
    expect(rankPlainBm25(index, ["vitamin", "vitamin"], { k1: 1.2, b: 0 })).toEqual(["d1", "d2"]);
    expect(rankPlainBm25(index, ["vitamin"], { k1: 1.2, b: 0 }, 1)).toEqual(["d1"]);
    expect(rankPlainBm25(index, ["absent"], { k1: 1.2, b: 0.75 })).toEqual([]);
  });
});
