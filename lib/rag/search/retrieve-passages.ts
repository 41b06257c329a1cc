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
  /** Restrict to one embed group (a facet such as "profession"). */
  embedGroupId?: string;
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
  if (options.embedGroupId) {
    params.push(options.embedGroupId);
    where.push(`${alias}.embed_group_id = $${params.length}`);
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
    const rows = await tx.query<Row>(
      `SELECT c.id, c.record_id, c.project_id, c.contributing_project_ids, 1 - (c.embedding::${cast} <=> $1::${cast}) AS score
         FROM chunks c
        WHERE ${where.join(" AND ")}
        ORDER BY c.embedding::${cast} <=> $1::${cast}
        LIMIT $${params.length}`,
      params,
    );
    return gate(principal, rows);
  });
}

export async function keywordLeg(sql: SqlExecutor, principal: Principal, query: string, options: LegOptions): Promise<PassageHit[]> {
  checkSpace(options.space);
  const limit = Math.max(1, Math.min(200, Math.trunc(options.limit)));
  const params: unknown[] = [query];
  // English and Spanish stems plus the words as written, all accent-folded.
  const tsquery = `(websearch_to_tsquery('english', unaccent($1)) || websearch_to_tsquery('spanish', unaccent($1)) || websearch_to_tsquery('simple', unaccent($1)))`;
  const where = [`c.index_space_id = '${options.space.id}'`, `c.search_vector @@ ${tsquery}`, passageScopeSql(principal, "c", params), ...filters("c", options, params)];
  params.push(limit);
  const rows = await sql.query<Row>(
    `SELECT c.id, c.record_id, c.project_id, c.contributing_project_ids, ts_rank_cd(c.search_vector, ${tsquery}) AS score
       FROM chunks c
      WHERE ${where.join(" AND ")}
      ORDER BY score DESC, c.id
      LIMIT $${params.length}`,
    params,
  );
  return gate(principal, rows);
}
