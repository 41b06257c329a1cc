import { describe, expect, it } from "vitest";
import { assertChunkInvariants, expectedCitationText } from "./assert-chunk-invariants";
import { CHUNKING_MODES, chunkDocument, countTokens, splitSentences, type ChunkOptions } from "./index";
import { mulberry32 } from "../../../tests/support/seeded-random";

/** A seeded PRNG, so a failing case can be replayed from its seed. */
function seededRandom(seed: number) {
  const next = mulberry32(seed);
  const integer = (low: number, high: number) => low + Math.floor(next() * (high - low + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  return { next, integer, pick };
}
type Random = ReturnType<typeof seededRandom>;

const WORDS = [
  "som",
  "a",
  "Vilanova",
  "l'any",
  "1962",
  "fàbrica",
  "col·lecció",
  "telers",
  "germà",
  "excavation",
  "pottery",
  "trench",
  "¿Qué",
  "pasó?",
  "¡Ay!",
  "«No»",
  "«Vine.»",
  "Dr.",
  "Sr.",
  "Sra.",
  "núm.",
  "p.",
  "4.41",
  "g",
  "etc.",
  "e.g.",
  "J.",
  "R.",
  "...",
  "…",
  "—",
  "(sic)",
  "St.",
  "Marta",
  "Puig:",
  "interdisciplinary",
  "arqueològic",
  "Geltrú,",
  "1.000.000",
  "10\u00a0km",
  "🙂",
  "𝐀𝐁𝐂",
  "#5",
  "[[page:x]]",
  "mid[[turn:1-2]]line",
  "niño",
  "Ñandú",
];
const SPEAKERS = ["Marta Puig: ", "Joan Roca: ", "Entrevistadora: ", "", "Sr. Vidal: "];

function sentence(random: Random): string {
  if (random.next() < 0.03) return `https://arxiu.example.cat/${"fons/".repeat(random.integer(5, 80))}`;
  const words = Array.from({ length: random.integer(1, 24) }, () => random.pick(WORDS));
  const text = words.join(random.next() < 0.1 ? "  " : " ");
  return `${random.pick(["", "", "¿", "¡", "«", "—"])}${text}${random.pick([".", ".", ".", "?", "!", "…", "...", "", ".»", "?»"])}`;
}

function paragraph(random: Random): string {
  const sentences = Array.from({ length: random.integer(1, 6) }, () => sentence(random));
  return sentences.join(random.next() < 0.2 ? "\n" : " ");
}

function generateDocument(random: Random): string {
  const lines: string[] = [];
  let time = 0;
  const blocks = random.integer(0, 30);
  for (let index = 0; index < blocks; index += 1) {
    const roll = random.next();
    if (roll < 0.12) lines.push(`${"#".repeat(random.integer(1, 6))} ${random.pick(["Text", "Transcript", "1. Methods", "2.1 Survey", "Notes"])}`);
    else if (roll < 0.22) lines.push(`[[page:${random.integer(1, 400)}]]`);
    else if (roll < 0.55) {
      const start = time;
      time += random.integer(1, 9000) / 1000;
      const text = random.next() < 0.05 ? "" : paragraph(random);
      lines.push(`[[turn:${start}-${time}]] ${random.pick(SPEAKERS)}${text}`);
      if (random.next() < 0.1) lines.push(sentence(random));
    } else if (roll < 0.62) lines.push(random.pick(["", "", "   ", "\t", "#hashtag line", "####### seven hashes"]));
    else lines.push(`${random.pick(["", "", "  ", "\t"])}${paragraph(random)}`);
    if (random.next() < 0.5) lines.push("");
  }
  const document = lines.join("\n");
  return random.next() < 0.15 ? document.replace(/\n/g, "\r\n") : document;
}

function generateOptions(random: Random): ChunkOptions {
  const maxTokens = random.integer(16, 120);
  return {
    mode: random.pick(CHUNKING_MODES),
    maxTokens,
    minTokens: random.next() < 0.3 ? 0 : random.integer(0, Math.min(maxTokens - 1, 40)),
    overlap: random.next() < 0.5 ? 0 : random.integer(0, Math.ceil(maxTokens / 2) - 1),
  };
}

// 400 generated documents per property: about two seconds alone, several on a busy machine, so
// the bound is generous (a wall-clock limit here measures the machine, not the chunker).
describe("chunkDocument over generated documents", { timeout: 60_000 }, () => {
  it("loses no text, respects boundaries and bounds, and cites exact offsets", () => {
    for (let seed = 1; seed <= 400; seed += 1) {
      const random = seededRandom(seed);
      const document = generateDocument(random);
      const options = generateOptions(random);
      const chunks = chunkDocument(document, options);
      try {
        assertChunkInvariants(document, options, chunks);
        expect(chunkDocument(document, options)).toEqual(chunks);
      } catch (error) {
        throw new Error(`seed ${seed}, options ${JSON.stringify(options)}: ${String(error)}`, { cause: error });
      }
    }
  });

  it("leaves a chunk under minTokens only where it cannot join its neighbour within maxTokens", () => {
    for (let seed = 1; seed <= 400; seed += 1) {
      const random = seededRandom(seed);
      const document = generateDocument(random);
      const options = { ...generateOptions(random), overlap: 0 };
      const chunks = chunkDocument(document, options);
      const sameSection = (a: (typeof chunks)[number], b: (typeof chunks)[number]) =>
        !/^(#{1,6}[ \t]|[ \t]*\[\[page:\d+\]\][ \t]*\r?$)/m.test(document.slice(a.endOffset, b.startOffset));
      chunks.forEach((chunk, index) => {
        if (chunk.tokenCount >= options.minTokens) return;
        const previous = chunks[index - 1];
        const next = chunks[index + 1];
        const neighbour = previous && sameSection(previous, chunk) ? previous : next && sameSection(chunk, next) ? next : null;
        if (!neighbour) return;
        const [first, second] = neighbour === previous ? [neighbour, chunk] : [chunk, neighbour];
        const joined = countTokens(expectedCitationText(document, first.startOffset, second.endOffset));
        expect(joined, `seed ${seed}, chunk ${index}`).toBeGreaterThan(options.maxTokens);
      });
    }
  });
});

describe("splitSentences over generated text", () => {
  it("returns ordered, disjoint, trimmed ranges holding every non-whitespace character", () => {
    for (let seed = 1; seed <= 300; seed += 1) {
      const random = seededRandom(seed);
      const text = Array.from({ length: random.integer(0, 8) }, () => paragraph(random)).join(random.pick([" ", "\n", "\n\n", " \n \n "]));
      const ranges = splitSentences(text);
      let covered = "";
      ranges.forEach((range, index) => {
        expect(range.start).toBeGreaterThanOrEqual(ranges[index - 1]?.end ?? 0);
        expect(range.end).toBeGreaterThan(range.start);
        expect(text.slice(range.start, range.end)).toBe(text.slice(range.start, range.end).trim());
        covered += text.slice(range.start, range.end);
      });
      expect(covered.replace(/\s+/g, "")).toBe(text.replace(/\s+/g, ""));
    }
  });
});
