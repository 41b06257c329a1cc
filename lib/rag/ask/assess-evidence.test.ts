import { describe, expect, it } from "vitest";
import { createHashEmbedder } from "../embed/hash-embedder";
import type { SearchHit } from "../search/search-archive";
import type { ArchiveLanguage } from "../embed/translate";
import { assessEvidence, readQuestion, termCoverage, questionNames } from "./assess-evidence";

const embedder = createHashEmbedder({ dimension: 256 });
const prepare = { detect: async () => ({ language: "en", confidence: 1 }) };
const thresholds = { minSimilarity: 0.3, strongSimilarity: 0.5, minTermCoverage: 0.4 };

function hit(recordId: string, text: string, options: { similarity: number | null; timed?: boolean; title?: string }): SearchHit {
  return {
    recordId,
    recordTitle: options.title ?? recordId,
    sectionSlug: "oral-histories",
    sectionName: "Oral histories",
    projectId: "p",
    passage: {
      chunkId: `${recordId}-chunk`,
      groupLabel: "Transcript",
      headingPath: [],
      language: "en",
      page: null,
      pageEnd: null,
      timeStart: options.timed ? 12 : null,
      timeEnd: options.timed ? 80 : null,
      startOffset: 0,
      endOffset: text.length,
      snippet: { text, highlights: [], clippedStart: false, clippedEnd: false },
      text,
      translatedText: null,
      externalAllowed: false,
      sourceRecordIds: [recordId],
    },
    score: 0.5,
    legs: ["meaning"],
    similarity: options.similarity,
  };
}

describe("the evidence test", () => {
  it("passes a long transcript passage whose turn answers the question, though the whole passage is far from it", async () => {
    const turns = [
      "Lucía Ferrer Bosch: Did they pay you well for the work on the quay?",
      "Carmen Roldán Ortiz: By the piece, and always less than the men. But it was our money, and I bought a sewing machine with it.",
      "Lucía Ferrer Bosch: What damaged the nets most?",
      "Carmen Roldán Ortiz: The dolphins, especially. They came in to eat the sardines and left holes like a door.",
      "Lucía Ferrer Bosch: Did you sing while you worked?",
      "Carmen Roldán Ortiz: Coplas and habaneras, and we told each other everything that happened in the village.",
    ].join("\n");
    const interviewers = new Map([["remendar", ["Lucía Ferrer Bosch"]]]);
    const [assessed] = await assessEvidence([hit("remendar", turns, { similarity: 0.12, timed: true })], "What damaged the nets most?", {
      embedder,
      prepare,
      thresholds,
      interviewers,
    });
    expect(assessed?.sentenceSimilarity).toBeGreaterThan(0.5);
    expect(assessed?.evidence).toBe(true);
  });

  it("refuses a passage near in meaning that shares no word with the question, and a bare field for how or why", async () => {
    const [neighbour, field] = await assessEvidence(
      [
        hit("chapter", "Amphorae carried salted fish along the coast in Roman times.", { similarity: 0.55 }),
        hit("plate", "Port de la Calma, harbour dredging 1987, trench D", { similarity: 0.6 }),
      ],
      "How was the harbour dredging done in 1987?",
      { embedder, prepare, thresholds },
    );
    expect(neighbour).toMatchObject({ coverage: 0, evidence: false });
    expect(field).toMatchObject({ form: "fields", evidence: false });
    // The same field answers where.
    const [where] = await assessEvidence(
      [hit("plate", "Port de la Calma, harbour dredging 1987, trench D", { similarity: 0.6 })],
      "Where was the harbour dredging of 1987?",
      {
        embedder,
        prepare,
        thresholds,
      },
    );
    expect(where?.evidence).toBe(true);
  });

  it("reads a passage in its record: the words of the record's title count as the passage's", async () => {
    const page = "The payment will be made in two parts, half on signing and the rest when the family leaves the house.";
    const question = "How were the families of Sant Romà paid for the expropriation?";
    const [notice, other] = await assessEvidence(
      [
        hit("notice", page, { similarity: 0.35, title: "Notice to the neighbours of Sant Romà on the expropriation" }),
        hit("ledger", page, { similarity: 0.35, title: "Ledger of the boatyard" }),
      ],
      question,
      { embedder, prepare, thresholds },
    );
    expect(notice).toMatchObject({ coverage: 0.8, evidence: true });
    expect(other).toMatchObject({ coverage: 0.2, evidence: false });
  });

  it("reads a Catalan question in Spanish too, from the English the bridge made of it, so a Spanish testimony covers it", async () => {
    const calls: { texts: string[]; from: ArchiveLanguage; to: ArchiveLanguage }[] = [];
    const bridge = {
      status: async () => ({ available: true, pairs: { es: true, ca: true }, detail: "fake" }),
      // The bridge's English of both is poor: "dock" and "newspaper" are not the testimony's words.
      translateToEnglish: async (texts: string[]) =>
        texts.map((text) => (text.startsWith("Per què") ? "How come it says Carmen that the dock was the newspaper of the wives?" : "We sang")),
      translate: async (texts: string[], from: ArchiveLanguage, to: ArchiveLanguage) => {
        calls.push({ texts, from, to });
        return texts.map(() => "Por qué dice Carmen que el muelle era el periódico de las mujeres?");
      },
    };
    const catalan = { bridge, detect: async (text: string) => ({ language: text.startsWith("Per què") ? "ca" : "es", confidence: 1 }) };
    const question = "Per què diu la Carmen que el moll era el diari de les dones?";
    // An English model: the question is read in English for it, and the bridge goes on from that English.
    const reading = await readQuestion(question, createHashEmbedder({ dimension: 256, language: "en" }), catalan);
    expect(reading.translatedTerms).toEqual([["dice", "carmen", "muelle", "era", "periodico", "mujeres"]]);
    expect(calls).toEqual([{ texts: ["How come it says Carmen that the dock was the newspaper of the wives?"], from: "en", to: "es" }]);
    const testimony = hit("harbour-01", "Carmen: Nos contábamos todo lo que pasaba. El muelle era nuestro periódico.", { similarity: 0.35, timed: true });
    const [read] = await assessEvidence([testimony], question, { embedder, prepare: catalan, thresholds, reading });
    const [unread] = await assessEvidence([testimony], question, { embedder, prepare: catalan, thresholds, reading: { ...reading, translatedTerms: [] } });
    expect(read!.coverage).toBeGreaterThanOrEqual(0.6);
    expect(read!.evidence).toBe(true);
    expect(unread!.coverage).toBeLessThan(thresholds.minTermCoverage);
    expect(unread!.evidence).toBe(false);
  });
});

describe("the share of the question a passage covers", () => {
  it("counts words, or their weight when each word's rarity is known", () => {
    const terms = ["inhabitants", "port", "calma", "1950"];
    const text = "Port de la Calma in 1950 had a fleet of sixty boats.";
    expect(termCoverage(terms, text)).toBe(0.75);
    // The place is in half the archive, the thing asked about in almost none.
    const weights = new Map([
      ["inhabitants", 6],
      ["port", 0.5],
      ["calma", 0.5],
      ["1950", 2],
    ]);
    expect(termCoverage(terms, text, undefined, weights)).toBeCloseTo(3 / 9, 10);
    expect(termCoverage(terms, "It had 2,000 inhabitants.", undefined, weights)).toBeCloseTo(6 / 9, 10);
    // A translation counts as the text does; without any weight, words count alike.
    expect(termCoverage(["inhabitants"], "Tenía dos mil habitantes.", "It had two thousand inhabitants.", weights)).toBe(1);
    expect(
      termCoverage(
        ["sea", "boats"],
        "sixty boats",
        undefined,
        new Map([
          ["sea", 0],
          ["boats", 0],
        ]),
      ),
    ).toBe(0.5);
  });
});

describe("the names a question asks about", () => {
  it("are its capitalised content words after the first, folded", () => {
    expect(questionNames("How many coins of Charlemagne does the coin collection hold?")).toEqual(["charlemagne"]);
    expect(questionNames("Quin número tenia la làmpada de Joaquim Llorens?")).toEqual(["joaquim", "llorens"]);
    expect(questionNames("¿Quién era la Xata?")).toEqual(["xata"]);
    expect(questionNames("What did the lighthouse keeper burn?")).toEqual([]);
    // "The" is a stop word, not a name; the first word is capitalised by grammar alone.
    expect(questionNames("Where The Three Trees were drawn")).toEqual(["three", "trees"]);
  });
});
