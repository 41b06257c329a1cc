import { describe, expect, it } from "vitest";
import { createHashEmbedder } from "../rag/embed/hash-embedder";
import { createExtractiveGenerator, selectSentences, sentencesOf } from "./extractive-generator";

const noBridge = { detect: async () => ({ language: "en", confidence: 1 }) };

describe("extractive answerer", () => {
  it("splits sources into sentences and transcript turns, skipping fragments", () => {
    expect(sentencesOf("Marta: Hi there.\nJoan: We left the village in 1965. Yes.")).toEqual(["Joan: We left the village in 1965."]);
  });

  it("keeps the best sentences within the window, without near-repeats", () => {
    const vector = (values: number[]) => Float32Array.from(values);
    const chosen = selectSentences(
      [
        { source: 1, text: "A", score: 0.9, vector: vector([1, 0]) },
        { source: 2, text: "A again", score: 0.88, vector: vector([1, 0]) },
        { source: 2, text: "B", score: 0.85, vector: vector([0, 1]) },
        { source: 3, text: "C", score: 0.5, vector: vector([0.7, 0.7]) },
      ],
      { maxSentences: 3, minScore: 0.2, window: 0.1 },
    );
    expect(chosen.map((sentence) => sentence.text)).toEqual(["A", "B"]);
  });

  it("answers only with sentences from the sources, each followed by its number", async () => {
    const generator = createExtractiveGenerator({ embedder: createHashEmbedder({ dimension: 128 }), prepare: noBridge, minScore: 0 });
    const sources = [
      { number: 1, title: "Diary", text: "The weather was fine. The lighthouse lamp burned whale oil until 1902." },
      { number: 2, title: "Ledger", text: "The mill ground wheat for the valley." },
    ];
    let answer = "";
    for await (const piece of generator.generate({ question: "What did the lighthouse lamp burn?", sources, systemPrompt: "", maxTokens: 100, temperature: 0 })) answer += piece;
    expect(answer.startsWith("The lighthouse lamp burned whale oil until 1902. [1]")).toBe(true);
    for (const sentence of answer.split(/ \[\d+\] ?/).filter(Boolean)) {
      expect(sources.some((source) => source.text.includes(sentence))).toBe(true);
    }
  });
});
