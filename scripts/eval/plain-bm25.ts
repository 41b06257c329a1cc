/**
 * Plain BM25, the reference the keyword leg is held to on a BEIR corpus (eval:retrieval
 * --keyword-only): each document whole (title and text as one field, as BEIR's Elasticsearch
 * baseline indexes them), PostgreSQL's english configuration for words (stemmed, stop words
 * out, the same analyser the product's English passages use), no passages, no bridge, no access
 * scopes, no candidate budget. It runs on the same queries and halves as the product's leg, so
 * the two figures compare like for like — unlike the published SciFact figure (0.665), which is
 * on BEIR's test split, with other queries.
 */
import type { SqlExecutor } from "../../lib/db/sql-executor";
import { type Bm25Parameters, bm25Idf, bm25Term } from "../../lib/rag/search/bm25";

export interface PlainDocument {
  id: string;
  title: string;
  text: string;
}

export interface PlainBm25Index {
  ids: string[];
  lengths: number[];
  averageLength: number;
  /** lexeme → [document index, tf] pairs */
  postings: Map<string, [number, number][]>;
}

/** Documents through to_tsvector('english', title + text), in batches; lengths count every position. */
export async function buildPlainBm25(sql: SqlExecutor, documents: readonly PlainDocument[], batch = 250): Promise<PlainBm25Index> {
  const ids = documents.map((document) => document.id);
  const lengths = new Array<number>(documents.length).fill(0);
  const postings = new Map<string, [number, number][]>();
  for (let start = 0; start < documents.length; start += batch) {
    const texts = documents.slice(start, start + batch).map((document) => `${document.title}\n${document.text}`);
    const rows = await sql.query<{ i: number; lexeme: string; tf: number }>(
      `SELECT d.i::int AS i, u.lexeme, cardinality(u.positions)::int AS tf
         FROM unnest($1::text[]) WITH ORDINALITY AS d(t, i)
         CROSS JOIN LATERAL unnest(to_tsvector('english', d.t)) AS u`,
      [texts],
    );
    for (const row of rows) {
      const at = start + Number(row.i) - 1;
      const tf = Number(row.tf);
      lengths[at] = (lengths[at] ?? 0) + tf;
      const list = postings.get(row.lexeme) ?? [];
      list.push([at, tf]);
      postings.set(row.lexeme, list);
    }
  }
  const total = lengths.reduce((sum, length) => sum + length, 0);
  return { ids, lengths, averageLength: documents.length > 0 ? Math.max(1, total / documents.length) : 1, postings };
}

/** The query's distinct lexemes under the same analyser. */
export async function plainQueryLexemes(sql: SqlExecutor, query: string): Promise<string[]> {
  const rows = await sql.query<{ lexeme: string }>(`SELECT u.lexeme FROM unnest(to_tsvector('english', $1)) AS u ORDER BY u.lexeme`, [query]);
  return rows.map((row) => row.lexeme);
}

/** Documents ranked by BM25 for the lexemes (ties by id), at most `depth`. */
export function rankPlainBm25(index: PlainBm25Index, lexemes: readonly string[], parameters: Bm25Parameters, depth = 100): string[] {
  const scores = new Map<number, number>();
  const documents = index.ids.length;
  for (const lexeme of new Set(lexemes)) {
    const list = index.postings.get(lexeme);
    if (!list) continue;
    const idf = bm25Idf(documents, list.length);
    for (const [at, tf] of list) {
      scores.set(at, (scores.get(at) ?? 0) + bm25Term({ tf, idf, length: index.lengths[at] ?? 0, averageLength: index.averageLength }, parameters));
    }
  }
  return [...scores]
    .sort((a, b) => b[1] - a[1] || ((index.ids[a[0]] ?? "") < (index.ids[b[0]] ?? "") ? -1 : 1))
    .slice(0, depth)
    .map(([at]) => index.ids[at] ?? "");
}
