import "server-only";
import { type Principal, assertAdmin } from "../acl";
import type { SqlExecutor } from "../db/sql-executor";
import {} from "../errors";
import { getActiveIndexSpace, type IndexSpace } from "../rag/index/index-spaces";
import { type SectionIndexStats, indexStats } from "../rag/index/index-stats";

/**
 * What an admin needs to judge the index: the active space and its coverage, every registered
 * space, and per section and embed group the records, indexed, pending, failed (with their
 * errors) and the oldest pending age.
 */
export interface IndexFailure {
  recordId: string;
  title: string;
  attempts: number;
  error: string;
  at: Date;
}

export interface IndexHealth {
  active: IndexSpace | null;
  spaces: { id: string; name: string; status: string; chunks: number; activatedAt: Date | null }[];
  coverage: { records: number; indexed: number };
  sections: (SectionIndexStats & { failures: IndexFailure[] })[];
}

export async function getIndexHealth(sql: SqlExecutor, principal: Principal, options: { failuresPerSection?: number } = {}): Promise<IndexHealth> {
  assertAdmin(principal);
  const active = await getActiveIndexSpace(sql);
  const spaces = await sql.query<{ id: string; name: string; status: string; chunks: number; activated_at: Date | null }>(
    `SELECT s.id, s.name, s.status, (SELECT count(*)::int FROM chunks c WHERE c.index_space_id = s.id) AS chunks, s.activated_at
       FROM index_spaces s ORDER BY s.status = 'active' DESC, s.created_at DESC`,
  );
  const sections = active ? await indexStats(sql, active.id) : [];
  const failures = await sql.query<{ section_id: string; record_id: string; title: string; attempts: number; last_error: string | null; updated_at: Date }>(
    `SELECT * FROM (
       SELECT r.section_id, q.record_id, r.title, q.attempts, q.last_error, q.updated_at,
              row_number() OVER (PARTITION BY r.section_id ORDER BY q.updated_at DESC) AS n
         FROM index_queue q JOIN records r ON r.id = q.record_id WHERE q.status = 'parked') f
      WHERE f.n <= $1`,
    [options.failuresPerSection ?? 10],
  );
  return {
    active,
    spaces: spaces.map((space) => ({
      id: space.id,
      name: space.name,
      status: space.status,
      chunks: space.chunks,
      activatedAt: space.activated_at ? new Date(space.activated_at) : null,
    })),
    coverage: { records: sections.reduce((sum, section) => sum + section.records, 0), indexed: sections.reduce((sum, section) => sum + section.indexed, 0) },
    sections: sections.map((section) => ({
      ...section,
      failures: failures
        .filter((failure) => failure.section_id === section.sectionId)
        .map((failure) => ({
          recordId: failure.record_id,
          title: failure.title,
          attempts: failure.attempts,
          error: failure.last_error ?? "unknown error",
          at: new Date(failure.updated_at),
        })),
    })),
  };
}
