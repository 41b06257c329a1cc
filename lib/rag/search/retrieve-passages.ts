import "server-only";
import pgvector from "pgvector";
import { type Principal, accessScopeSql, canReadPassage, passageScopeSql } from "../../acl";
import type { SqlExecutor } from "../../db/sql-executor";
import { searchSettings } from "../config/settings";
import type { IndexSpace } from "../index/index-spaces";
import { type SearchConfig, queryConfigs, searchConfigSql } from "../index/search-configs";
import {
  type Bm25Parameters,
  type CorpusStatistics,
  type KeywordTerm,
  averageLength,
  bm25Idf,
  bm25Parameters,
  selectCandidates,
  wordDocumentFrequencies,
  wordGroups,
} from "./bm25";

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

/**
 * How passages with equal scores are ordered: by what was embedded (the record's title and
 * heading path with the passage, in its bridge translation), then the passage as written, then
 * its place in the record — the content, which two builds of the same archive share — and by id
 * only when all of that is equal (the same passage of two records with the same title). Ids are
 * generated at random when a record is created or indexed: as the tie-breaker they made answers
 * move from one index build to the next with nothing else changed. "C" collation compares bytes,
 * the same in both database modes whatever the server's locale.
 */
export function contentOrderSql(alias: string): string {
  if (!/^[a-z_][a-z0-9_]*$/i.test(alias)) throw new Error(`unsafe alias: ${alias}`);
  return `${alias}.embedded_text COLLATE "C", ${alias}.text COLLATE "C", ${alias}.ordinal, ${alias}.id`;
}

function gate(principal: Principal, rows: Row[]): PassageHit[] {
  return rows
    .map((row) => ({
      chunkId: row.id,
      recordId: row.record_id,
      projectId: row.project_id,
      contributingProjectIds: row.contributing_project_ids,
      score: Number(row.score),
    }))
    .filter((hit) => canReadPassage(principal, hit));
}

export async function denseLeg(
  sql: SqlExecutor,
  principal: Principal,
  vector: Float32Array | number[],
  options: LegOptions & { efSearch?: number; walk?: number },
): Promise<PassageHit[]> {
  checkSpace(options.space);
  const limit = Math.max(1, Math.min(200, Math.trunc(options.limit)));
  const efSearch = Math.max(limit, Math.min(1000, Math.trunc(options.efSearch ?? 100)));
  // `walk`: passages taken from the graph (the iterative scan goes on past the beam) and re-sorted by
  // exact distance before the page is cut. Deeper finds more of the exact nearest at a million
  // passages, at a cost the page does not pay by default (`bench:scale --dense-walks`, decision 0011).
  const walk = Math.max(limit, Math.min(10_000, Math.trunc(options.walk ?? limit)));
  const cast = `vector(${options.space.dimension})`;
  const params: unknown[] = [pgvector.toSql(Array.from(vector))];
  const where = [
    `c.index_space_id = '${options.space.id}'`,
    `c.embedding IS NOT NULL`,
    passageScopeSql(principal, "c", params),
    ...filters("c", options, params),
  ];
  params.push(limit);
  params.push(walk);
  return sql.transaction(async (tx) => {
    await tx.exec(`SET LOCAL hnsw.ef_search = ${efSearch}; SET LOCAL hnsw.iterative_scan = relaxed_order;`);
    // relaxed_order may return rows slightly out of order: sort the page again by distance.
    // Equal distances (the same text embedded twice) are ordered by content, not by id: the page
    // keeps every passage tied with its last one, then is cut in content order. The texts are
    // read for the page only: an exact scan (a reader of 2% of a million passages) sorts every
    // readable passage, and carrying their texts through that sort cost a third of its time.
    const rows = await tx.query<Row>(
      `SELECT page.id, page.record_id, page.project_id, page.contributing_project_ids, page.score FROM (
         SELECT walked.* FROM (
           SELECT c.id, c.record_id, c.project_id, c.contributing_project_ids,
                  1 - (c.embedding::${cast} <=> $1::${cast}) AS score
             FROM chunks c
            WHERE ${where.join(" AND ")}
            ORDER BY c.embedding::${cast} <=> $1::${cast}
            FETCH FIRST ($${params.length}) ROWS WITH TIES
         ) walked
         ORDER BY walked.score DESC
         FETCH FIRST ($${params.length - 1}) ROWS WITH TIES
       ) page
       JOIN chunks k ON k.id = page.id
       ORDER BY page.score DESC, ${contentOrderSql("k")}
       LIMIT $${params.length - 1}`,
      params,
    );
    return gate(principal, rows);
  });
}

/** Quotes, a leading minus or OR: the user wrote search syntax, so every condition must hold. */
export function usesSearchSyntax(query: string): boolean {
  return /"|(^|\s)-\S|\sOR\s/.test(query);
}

/** Keyword-leg tuning; unset fields come from searchSettings (bm25K1, bm25B, keywordCandidateBudget). */
export interface KeywordOptions extends LegOptions {
  bm25?: Partial<Bm25Parameters>;
  /**
   * How many passages the rarest lexemes may bring in as candidates (the sum of their document
   * frequencies). Lexemes beyond it still score the candidates but bring in none of their own:
   * a word in most passages would otherwise make every query read most of the space.
   */
  candidateBudget?: number;
}

export interface QueryLexeme {
  lexeme: string;
  /** The analyses that produce it; a passage counts it when its own (or English, bridged) is one. */
  configs: SearchConfig[];
  /**
   * The query words it comes from, whether it is the word's only lexeme in that analysis, and the
   * query's line the word is on (a query with its bridge translation has two: the same words twice).
   */
  forms: { word: string; lexeme: string; single: boolean; line: number }[];
}

/**
 * The query's lexemes, accent-folded, with the configurations that produce each: English and
 * Spanish stems and the words as written ("simple"). A passage is scored with those of its own
 * language's configuration (and the English ones when it has a bridge translation). Stop words
 * are judged on the word as typed, before any stemming:
 * - an English stop word is searched in no configuration. The Spanish stemmer keeps "the", "of"
 *   or "and" (and turns "these" into "thes"), so they used to pick out the few passages of
 *   English text detected as Spanish, rare there and so weighted high: on SciFact 144 such
 *   abstracts topped most queries (report half keyword nDCG@10 0.511; without them 0.640).
 * - a Spanish stop word is searched as an English stem only: "sea", "son" or "era" are English
 *   words too, while "de" or "la" as written would pick out passages indexed without stop words.
 * Each lexeme comes with the words it is a form of, so that the leg weighs it as its word
 * (wordDocumentFrequencies): the Spanish stem of an English word is not a rare word.
 */
export async function queryLexemes(sql: SqlExecutor, query: string): Promise<QueryLexeme[]> {
  const rows = await sql.query<{ line: number; word: string; config: SearchConfig; lexeme: string; parts: number }>(
    `SELECT l.line::int AS line, word, config, lexeme, count(*) OVER (PARTITION BY l.line, word, config)::int AS parts
       FROM unnest(string_to_array($1, E'\\n')) WITH ORDINALITY AS l(text, line),
            unnest(tsvector_to_array(to_tsvector('simple', unaccent(l.text)))) AS word,
            unnest($2::text[]) AS config,
            unnest(tsvector_to_array(to_tsvector(config::regconfig, word))) AS lexeme
      WHERE ts_lexize('english_stem', word) IS DISTINCT FROM '{}'::text[]
        AND (config = 'english' OR ts_lexize('spanish_stem', word) IS DISTINCT FROM '{}'::text[])`,
    [query, [...queryConfigs]],
  );
  const byLexeme = new Map<string, { configs: Set<SearchConfig>; forms: QueryLexeme["forms"] }>();
  for (const row of rows) {
    const entry = byLexeme.get(row.lexeme) ?? byLexeme.set(row.lexeme, { configs: new Set(), forms: [] }).get(row.lexeme)!;
    entry.configs.add(row.config);
    entry.forms.push({ word: row.word, lexeme: row.lexeme, single: Number(row.parts) === 1, line: Number(row.line) });
  }
  return [...byLexeme.keys()]
    .sort()
    .slice(0, 48)
    .map((lexeme) => ({ lexeme, configs: [...byLexeme.get(lexeme)!.configs].sort(), forms: byLexeme.get(lexeme)!.forms }));
}

/**
 * N, total length and each lexeme's document frequency over the access scopes the principal may
 * read (all of them for an admin): read from the statistics kept at index time, a few index
 * lookups, never a count over passages. Each lexeme's frequency is its own subquery, an index
 * range on (space, lexeme): as one join, the planner of a database whose statistics tables were
 * never analysed (PGlite has no autovacuum) read every lexeme row of every readable scope
 * instead — 80,000 rows, about half a second a query at 50,000 passages.
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
    `WITH readable AS MATERIALIZED (
       SELECT s.scope_key, s.passages, s.total_length FROM keyword_scope_stats s WHERE s.index_space_id = $1 AND ${scope}
     ), corpus AS (
       SELECT coalesce(sum(passages), 0)::float8 AS passages, coalesce(sum(total_length), 0)::float8 AS total_length FROM readable
     )
     SELECT t.lexeme, corpus.passages, corpus.total_length,
            coalesce((SELECT sum(k.passages) FROM keyword_lexeme_stats k
                       WHERE k.index_space_id = $1 AND k.lexeme = t.lexeme AND k.scope_key IN (SELECT r.scope_key FROM readable r)), 0)::int AS df
       FROM corpus
       LEFT JOIN unnest($2::text[]) AS t(lexeme) ON TRUE`,
    params,
  );
  const first = rows[0];
  return {
    corpus: { passages: Number(first?.passages ?? 0), totalLength: Number(first?.total_length ?? 0) },
    df: new Map(rows.flatMap((row) => (row.lexeme === null ? [] : [[row.lexeme, Number(row.df)] as const]))),
  };
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
interface KeywordPlan {
  terms: KeywordTerm[];
  /** Each lexeme's document frequency as its word's (wordDocumentFrequencies): what its idf is from. */
  wordDf: Map<string, number>;
  corpus: CorpusStatistics;
  /** Parameters $1 lexemes, $2 idfs, $3 the selecting tsquery, $4 each lexeme's configurations, then the WHERE clause's. */
  params: unknown[];
  where: string[];
  /** At most how many matching passages are scored (selectCandidates), or null for all. */
  cap: number | null;
  /** The selection ($3) to score as well, under the same cap, when this one finds less than a page. */
  fallback: string | null;
}

async function planKeywordSearch(sql: SqlExecutor, principal: Principal, query: string, options: KeywordOptions): Promise<KeywordPlan | null> {
  checkSpace(options.space);
  const lexemes = await queryLexemes(sql, query);
  if (lexemes.length === 0) return null;
  const configsOf = new Map(lexemes.map((row) => [row.lexeme, row.configs]));
  const statistics = await readableKeywordStatistics(sql, principal, options.space.id, [...configsOf.keys()]);
  const { corpus } = statistics;
  const wordDf = wordDocumentFrequencies(
    lexemes.flatMap((row) => row.forms),
    statistics.df,
    corpus.passages,
  );
  // A lexeme's own frequency decides what reading it costs (the candidate budget); its word's, its weight.
  const groups = wordGroups(lexemes.flatMap((row) => row.forms));
  const linesOf = new Map(lexemes.map((row) => [row.lexeme, [...new Set(row.forms.map((form) => form.line))]]));
  const { terms, tsquery, cap, fallback } = selectCandidates(
    [...configsOf.keys()].map((lexeme) => ({
      lexeme,
      df: statistics.df.get(lexeme) ?? 0,
      idf: bm25Idf(corpus.passages, wordDf.get(lexeme) ?? 0),
      word: groups.get(lexeme) ?? lexeme,
      lines: linesOf.get(lexeme) ?? [],
    })),
    options.candidateBudget ?? searchSettings.keywordCandidateBudget.value,
    corpus.passages,
  );
  if (terms.length === 0) return null;
  const params: unknown[] = [
    terms.map((term) => term.lexeme),
    terms.map((term) => term.idf),
    tsquery,
    terms.map((term) => (configsOf.get(term.lexeme) ?? []).join(",")),
  ];
  const where = [
    `c.index_space_id = '${options.space.id}'`,
    `c.search_vector @@ $3::tsquery`,
    passageScopeSql(principal, "c", params),
    ...filters("c", options, params),
  ];
  if (usesSearchSyntax(query)) {
    params.push(query);
    const n = params.length;
    where.push(
      `c.search_vector @@ (websearch_to_tsquery('english', unaccent($${n})) || websearch_to_tsquery('spanish', unaccent($${n})) || websearch_to_tsquery('simple', unaccent($${n})))`,
    );
  }
  return { terms, wordDf, corpus, params, where, cap, fallback };
}

/**
 * Each candidate passage (the WHERE clause's) with `perPassage`: aggregates over its matches,
 * the query lexemes it has, each as u (u.positions: its positions in the original text and the
 * translation alike; tf is their number) with t.idf. A lexeme counts for a passage when one of
 * the configurations that produced it is the passage's own (or English, for a passage with a
 * bridge translation); a passage without one gets NULL aggregates.
 *
 * Only the query's lexemes are unnested: setweight marks them in a copy of the search vector and
 * ts_filter keeps the marked (search vectors come from to_tsvector, so every lexeme has
 * positions). Unnesting each candidate's whole vector and joining it to the terms made the leg
 * several times slower, and the planner, left to join candidates, unnested rows and terms as it
 * liked, sometimes unnested each candidate once per term. The aggregate keeps the lateral
 * subquery apart: each passage's few matches are computed once, beside it.
 */
const scoredCandidatesSql = (plan: Pick<KeywordPlan, "where" | "cap">, perPassage: string) => `
  SELECT c.id, c.record_id, c.project_id, c.contributing_project_ids, c.lexeme_count, m.*
    FROM ${
      plan.cap === null
        ? "chunks c"
        : // A CTE is planned to be read whole, so through the GIN index (under a LIMIT the planner scans the
          // table for "the first few" matches: 29,000 rows read for 8,000 of "trabajo"), and read lazily.
          `(WITH matched AS MATERIALIZED (
              SELECT c.id, c.record_id, c.project_id, c.contributing_project_ids, c.lexeme_count, c.search_vector, c.language, c.translated_text
                FROM chunks c WHERE ${plan.where.join(" AND ")})
            SELECT * FROM matched LIMIT ${Math.trunc(plan.cap)}) AS c`
    }
    CROSS JOIN LATERAL (
      SELECT ${perPassage}
        FROM unnest(ts_filter(setweight(setweight(c.search_vector, 'D'), 'A', $1::text[]), '{a}')) AS u
        CROSS JOIN LATERAL (
          SELECT ($2::float8[])[i] AS idf, string_to_array(($4::text[])[i], ',') AS configs FROM array_position($1::text[], u.lexeme) AS i
        ) AS t
       WHERE ${searchConfigSql("c.language")} = ANY(t.configs) OR (coalesce(c.translated_text, '') <> '' AND 'english' = ANY(t.configs))
    ) AS m
   ${plan.cap === null ? `WHERE ${plan.where.join(" AND ")}` : ""}`;

const termFrequency = "cardinality(u.positions)";

export async function keywordLeg(sql: SqlExecutor, principal: Principal, query: string, options: KeywordOptions): Promise<PassageHit[]> {
  const limit = Math.max(1, Math.min(200, Math.trunc(options.limit)));
  const bm25 = bm25Parameters(options.bm25);
  const plan = await planKeywordSearch(sql, principal, query, options);
  if (!plan) return [];
  const params = [...plan.params, bm25.k1, bm25.b, averageLength(plan.corpus), limit];
  const n = plan.params.length;
  const [k1, b, avgdl] = [`$${n + 1}::float8`, `$${n + 2}::float8`, `$${n + 3}::float8`];
  const score = `sum(t.idf * ${termFrequency} * (${k1} + 1) / (${termFrequency} + ${k1} * (1 - ${b} + ${b} * c.lexeme_count / ${avgdl}))) AS score`;
  // Equal BM25 scores are common (the same words, passages of equal length): the page keeps every
  // passage tied with its last one (WITH TIES), and only those are read again to be ordered by
  // content — comparing texts for every candidate would cost what the leg was made fast to save.
  const page = (selectionParams: unknown[]) =>
    sql.query<Row>(
      `SELECT top.id, top.record_id, top.project_id, top.contributing_project_ids, top.score
         FROM (SELECT id, record_id, project_id, contributing_project_ids, score
                 FROM (${scoredCandidatesSql(plan, score)}) AS scored
                WHERE score IS NOT NULL
                ORDER BY score DESC
                FETCH FIRST ($${n + 4}) ROWS WITH TIES) AS top
         JOIN chunks k ON k.id = top.id
        ORDER BY top.score DESC, ${contentOrderSql("k")}
        LIMIT $${n + 4}`,
      selectionParams,
    );
  const rows = await page(params);
  if (rows.length < limit && plan.fallback) {
    // Too few passages had the query's words together: add those with its rarest word, and rank both by score.
    const seen = new Set(rows.map((row) => row.id));
    const more = await page(params.map((value, index) => (index === 2 ? plan.fallback : value)));
    const merged = [...rows, ...more.filter((row) => !seen.has(row.id))];
    return gate(principal, merged.sort((a, b) => Number(b.score) - Number(a.score)).slice(0, limit));
  }
  return gate(principal, rows);
}

/**
 * What keywordLeg scores, before scoring: every candidate passage with its length and the tf of
 * each query lexeme it has, and the readable corpus statistics. For tuning (eval:retrieval
 * --tune scores these with bm25Score for many parameters from one read); gated like the leg.
 */
export async function keywordCandidates(
  sql: SqlExecutor,
  principal: Principal,
  query: string,
  options: Omit<KeywordOptions, "limit" | "bm25">,
): Promise<{ corpus: CorpusStatistics; df: Map<string, number>; passages: (PassageHit & { length: number; tf: Map<string, number> })[] }> {
  const plan = await planKeywordSearch(sql, principal, query, { ...options, limit: 0 });
  if (!plan) return { corpus: { passages: 0, totalLength: 0 }, df: new Map(), passages: [] };
  const rows = await sql.query<Row & { length: number; tf: Record<string, number> }>(
    `SELECT id, record_id, project_id, contributing_project_ids, 0 AS score, lexeme_count AS length, tf
       FROM (${scoredCandidatesSql(plan, `json_object_agg(u.lexeme, ${termFrequency}) AS tf`)}) AS scored
      WHERE tf IS NOT NULL`,
    plan.params,
  );
  const lengths = new Map(
    rows.map((row) => [row.id, { length: Number(row.length), tf: new Map(Object.entries(row.tf).map(([lexeme, tf]) => [lexeme, Number(tf)])) }]),
  );
  return {
    corpus: plan.corpus,
    df: new Map(plan.terms.map((term) => [term.lexeme, plan.wordDf.get(term.lexeme) ?? term.df])),
    passages: gate(principal, rows).map((hit) => ({ ...hit, ...lengths.get(hit.chunkId)! })),
  };
}
