import { searchSettings } from "../config/settings";

/**
 * Okapi BM25, the keyword leg's scoring, as pure functions: the SQL of keywordLeg
 * (retrieve-passages.ts) computes the same sum, and the tests hold the two to each other.
 *
 *   score(passage) = Σ over query lexemes  idf · tf · (k1 + 1) / (tf + k1 · (1 − b + b · dl / avgdl))
 *   idf            = ln(1 + (N − df + 0.5) / (df + 0.5))
 *
 * N, df and avgdl are taken over the passages the principal may read (their access scopes'
 * statistics, kept at index time), never over the whole space. tf counts a lexeme's positions
 * in the passage's search vector, in the original text (weight A) and in its bridge translation
 * (weight B) alike; dl counts every position (chunks.lexeme_count).
 */
export interface Bm25Parameters {
  /** Term-frequency saturation: 0 counts presence only; larger lets repeats count longer. */
  k1: number;
  /** Length normalisation: 0 none, 1 full. */
  b: number;
}

export const defaultBm25: Readonly<Bm25Parameters> = { k1: searchSettings.bm25K1.value, b: searchSettings.bm25B.value };

export interface CorpusStatistics {
  /** Passages the principal may read in the space. */
  passages: number;
  /** Their total length (lexeme occurrences). */
  totalLength: number;
}

export function averageLength(corpus: CorpusStatistics): number {
  return corpus.passages > 0 && corpus.totalLength > 0 ? corpus.totalLength / corpus.passages : 1;
}

/** Inverse document frequency; always positive, and 0 for a lexeme no readable passage has. */
export function bm25Idf(passages: number, documentFrequency: number): number {
  if (!(documentFrequency > 0) || !(passages > 0)) return 0;
  const df = Math.min(documentFrequency, passages);
  return Math.log(1 + (passages - df + 0.5) / (df + 0.5));
}

/** One lexeme's contribution to a passage's score. */
export function bm25Term(input: { tf: number; idf: number; length: number; averageLength: number }, parameters: Bm25Parameters = defaultBm25): number {
  const { tf, idf } = input;
  if (!(tf > 0) || !(idf > 0)) return 0;
  const { k1, b } = parameters;
  const norm = k1 * (1 - b + (b * Math.max(0, input.length)) / Math.max(input.averageLength, Number.MIN_VALUE));
  return (idf * tf * (k1 + 1)) / (tf + norm);
}

/** A passage's score: its lexemes' term frequencies, their document frequencies, its length. */
export function bm25Score(
  passage: { length: number; tf: ReadonlyMap<string, number> },
  documentFrequencies: ReadonlyMap<string, number>,
  corpus: CorpusStatistics,
  parameters: Bm25Parameters = defaultBm25,
): number {
  const avgdl = averageLength(corpus);
  let score = 0;
  for (const [lexeme, df] of documentFrequencies) {
    score += bm25Term({ tf: passage.tf.get(lexeme) ?? 0, idf: bm25Idf(corpus.passages, df), length: passage.length, averageLength: avgdl }, parameters);
  }
  return score;
}

/**
 * Each query lexeme's document frequency as its word's: a word searched in several analyses (an
 * English stem, a Spanish stem, the word as written) is one word, so its forms' frequencies add
 * up (capped at N) and every form gets the sum. Counted per form, the Spanish stem of an English
 * word ("canc" for "cancer") is rare — only the few passages indexed as Spanish have it — and so
 * weighted as a rare word: on SciFact, English abstracts detected as Spanish topped queries
 * through such stems (report half nDCG@10 0.694 with per-form frequencies, 0.706 for the same
 * passages scored with English stems alone). Forms are joined when one word gives each of them
 * as its only lexeme in some analysis; a word split into parts ("day-old" → "day-old", "day",
 * "old") joins none of its parts, which stay words of their own.
 */
export function wordDocumentFrequencies(
  forms: readonly { word: string; lexeme: string; single: boolean }[],
  documentFrequencies: ReadonlyMap<string, number>,
  passages: number,
): Map<string, number> {
  const groups = wordGroups(forms);
  const sums = new Map<string, number>();
  for (const [lexeme, group] of groups) sums.set(group, (sums.get(group) ?? 0) + Math.max(0, documentFrequencies.get(lexeme) ?? 0));
  return new Map([...groups].map(([lexeme, group]) => [lexeme, Math.min(sums.get(group) ?? 0, Math.max(0, passages))]));
}

/**
 * Each lexeme's word: the forms of one query word (and of words that share a form) get the same
 * key, its alphabetically first lexeme (see wordDocumentFrequencies for which forms are joined).
 */
export function wordGroups(forms: readonly { word: string; lexeme: string; single: boolean }[]): Map<string, string> {
  const parent = new Map<string, string>();
  const find = (lexeme: string): string => {
    let root = lexeme;
    while (parent.has(root) && parent.get(root) !== root) root = parent.get(root)!;
    parent.set(lexeme, root);
    return root;
  };
  const union = (a: string, b: string) => {
    const [x, y] = [find(a), find(b)];
    if (x !== y) parent.set(x < y ? y : x, x < y ? x : y);
  };
  const firstOf = new Map<string, string>();
  for (const form of forms) {
    find(form.lexeme);
    if (!form.single) continue;
    const first = firstOf.get(form.word);
    if (first === undefined) firstOf.set(form.word, form.lexeme);
    else union(first, form.lexeme);
  }
  return new Map([...parent.keys()].map((lexeme) => [lexeme, find(lexeme)]));
}

export interface KeywordTerm {
  lexeme: string;
  df: number;
  idf: number;
  /** Brings in candidates through the GIN index (else it only adds to their scores). */
  selects: boolean;
}

/**
 * Which lexemes select candidates: the rarest first, while their document frequencies together
 * stay within the budget; always at least the rarest. Lexemes no readable passage has are left
 * out.
 */
export function selectTerms(terms: readonly { lexeme: string; df: number; idf: number }[], budget: number): KeywordTerm[] {
  const sorted = [...terms].filter((term) => term.df > 0).sort((a, b) => a.df - b.df || a.lexeme.localeCompare(b.lexeme));
  let used = 0;
  return sorted.map((term, index) => {
    const selects = index === 0 || used + term.df <= budget;
    if (selects) used += term.df;
    return { ...term, selects };
  });
}

/** Validated parameters: a k1 in [0, 10] and a b in [0, 1], else the defaults' values. */
export function bm25Parameters(input: Partial<Bm25Parameters> = {}): Bm25Parameters {
  const k1 = input.k1 ?? defaultBm25.k1;
  const b = input.b ?? defaultBm25.b;
  if (!Number.isFinite(k1) || k1 < 0 || k1 > 10) throw new Error(`BM25 k1 must be between 0 and 10, got ${k1}`);
  if (!Number.isFinite(b) || b < 0 || b > 1) throw new Error(`BM25 b must be between 0 and 1, got ${b}`);
  return { k1, b };
}

/** How the keyword leg brings in its candidates: the GIN index's tsquery, and at most how many it scores. */
export interface CandidateSelection {
  terms: KeywordTerm[];
  /** The tsquery (as text) the candidates must match. */
  tsquery: string;
  /** Set when the query's words are all too common for the budget: the leg scores at most this many of the passages the tsquery matches. */
  cap: number | null;
  /** When the tsquery asks for several words together: the tsquery to score as well (under the same cap) if that finds less than a page. */
  fallback: string | null;
}

/** Quotes a lexeme for tsquery input: 'it''s' — never parsed as operators. */
export function tsqueryLiteral(lexeme: string): string {
  return `'${lexeme.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;
}

function combinations<T>(items: readonly T[], k: number): T[][] {
  if (k === 0) return [[]];
  return items.flatMap((item, index) => combinations(items.slice(index + 1), k - 1).map((rest) => [item, ...rest]));
}

/**
 * The candidates of a keyword query. While its rarest lexeme is within the budget, the rarest
 * lexemes bring in candidates, as selectTerms chooses (each passage that has one of them).
 *
 * Beyond it — at a million passages every word of "libros subasta Cofradía Pescadores" is in
 * thousands of passages, and scoring the 156,000 that have "trabajo" took 7 s — the candidates
 * are the passages that have two of a line's four rarest words (any form of each), or three, or
 * all four: the fewest whose combinations would stay within the budget were the words
 * independent. Those are the passages BM25 ranks first anyway: one common word scores less than
 * two. The lines of a query are its phrasings (the query and its bridge translation), so a word
 * is only combined with words of its own line. When that finds less than a page, the fallback
 * adds the passages that have a line's rarest word.
 *
 * A query of one word per line has no such shortcut. Past the budget, the leg scores at most
 * `budget` of the passages a selection matches (in storage order, not by relevance): the estimate
 * assumes words that do not go together, and a single common word has no better bound.
 */
export function selectCandidates(
  terms: readonly { lexeme: string; df: number; idf: number; word: string; lines: readonly number[] }[],
  budget: number,
  passages: number,
): CandidateSelection {
  const selected = selectTerms(terms, budget);
  const literal = (lexemes: readonly string[]) => lexemes.map(tsqueryLiteral).join(" | ");
  if (selected.length === 0 || selected[0]!.df <= budget) {
    return { terms: selected, tsquery: literal(selected.filter((term) => term.selects).map((term) => term.lexeme)), cap: null, fallback: null };
  }
  const cap = budget;
  const n = Math.max(1, passages);
  const byWord = new Map<string, { lexemes: string[]; df: number; lines: Set<number> }>();
  for (const term of selected) {
    const source = terms.find((candidate) => candidate.lexeme === term.lexeme)!;
    const entry = byWord.get(source.word) ?? byWord.set(source.word, { lexemes: [], df: 0, lines: new Set() }).get(source.word)!;
    entry.lexemes.push(term.lexeme);
    entry.df = Math.min(n, entry.df + term.df);
    for (const line of source.lines) entry.lines.add(line);
  }
  const lines = [...new Set([...byWord.values()].flatMap((word) => [...word.lines]))].sort((a, b) => a - b);
  const wordsOn = (line: number) =>
    [...byWord.values()].filter((word) => word.lines.has(line)).sort((a, b) => a.df - b.df || a.lexemes[0]!.localeCompare(b.lexemes[0]!));
  const rarest = [...new Set(lines.map((line) => wordsOn(line)[0]!))];
  const disjunction = literal(rarest.flatMap((word) => word.lexemes));
  const conjunctions: (typeof rarest)[] = [];
  for (const line of lines) {
    const words = wordsOn(line).slice(0, 4);
    if (words.length < 2) continue;
    const estimate = (k: number) => combinations(words, k).reduce((sum, group) => sum + group.reduce((product, word) => product * (word.df / n), n), 0);
    let k = 2;
    while (k < words.length && estimate(k) > budget) k += 1;
    conjunctions.push(...combinations(words, k));
  }
  const uses = (groups: readonly (typeof rarest)[]) => new Set(groups.flat().flatMap((word) => word.lexemes));
  if (conjunctions.length === 0) {
    const selecting = uses([rarest]);
    return { terms: selected.map((term) => ({ ...term, selects: selecting.has(term.lexeme) })), tsquery: disjunction, cap, fallback: null };
  }
  const tsquery = [...new Set(conjunctions.map((group) => `(${group.map((word) => `(${literal(word.lexemes)})`).join(" & ")})`))].join(" | ");
  const selecting = uses(conjunctions);
  return { terms: selected.map((term) => ({ ...term, selects: selecting.has(term.lexeme) })), tsquery, cap, fallback: disjunction };
}
