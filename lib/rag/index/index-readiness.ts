import "server-only";
import { type Principal, projectScopeSql } from "../../acl";
import type { SqlExecutor } from "../../db/sql-executor";

/** One section's indexing as a reader sees it: counts of the records they may read only. */
export interface SectionReadiness {
  slug: string;
  name: string;
  records: number;
  /** Records with at least one passage in the active space. */
  indexed: number;
  /** Records queued or being indexed. */
  waiting: number;
  /** Records the worker parked after repeated errors (an admin retries them on /admin). */
  failed: number;
}

export interface IndexReadiness {
  /** Search covers everything it can: an active index space, and no record waits to be indexed. */
  ready: boolean;
  /** Share of all records not waiting for the index, 0–100 (floored, so 100 only when nothing waits). */
  percent: number;
  /** Per section, for a signed-in reader or a token (never for an anonymous caller). */
  sections?: SectionReadiness[];
}

/**
 * Whether search is ready, for scripts (`/api/health`'s `ready`) and people: anyone learns
 * whether indexing is done and how far it is as a share; a principal also gets the sections
 * they may read with counts of their readable records only (admins: everything), so the health
 * report counts nothing a reader could not count in the list.
 */
export async function indexReadiness(sql: SqlExecutor, principal: Principal | null): Promise<IndexReadiness> {
  const [overall] = await sql.query<{ records: number; waiting: number; active: boolean }>(
    `SELECT (SELECT count(*)::int FROM records) AS records,
            (SELECT count(*)::int FROM index_queue WHERE status IN ('pending', 'running')) AS waiting,
            EXISTS (SELECT 1 FROM index_spaces WHERE status = 'active') AS active`,
  );
  const records = overall?.records ?? 0;
  const waiting = Math.min(overall?.waiting ?? 0, records);
  const readiness: IndexReadiness = {
    ready: Boolean(overall?.active) && waiting === 0,
    percent: records === 0 ? 100 : Math.floor(((records - waiting) / records) * 100),
  };
  if (!principal) return readiness;
  const params: unknown[] = [];
  const scope = projectScopeSql(principal, "r.project_id", params);
  const sections = await sql.query<SectionReadiness>(
    `SELECT s.slug, s.name, count(r.id)::int AS records,
            count(r.id) FILTER (WHERE EXISTS (
              SELECT 1 FROM chunks c JOIN index_spaces sp ON sp.id = c.index_space_id AND sp.status = 'active' WHERE c.record_id = r.id
            ))::int AS indexed,
            count(q.id) FILTER (WHERE q.status IN ('pending', 'running'))::int AS waiting,
            count(q.id) FILTER (WHERE q.status = 'parked')::int AS failed
       FROM sections s
       JOIN records r ON r.section_id = s.id AND ${scope}
       LEFT JOIN index_queue q ON q.record_id = r.id
      GROUP BY s.id, s.slug, s.name, s.position
      ORDER BY s.position, s.name`,
    params,
  );
  return { ...readiness, sections };
}
