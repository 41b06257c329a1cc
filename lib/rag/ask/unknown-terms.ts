import "server-only";
import type { Principal } from "../../acl";
import type { SqlExecutor } from "../../db/sql-executor";
import { findHighlights, foldWord, wordMatches } from "../search/highlight";
import { readableKeywordStatistics } from "../search/retrieve-passages";
import type { QuestionReading } from "./assess-evidence";

/**
 * Each word's lexemes as the keyword leg indexes it (English stem, Spanish stem, as written,
 * accent-folded); a stop word for either stemmer carries no content of its own.
 */
async function termLexemes(sql: SqlExecutor, terms: readonly string[]): Promise<{ term: string; lexemes: string[]; stopWord: boolean }[]> {
  const rows = await sql.query<{ term: string; english: string[]; spanish: string[]; simple: string[] }>(
    `SELECT t.term,
            tsvector_to_array(to_tsvector('english', unaccent(t.term))) AS english,
            tsvector_to_array(to_tsvector('spanish', unaccent(t.term))) AS spanish,
            tsvector_to_array(to_tsvector('simple', unaccent(t.term))) AS simple
       FROM unnest($1::text[]) AS t(term)`,
    [[...terms]],
  );
  return rows.map((row) => ({
    term: row.term,
    lexemes: [...row.english, ...row.spanish, ...row.simple],
    stopWord: row.english.length === 0 || row.spanish.length === 0,
  }));
}

/**
 * The names the question asks about that no record the principal may read contains: not in any
 * retrieved passage (its text or translation, by the highlighter's light stem rule) and none of
 * the word's lexemes (English and Spanish stems, the word as written) in the readable keyword
 * statistics of the space. A question about someone or something the records never name —
 * Charlemagne's coins in a collection without one, a miner no readable interview mentions — is
 * refused even when passages about the rest of it come close: they cannot carry its answer.
 *
 * Only names count (capitalised words after the question's first): on the full demo's dev half,
 * refusing for any unknown word also refused answerable questions that say "technique" where
 * the record says "Medium". Words that are stop words for the English or Spanish stemmer are
 * never unknown. Statistics cover only what the principal may read, so a name found only in
 * records they cannot open is unknown to them as to anyone outside those projects (denied ≡ missing).
 */
export async function unknownQuestionTerms(
  sql: SqlExecutor,
  principal: Principal,
  spaceId: string,
  reading: QuestionReading,
  passages: readonly { text: string; translatedText: string | null }[],
): Promise<string[]> {
  const words = reading.names;
  if (words.length === 0) return [];
  const inPassages = (term: string) =>
    passages.some((passage) =>
      [passage.text, passage.translatedText ?? ""].some((text) =>
        findHighlights(text, [term]).some((range) => wordMatches(foldWord(text.slice(range.start, range.end)), term)),
      ),
    );
  const unseen = words.filter((term) => !inPassages(term));
  if (unseen.length === 0) return [];
  const rows = await termLexemes(sql, unseen);
  const informative = rows.filter((row) => !row.stopWord);
  const lexemes = [...new Set(informative.flatMap((row) => row.lexemes))];
  if (lexemes.length === 0) return [];
  const { df } = await readableKeywordStatistics(sql, principal, spaceId, lexemes);
  const unknown = new Set(informative.filter((row) => row.lexemes.every((lexeme) => (df.get(lexeme) ?? 0) === 0)).map((row) => row.term));
  return words.filter((word) => unknown.has(word));
}

/**
 * Each term's inverse document frequency over the passages the principal may read (BM25's idf,
 * from the same per-scope statistics as the keyword leg): the word in its commonest reading
 * (English stem, Spanish stem or as written). A word no readable passage holds weighs most; a
 * stop word of either stemmer weighs nothing. Like every corpus statistic, it never counts text
 * the principal cannot read.
 */
export async function readableTermWeights(sql: SqlExecutor, principal: Principal, spaceId: string, terms: readonly string[]): Promise<Map<string, number>> {
  const unique = [...new Set(terms)];
  if (unique.length === 0) return new Map();
  const rows = await termLexemes(sql, unique);
  const lexemes = [...new Set(rows.flatMap((row) => row.lexemes))];
  const { df, corpus } = await readableKeywordStatistics(sql, principal, spaceId, lexemes);
  const n = corpus.passages;
  return new Map(
    rows.map((row) => {
      if (row.stopWord) return [row.term, 0] as const;
      const frequency = Math.max(0, ...row.lexemes.map((lexeme) => df.get(lexeme) ?? 0));
      return [row.term, Math.log(1 + (n - frequency + 0.5) / (frequency + 0.5))] as const;
    }),
  );
}
