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

export const defaultBm25: Readonly<Bm25Parameters> = { k1: 1.2, b: 0.75 };

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
  const sums = new Map<string, number>();
  for (const lexeme of new Set(forms.map((form) => form.lexeme))) {
    const root = find(lexeme);
    sums.set(root, (sums.get(root) ?? 0) + Math.max(0, documentFrequencies.get(lexeme) ?? 0));
  }
  return new Map([...parent.keys()].map((lexeme) => [lexeme, Math.min(sums.get(find(lexeme)) ?? 0, Math.max(0, passages))]));
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
