import { dot } from "../../lib/rag/embed/embedder";
import { createRng, hashString, type Rng } from "../../prisma/seed/prng";

/**
 * A synthetic archive shaped like the demo, of any size, for `npm run bench:scale`: long
 * oral-history interviews, publications, people, places and catalogue objects, in English,
 * Spanish and Catalan, spread over projects so that one researcher reads about 2% of the records
 * and another about half. Deterministic: the same corpus and seed give the same archive.
 *
 * Its text is about other subjects than the demo's, so that the demo loaded inside it meets
 * distractors, not copies of its own answers: runs of sentences from SciFact's abstracts (the
 * shared evaluation data), in English and in Apertium's Spanish and Catalan (scale-corpus.ts
 * builds and keeps the corpus). Names are made of syllables no archive language uses. A record
 * keeps to one topic: its paragraphs come from the units nearest in meaning to one seed unit.
 * Every unit has the real model's vector of its English text, and a passage's vector is made
 * from the vectors of the units its sentences come from (`passageVector`): a distractor sits
 * where the model would put what it says.
 */
export type Language = "en" | "es" | "ca";
export const languages: readonly Language[] = ["en", "es", "ca"];

/** A run of consecutive sentences of one abstract, in each language, with its English text's vector. */
export interface SourceUnit {
  sentences: Record<Language, string[]>;
  vector: Float32Array;
}

export interface Corpus {
  units: SourceUnit[];
  /** Each unit's nearest units by vector, itself first (topic neighbourhoods). */
  neighbours: Uint32Array[];
  /** Every sentence of each language, for titles and queries. */
  sentences: Record<Language, string[]>;
  /** Which unit a sentence (in any language) comes from. */
  unitOf: Map<string, number>;
  /** Which unit a sentence's first and last five words come from (a passage may cut a sentence). */
  unitOfEdge: Map<string, number>;
}

const edgeWords = 5;
const firstWords = (sentence: string) => `^${sentence.split(/\s+/).slice(0, edgeWords).join(" ")}`;
const lastWords = (sentence: string) => `${sentence.split(/\s+/).slice(-edgeWords).join(" ")}$`;

/** Sentences of at least four words, split at full stops, question and exclamation marks. */
export function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.split(/\s+/).length >= 4);
}

/** Units of `size` consecutive sentences (the last one longer rather than a stub). */
export function unitsOf(sentences: readonly string[], size = 4): string[][] {
  const units: string[][] = [];
  for (let start = 0; start < sentences.length; start += size) units.push(sentences.slice(start, start + size));
  if (units.length > 1 && units[units.length - 1]!.length < size / 2) units[units.length - 2]!.push(...units.pop()!);
  return units;
}

/** The `count` nearest units of each unit by cosine (vectors are unit length), itself first. */
export function nearestUnits(vectors: readonly Float32Array[], count: number): Uint32Array[] {
  const take = Math.min(count, vectors.length);
  return vectors.map((vector, self) => {
    const scores = vectors.map((other, index) => (index === self ? Number.POSITIVE_INFINITY : dot(vector, other)));
    const order = Array.from(scores.keys()).sort((a, b) => scores[b]! - scores[a]! || a - b);
    return Uint32Array.from(order.slice(0, take));
  });
}

export function assembleCorpus(units: SourceUnit[], neighbourCount = 48): Corpus {
  const sentences: Record<Language, string[]> = { en: [], es: [], ca: [] };
  const unitOf = new Map<string, number>();
  const unitOfEdge = new Map<string, number>();
  units.forEach((unit, index) => {
    for (const language of languages) {
      sentences[language].push(...unit.sentences[language]);
      for (const sentence of unit.sentences[language]) {
        if (!unitOf.has(sentence)) unitOf.set(sentence, index);
        if (sentence.split(/\s+/).length < 2 * edgeWords) continue;
        for (const edge of [firstWords(sentence), lastWords(sentence)]) if (!unitOfEdge.has(edge)) unitOfEdge.set(edge, index);
      }
    }
  });
  return {
    units,
    neighbours: nearestUnits(
      units.map((unit) => unit.vector),
      neighbourCount,
    ),
    sentences,
    unitOf,
    unitOfEdge,
  };
}

/** How many records of each kind make about `passages` passages (an interview is about 100). */
export function planArchive(passages: number) {
  const units = Math.max(1, Math.round(passages / 100_000));
  return {
    interviews: 800 * units,
    publications: 800 * units,
    people: 2_000 * units,
    places: 1_000 * units,
    objects: 5_000 * units,
  };
}
export type RecordKind = keyof ReturnType<typeof planArchive>;

/** Paragraphs per record of each kind, so an interview is about an hour and a publication an article. */
const paragraphs: Record<RecordKind, [number, number]> = { interviews: [80, 120], publications: [8, 12], people: [1, 2], places: [1, 1], objects: [1, 1] };
/** How wide a record's topic is: the seed unit's nearest units its paragraphs are drawn from. */
const topicWidth: Record<RecordKind, number> = { interviews: 48, publications: 12, people: 3, places: 2, objects: 2 };

/** A paragraph: a run of one topic unit's sentences, sometimes followed by a sentence or two of another. */
function paragraph(rng: Rng, corpus: Corpus, topic: readonly number[], language: Language): string {
  const unit = corpus.units[rng.pick(topic)]!.sentences[language];
  const start = rng.int(0, Math.max(0, unit.length - 2));
  const own = unit.slice(start, start + rng.int(2, 5));
  const other = corpus.units[rng.pick(topic)]!.sentences[language];
  const borrowed = rng.chance(0.5) ? other.slice(0, rng.int(1, 2)) : [];
  return [...own, ...borrowed].join(" ");
}

const syllables = [
  "kha",
  "vor",
  "zen",
  "thu",
  "qwi",
  "bry",
  "dax",
  "lyr",
  "mok",
  "nyx",
  "pav",
  "sku",
  "tro",
  "vek",
  "wim",
  "yul",
  "zor",
  "gri",
  "fen",
  "hask",
  "jov",
  "kyl",
  "orv",
  "ux",
];
/** A name of syllables no archive language uses ("Zenmok Vekthuyul"), so no query names a distractor. */
export function syntheticName(rng: Rng): string {
  const word = (count: number) => {
    const text = Array.from({ length: count }, () => rng.pick(syllables)).join("");
    return text[0]!.toUpperCase() + text.slice(1);
  };
  return `${word(2)} ${word(rng.int(2, 3))}`;
}

export interface GeneratedRecord {
  kind: RecordKind;
  language: Language;
  title: string;
  /** Long text, paragraphs separated by blank lines. */
  text: string;
  /** The project's index, 0 … projects − 1. */
  project: number;
}

/** Record `index` of `kind`: its language, title, text and project, the same on every run. */
export function generateRecord(corpus: Corpus, kind: RecordKind, index: number, projects: number, seed = "mnemo-scale"): GeneratedRecord {
  const rng = createRng(`${seed}:${kind}:${index}`);
  const language = rng.weighted<Language>([
    ["en", 0.4],
    ["es", 0.35],
    ["ca", 0.25],
  ]);
  const seedUnit = rng.int(0, corpus.units.length - 1);
  const topic = Array.from(corpus.neighbours[seedUnit]!.subarray(0, topicWidth[kind]));
  const [low, high] = paragraphs[kind];
  const text = Array.from({ length: rng.int(low, high) }, () => paragraph(rng, corpus, topic, language)).join("\n\n");
  const name = syntheticName(rng);
  const firstWords = (count: number) => corpus.units[seedUnit]!.sentences[language][0]!.split(/\s+/).slice(0, count).join(" ");
  const titles: Record<RecordKind, string> = {
    interviews: `Interview ${index} with ${name}`,
    publications: `${firstWords(6)} (${index})`,
    people: `${name} ${index}`,
    places: `${name.split(" ")[1]} ${index}`,
    objects: `Object ${index}: ${firstWords(3)}`,
  };
  return { kind, language, title: titles[kind], text, project: hashString(`${seed}:project:${kind}:${index}`) % projects };
}

/**
 * The vector of a passage of the synthetic archive: the mean of the vectors of the units its
 * sentences come from (a sentence cut by the passage's start or end is known by its first or
 * last five words; the heading line the indexer puts first, "Title › Text", counts for nothing),
 * with Gaussian noise of `noise` times each dimension's spread, normalised. Null when nothing is
 * the corpus's. Deterministic per text.
 */
export function passageVector(corpus: Corpus, text: string, spread: Float32Array, noise: number): Float32Array | null {
  const firstLineEnd = text.indexOf("\n");
  const body = firstLineEnd >= 0 && text.slice(0, firstLineEnd).includes(" › ") ? text.slice(firstLineEnd + 1) : text;
  const dimension = spread.length;
  const sum = new Float32Array(dimension);
  let found = 0;
  for (const piece of body.split(/(?<=[.!?])\s+/)) {
    const sentence = piece.trim();
    const unit = corpus.unitOf.get(sentence) ?? corpus.unitOfEdge.get(firstWords(sentence)) ?? corpus.unitOfEdge.get(lastWords(sentence));
    if (unit === undefined) continue;
    const vector = corpus.units[unit]!.vector;
    for (let index = 0; index < dimension; index++) sum[index]! += vector[index]!;
    found++;
  }
  if (found === 0) return null;
  const rng = createRng(hashString(text));
  let norm = 0;
  for (let index = 0; index < dimension; index++) {
    // Box–Muller for a normal draw.
    const gaussian = Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
    const value = sum[index]! / found + gaussian * spread[index]! * noise;
    sum[index] = value;
    norm += value * value;
  }
  const scale = 1 / Math.sqrt(norm);
  for (let index = 0; index < dimension; index++) sum[index]! *= scale;
  return sum;
}

/** The projects each bench principal reads: one of fifty (2%), and twenty-five (50%). */
export const projectCount = 50;
export const readers = {
  "reader 2%": [0],
  "reader 50%": Array.from({ length: 25 }, (_, index) => index * 2),
} as const;
