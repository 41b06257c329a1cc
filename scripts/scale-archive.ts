import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createRng, hashString, type Rng } from "../prisma/seed/prng";

/**
 * A synthetic archive shaped like the demo, of any size, for `npm run bench:scale`: long
 * oral-history interviews, publications, people, places and catalogue objects, in English,
 * Spanish and Catalan, spread over projects so that one researcher reads about 2% of the records
 * and another about half. Its text is the demo's own sentences (interviews, publications,
 * biographies, place descriptions), recombined per record and with about one word in seven
 * replaced by another word of the same language drawn by its frequency in the demo, so word
 * frequencies stay Zipf-like and no two passages are copies. Deterministic: the same seed gives
 * the same archive on every machine.
 */
export type Language = "en" | "es" | "ca";
export const languages: readonly Language[] = ["en", "es", "ca"];

export interface Corpus {
  sentences: Record<Language, string[]>;
  /** Words of each language, repeated by their frequency in the demo (a draw is by frequency). */
  words: Record<Language, string[]>;
  names: string[];
}

interface DemoTurn {
  text: string;
}
interface DemoInterview {
  language: Language;
  summary: string;
  turns: DemoTurn[];
}
interface DemoPublication {
  language: Language;
  abstract?: string;
  body?: unknown;
}

/** Sentences of at least four words, split at full stops, question and exclamation marks. */
export function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.split(/\s+/).length >= 4);
}

function textsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(textsOf);
  if (value && typeof value === "object") return Object.values(value).flatMap(textsOf);
  return [];
}

/** The demo's texts by language (seed data under prisma/seed/data). */
export function loadCorpus(dataDir = join(process.cwd(), "prisma", "seed", "data")): Corpus {
  const sentences: Record<Language, string[]> = { en: [], es: [], ca: [] };
  const read = <T>(path: string) => JSON.parse(readFileSync(join(dataDir, path), "utf8")) as T;
  for (const interview of read<DemoInterview[]>("oral-histories/interviews.json")) {
    sentences[interview.language]?.push(...sentencesOf(interview.summary), ...interview.turns.flatMap((turn) => sentencesOf(turn.text)));
  }
  for (const publication of read<DemoPublication[]>("publications/publications.json")) {
    sentences[publication.language]?.push(...textsOf([publication.abstract, publication.body]).flatMap(sentencesOf));
  }
  const people = read<{ name: string; biography?: string }[]>("oral-histories/people.json");
  for (const person of people) sentences.en.push(...sentencesOf(person.biography ?? ""));
  for (const place of read<{ description?: string }[]>("oral-histories/places.json")) sentences.en.push(...sentencesOf(place.description ?? ""));
  const words = Object.fromEntries(
    languages.map((language) => [language, sentences[language].flatMap((sentence) => sentence.split(/\s+/).filter((word) => /^\p{L}{3,}$/u.test(word)))]),
  ) as Record<Language, string[]>;
  return { sentences, words, names: people.map((person) => person.name) };
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

function paragraph(rng: Rng, corpus: Corpus, language: Language): string {
  const pool = corpus.sentences[language];
  const words = corpus.words[language];
  const count = rng.int(3, 5);
  return Array.from({ length: count }, () =>
    rng
      .pick(pool)
      .split(/\s+/)
      .map((word) => (/^\p{L}{3,}$/u.test(word) && rng.chance(1 / 7) ? rng.pick(words) : word))
      .join(" "),
  ).join(" ");
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
  const language = rng.weighted<Language>([["en", 0.4], ["es", 0.35], ["ca", 0.25]]);
  const [low, high] = paragraphs[kind];
  const text = Array.from({ length: rng.int(low, high) }, () => paragraph(rng, corpus, language)).join("\n\n");
  const name = `${rng.pick(corpus.names)} ${index}`;
  const titles: Record<RecordKind, string> = {
    interviews: `Interview ${index} with ${name}`,
    publications: `${rng.pick(corpus.sentences[language]).split(/\s+/).slice(0, 6).join(" ")} (${index})`,
    people: name,
    places: `${rng.pick(corpus.words[language])} ${index}`,
    objects: `Object ${index}: ${rng.pick(corpus.words[language])}`,
  };
  return { kind, language, title: titles[kind], text, project: hashString(`${seed}:project:${kind}:${index}`) % projects };
}

/** The projects each bench principal reads: one of fifty (2%), and twenty-five (50%). */
export const projectCount = 50;
export const readers = {
  "reader 2%": [0],
  "reader 50%": Array.from({ length: 25 }, (_, index) => index * 2),
} as const;
