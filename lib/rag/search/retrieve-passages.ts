import "server-only";
import pgvector from "pgvector";
import { type Principal, canReadPassage, passageScopeSql } from "../../acl";
import type { SqlExecutor } from "../../db/sql-executor";
import type { IndexSpace } from "../index/index-spaces";

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
  /** Cosine similarity (dense) or ts_rank_cd (keyword). */
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

// Document counts per space, for inverse document frequencies; refreshed every minute.
const spaceSizes = new Map<string, { count: number; at: number }>();

async function passagesInSpace(sql: SqlExecutor, spaceId: string): Promise<number> {
  const cached = spaceSizes.get(spaceId);
  if (cached && Date.now() - cached.at < 60_000) return cached.count;
  const [row] = await sql.query<{ count: number }>(`SELECT count(*)::int AS count FROM chunks WHERE index_space_id = $1`, [spaceId]);
  const count = row?.count ?? 0;
  spaceSizes.set(spaceId, { count, at: Date.now() });
  return count;
}

// Document frequency per (space, lexeme): counting a common word over a large space costs tens
// of milliseconds, and frequencies move slowly, so they are kept for five minutes.
const frequencyCache = new Map<string, { df: number; at: number }>();
const frequencyTtlMs = 5 * 60_000;

async function documentFrequencies(sql: SqlExecutor, spaceId: string, literals: string[]): Promise<{ lexeme: string; df: number }[]> {
  const now = Date.now();
  const known = new Map<string, number>();
  for (const literal of literals) {
    const cached = frequencyCache.get(`${spaceId} ${literal}`);
    if (cached && now - cached.at < frequencyTtlMs) known.set(literal, cached.df);
  }
  const missing = literals.filter((literal) => !known.has(literal));
  if (missing.length > 0) {
    const rows = await sql.query<{ lexeme: string; df: number }>(
      `SELECT t.lexeme, (SELECT count(*) FROM chunks c WHERE c.index_space_id = $2 AND c.search_vector @@ t.lexeme::tsquery)::int AS df
         FROM unnest($1::text[]) AS t(lexeme)`,
      [missing, spaceId],
    );
    for (const row of rows) {
      known.set(row.lexeme, row.df);
      frequencyCache.set(`${spaceId} ${row.lexeme}`, { df: row.df, at: now });
    }
    while (frequencyCache.size > 20_000) frequencyCache.delete(frequencyCache.keys().next().value!);
  }
  return literals.map((lexeme) => ({ lexeme, df: known.get(lexeme) ?? 0 }));
}

/**
 * Words, ranked like BM25 rather than by raw term counts: the query's lexemes (English and
 * Spanish stems and the words as written, accent-folded) are weighted by their inverse
 * document frequency in the space, a passage matches if it has any lexeme worth searching
 * for, and it scores the idf-weighted sum of its per-lexeme ts_rank. Quotes, OR and a minus
 * keep their web-search meaning as an extra condition every result must meet.
 */
export async function keywordLeg(sql: SqlExecutor, principal: Principal, query: string, options: LegOptions): Promise<PassageHit[]> {
  checkSpace(options.space);
  const limit = Math.max(1, Math.min(200, Math.trunc(options.limit)));
  const [lexemeRow] = await sql.query<{ lexemes: string[] | null }>(
    `SELECT array_agg(DISTINCT lexeme) AS lexemes FROM unnest(tsvector_to_array(
       to_tsvector('english', unaccent($1)) || to_tsvector('spanish', unaccent($1)) || to_tsvector('simple', unaccent($1))
     )) AS lexeme`,
    [query],
  );
  const lexemes = (lexemeRow?.lexemes ?? []).slice(0, 48);
  if (lexemes.length === 0) return [];
  const total = await passagesInSpace(sql, options.space.id);
  const frequencies = await documentFrequencies(sql, options.space.id, lexemes.map(tsqueryLiteral));
  const weighted = frequencies
    .filter((row) => row.df > 0)
    .map((row) => ({ literal: row.lexeme, idf: Math.log(1 + (Math.max(total, row.df) - row.df + 0.5) / (row.df + 0.5)) }))
    .sort((a, b) => b.idf - a.idf);
  if (weighted.length === 0) return [];
  // Lexemes in most passages (stop words of any language) neither select nor score.
  const selective = weighted.filter((term) => term.idf >= 0.4);
  const selecting = selective.length > 0 ? selective : weighted.slice(0, 1);

  // Each selective lexeme reaches its passages through the GIN index and adds its weighted rank:
  // work in proportion to the matches of each word, not to matches × words.
  const params: unknown[] = [selecting.map((term) => term.literal), selecting.map((term) => term.idf)];
  const where = [`c.index_space_id = '${options.space.id}'`, passageScopeSql(principal, "c", params), ...filters("c", options, params)];
  if (usesSearchSyntax(query)) {
    params.push(query);
    const n = params.length;
    where.push(`c.search_vector @@ (websearch_to_tsquery('english', unaccent($${n})) || websearch_to_tsquery('spanish', unaccent($${n})) || websearch_to_tsquery('simple', unaccent($${n})))`);
  }
  params.push(limit);
  const rows = await sql.query<Row>(
    `WITH terms AS (
       SELECT w.literal::tsquery AS q, w.idf FROM unnest($1::text[], $2::float8[]) AS w(literal, idf)
     ), scored AS (
       SELECT c.id, sum(t.idf * ts_rank(c.search_vector, t.q, 1)) AS score
         FROM terms t JOIN chunks c ON c.search_vector @@ t.q
        WHERE ${where.join(" AND ")}
        GROUP BY c.id
     )
     SELECT c.id, c.record_id, c.project_id, c.contributing_project_ids, s.score
       FROM scored s JOIN chunks c ON c.id = s.id
      ORDER BY s.score DESC, c.id
      LIMIT $${params.length}`,
    params,
  );
  return gate(principal, rows);
}
