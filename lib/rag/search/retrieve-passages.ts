import "server-only";
import pgvector from "pgvector";
import { type Principal, accessScopeSql, canReadPassage, passageScopeSql } from "../../acl";
import { getConfig } from "../../config";
import type { SqlExecutor } from "../../db/sql-executor";
import type { IndexSpace } from "../index/index-spaces";
import { type Bm25Parameters, type CorpusStatistics, averageLength, bm25Idf, bm25Parameters, selectTerms } from "./bm25";

/**
 * The two retrieval legs over passages of one index space. Access is part of each query
 * (host and contributing projects), so a principal who sees a small part of the archive still
 * gets a full page: the dense leg lets HNSW keep scanning (iterative scan) until enough
 * permitted rows are found. Results are gated again before they leave this module.
 */
export interface PassageHit {
  chunkId: string;
  recordId: string;
  projectId: string;
  contributingProjectIds: string[];
  /** Cosine similarity (dense) or BM25 over the principal's readable passages (keyword). */
  score: number;
}

export interface LegOptions {
  space: Pick<IndexSpace, "id" | "dimension">;
  limit: number;
  /** Restrict to these section ids. */
  sectionIds?: string[];
  /** Restrict to records of these projects (a filter; access is enforced regardless). */
  projectIds?: string[];
  /** Restrict to one embed group (a facet such as "profession"). */
  embedGroupId?: string;
  /** Leave out passages of this record (find similar). */
  excludeRecordId?: string;
  /** Only passages of these records (a question about the current search results). */
  recordIds?: string[];
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function checkSpace(space: LegOptions["space"]): void {
  // Literals below (the partial index's predicate and the vector cast) cannot be parameters.
  if (!uuidPattern.test(space.id)) throw new Error(`unexpected index space id: ${space.id}`);
  if (!Number.isInteger(space.dimension) || space.dimension < 1 || space.dimension > 4000) throw new Error(`bad dimension ${space.dimension}`);
}

function filters(alias: string, options: LegOptions, params: unknown[]): string[] {
  const where: string[] = [];
  if (options.sectionIds?.length) {
    params.push(options.sectionIds);
    where.push(`${alias}.section_id = ANY($${params.length}::text[])`);
  }
  if (options.projectIds?.length) {
    params.push(options.projectIds);
    where.push(`${alias}.project_id = ANY($${params.length}::text[])`);
  }
  if (options.embedGroupId) {
    params.push(options.embedGroupId);
    where.push(`${alias}.embed_group_id = $${params.length}`);
  }
  if (options.recordIds) {
    params.push(options.recordIds);
    where.push(`${alias}.record_id = ANY($${params.length}::text[])`);
  }
  if (options.excludeRecordId) {
    params.push(options.excludeRecordId);
    where.push(`${alias}.record_id <> $${params.length}`);
  }
  return where;
}

type Row = { id: string; record_id: string; project_id: string; contributing_project_ids: string[]; score: number };

function gate(principal: Principal, rows: Row[]): PassageHit[] {
  return rows
    .map((row) => ({ chunkId: row.id, recordId: row.record_id, projectId: row.project_id, contributingProjectIds: row.contributing_project_ids, score: Number(row.score) }))
    .filter((hit) => canReadPassage(principal, hit));
}

export async function denseLeg(
  sql: SqlExecutor,
  principal: Principal,
  vector: Float32Array | number[],
  options: LegOptions & { efSearch?: number },
): Promise<PassageHit[]> {
  checkSpace(options.space);
  const limit = Math.max(1, Math.min(200, Math.trunc(options.limit)));
  const efSearch = Math.max(limit, Math.min(1000, Math.trunc(options.efSearch ?? 100)));
  const cast = `vector(${options.space.dimension})`;
  const params: unknown[] = [pgvector.toSql(Array.from(vector))];
  const where = [`c.index_space_id = '${options.space.id}'`, `c.embedding IS NOT NULL`, passageScopeSql(principal, "c", params), ...filters("c", options, params)];
  params.push(limit);
  return sql.transaction(async (tx) => {
    await tx.exec(`SET LOCAL hnsw.ef_search = ${efSearch}; SET LOCAL hnsw.iterative_scan = relaxed_order;`);
    // relaxed_order may return rows slightly out of order: sort the page again by distance.
    const rows = await tx.query<Row>(
      `SELECT * FROM (
         SELECT c.id, c.record_id, c.project_id, c.contributing_project_ids, 1 - (c.embedding::${cast} <=> $1::${cast}) AS score
           FROM chunks c
          WHERE ${where.join(" AND ")}
          ORDER BY c.embedding::${cast} <=> $1::${cast}
          LIMIT $${params.length}
       ) page ORDER BY page.score DESC, page.id`,
      params,
    );
    return gate(principal, rows);
  });
}

/** Quotes a lexeme for tsquery input: 'it''s' — never parsed as operators. */
export function tsqueryLiteral(lexeme: string): string {
  return `'${lexeme.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;
}

/** Quotes, a leading minus or OR: the user wrote search syntax, so every condition must hold. */
export function usesSearchSyntax(query: string): boolean {
  return /"|(^|\s)-\S|\sOR\s/.test(query);
}

/** Keyword-leg tuning; unset fields come from the environment (MNEMO_BM25_K1, MNEMO_BM25_B). */
export interface KeywordOptions extends LegOptions {
  bm25?: Partial<Bm25Parameters>;
  /**
   * How many passages the rarest lexemes may bring in as candidates (the sum of their document
   * frequencies). Lexemes beyond it still score the candidates but bring in none of their own:
   * a word in most passages would otherwise make every query read most of the space.
   */
  candidateBudget?: number;
}

export const defaultCandidateBudget = 4000;

/** The query's lexemes: English and Spanish stems and the words as written, accent-folded. */
async function queryLexemes(sql: SqlExecutor, query: string): Promise<string[]> {
  const [row] = await sql.query<{ lexemes: string[] | null }>(
    `SELECT array_agg(DISTINCT lexeme ORDER BY lexeme) AS lexemes FROM unnest(tsvector_to_array(
       to_tsvector('english', unaccent($1)) || to_tsvector('spanish', unaccent($1)) || to_tsvector('simple', unaccent($1))
     )) AS lexeme`,
    [query],
  );
  return (row?.lexemes ?? []).slice(0, 48);
}

/**
 * N, total length and each lexeme's document frequency over the access scopes the principal may
 * read (all of them for an admin): read from the statistics kept at index time, a few index
 * lookups, never a count over passages.
 */
export async function readableKeywordStatistics(
  sql: SqlExecutor,
  principal: Principal,
  spaceId: string,
  lexemes: readonly string[],
): Promise<{ corpus: CorpusStatistics; df: Map<string, number> }> {
  const params: unknown[] = [spaceId, [...lexemes]];
  const scope = accessScopeSql(principal, "s.project_ids", params);
  const rows = await sql.query<{ lexeme: string | null; df: number; passages: number; total_length: number }>(
    `WITH readable AS (
       SELECT s.scope_key, s.passages, s.total_length FROM keyword_scope_stats s WHERE s.index_space_id = $1 AND ${scope}
     ), corpus AS (
       SELECT coalesce(sum(passages), 0)::float8 AS passages, coalesce(sum(total_length), 0)::float8 AS total_length FROM readable
     )
     SELECT t.lexeme, coalesce(sum(k.passages), 0)::int AS df, corpus.passages, corpus.total_length
       FROM corpus
       LEFT JOIN unnest($2::text[]) AS t(lexeme) ON TRUE
       LEFT JOIN keyword_lexeme_stats k
         ON k.index_space_id = $1 AND k.lexeme = t.lexeme AND k.scope_key IN (SELECT scope_key FROM readable)
      GROUP BY t.lexeme, corpus.passages, corpus.total_length`,
    params,
  );
  const first = rows[0];
  return {
    corpus: { passages: Number(first?.passages ?? 0), totalLength: Number(first?.total_length ?? 0) },
    df: new Map(rows.flatMap((row) => (row.lexeme === null ? [] : [[row.lexeme, Number(row.df)] as const]))),
  };
}

function configuredBm25(): Bm25Parameters {
  const config = getConfig();
  return { k1: config.MNEMO_BM25_K1, b: config.MNEMO_BM25_B };
}

/**
 * Words, ranked by BM25 over what the principal may read. The query's lexemes (English and
 * Spanish stems and the words as written, accent-folded) get their idf from the statistics of
 * the readable access scopes; the rarest of them bring in candidates through the GIN index
 * (within a budget, so a very common word does not read most of the space), every lexeme adds
 * its BM25 term to the candidates that have it, with tf from the passage's search vector and
 * its length against the readable average. Quotes, OR and a minus keep their web-search meaning
 * as an extra condition every result must meet.
 */
export async function keywordLeg(sql: SqlExecutor, principal: Principal, query: string, options: KeywordOptions): Promise<PassageHit[]> {
  checkSpace(options.space);
  const limit = Math.max(1, Math.min(200, Math.trunc(options.limit)));
  const bm25 = bm25Parameters({ ...configuredBm25(), ...options.bm25 });
  const lexemes = await queryLexemes(sql, query);
  if (lexemes.length === 0) return [];
  const statistics = await readableKeywordStatistics(sql, principal, options.space.id, lexemes);
  const { corpus } = statistics;
  const terms = selectTerms(
    lexemes.map((lexeme) => {
      const df = statistics.df.get(lexeme) ?? 0;
      return { lexeme, df, idf: bm25Idf(corpus.passages, df) };
    }),
    options.candidateBudget ?? defaultCandidateBudget,
  );
  if (terms.length === 0) return [];
  const selecting = terms.filter((term) => term.selects);

  const params: unknown[] = [
    terms.map((term) => term.lexeme),
    terms.map((term) => term.idf),
    selecting.map((term) => tsqueryLiteral(term.lexeme)).join(" | "),
    bm25.k1,
    bm25.b,
    averageLength(corpus),
  ];
  const where = [`c.index_space_id = '${options.space.id}'`, `c.search_vector @@ $3::tsquery`, passageScopeSql(principal, "c", params), ...filters("c", options, params)];
  if (usesSearchSyntax(query)) {
    params.push(query);
    const n = params.length;
    where.push(`c.search_vector @@ (websearch_to_tsquery('english', unaccent($${n})) || websearch_to_tsquery('spanish', unaccent($${n})) || websearch_to_tsquery('simple', unaccent($${n})))`);
  }
  params.push(limit);
  // tf: the lexeme's positions in the passage (original and translation); dl: lexeme_count.
  const rows = await sql.query<Row>(
    `WITH terms AS (
       SELECT t.lexeme, t.idf FROM unnest($1::text[], $2::float8[]) AS t(lexeme, idf)
     ), candidates AS (
       SELECT c.id, c.record_id, c.project_id, c.contributing_project_ids, c.search_vector, c.lexeme_count
         FROM chunks c
        WHERE ${where.join(" AND ")}
     ), scored AS (
       SELECT d.id, d.record_id, d.project_id, d.contributing_project_ids,
              sum(t.idf * m.tf * ($4::float8 + 1) / (m.tf + $4::float8 * (1 - $5::float8 + $5::float8 * d.lexeme_count / $6::float8))) AS score
         FROM candidates d
         CROSS JOIN LATERAL (SELECT u.lexeme, coalesce(cardinality(u.positions), 1) AS tf FROM unnest(d.search_vector) AS u) AS m
         JOIN terms t ON t.lexeme = m.lexeme
        GROUP BY d.id, d.record_id, d.project_id, d.contributing_project_ids
     )
     SELECT id, record_id, project_id, contributing_project_ids, score FROM scored
      ORDER BY score DESC, id
      LIMIT $${params.length}`,
    params,
  );
  return gate(principal, rows);
}
