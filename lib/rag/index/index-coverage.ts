import "server-only";
import { type Principal, projectScopeSql } from "../../acl";
import type { SqlExecutor } from "../../db/sql-executor";

export interface IndexCoverage {
  records: number;
  /** Records with at least one passage in the active space. */
  indexed: number;
}

/** How many of the records the principal may read the active space covers (counts of readable records only). */
export async function readableIndexCoverage(sql: SqlExecutor, principal: Principal): Promise<IndexCoverage> {
  const params: unknown[] = [];
  const scope = projectScopeSql(principal, "r.project_id", params);
  const [row] = await sql.query<{ records: number; indexed: number }>(
    `SELECT count(*)::int AS records,
            count(*) FILTER (WHERE EXISTS (
              SELECT 1 FROM chunks c JOIN index_spaces s ON s.id = c.index_space_id AND s.status = 'active' WHERE c.record_id = r.id
            ))::int AS indexed
       FROM records r WHERE ${scope}`,
    params,
  );
  return row ?? { records: 0, indexed: 0 };
}
