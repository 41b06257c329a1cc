import type { SqlQuery } from "../db/sql-executor";
import { type Principal, canRead, projectScopeSql, readableProjectIds } from "./index";

/**
 * Scope is never stale (security invariant 5). Rows derived from records — passages, stored
 * proposals, saved answers — carry text of SOURCE records: a passage its own record's and those
 * its group document reaches through relations, a proposal its evidence neighbours', an answer
 * its sources'. Who may read such a row follows those records' projects as they are now:
 *
 * - passages keep their scope in columns (the keyword statistics are counted per scope), so a
 *   save that moves a record re-scopes every passage listing it in the save's own transaction
 *   (`rescopeMovedRecords`), and the indexer computes a new passage's scope from the live records
 *   under a share lock (`lockSourceRecords`), so a move running meanwhile waits or is seen;
 * - proposals and saved answers are scoped at query time from the live records
 *   (`sourceScopeSql`, `canReadSources`).
 *
 * A source record that no longer exists keeps counting with the projects stored with the row
 * when it was written: its text may still be there, and who could read it then still decides.
 */

const unsafe = /[^a-z0-9_."]/i;

function checked(expression: string): string {
  if (unsafe.test(expression)) throw new Error(`unsafe SQL column: ${expression}`);
  return expression;
}

/**
 * SQL for the sorted projects a reader needs for text drawn from the records `ids` (a text[]
 * column or expression): each record's project now; plus `stored` (the row's projects as
 * written) when one of them no longer exists, or the row does not list its records at all.
 */
export function sourceProjectsSql(ids: string, stored: string): string {
  const [list, kept] = [checked(ids), checked(stored)];
  return `ARRAY(
    SELECT DISTINCT derived_scope.project_id FROM (
      SELECT live_record.project_id FROM records live_record WHERE live_record.id = ANY(${list})
      UNION ALL
      SELECT kept_project.project_id FROM unnest(${kept}) AS kept_project(project_id)
       WHERE coalesce(cardinality(${list}), 0) = 0
          OR (SELECT count(*) FROM records live_record WHERE live_record.id = ANY(${list})) < cardinality(${list})
    ) AS derived_scope WHERE derived_scope.project_id IS NOT NULL ORDER BY derived_scope.project_id)`;
}

/**
 * Query-time scope of rows that list their source records: readable iff every project of
 * `sourceProjectsSql(ids, stored)` is. Appends the readable ids as one parameter.
 */
export function sourceScopeSql(principal: Principal, ids: string, stored: string, params: unknown[]): string {
  const readable = readableProjectIds(principal);
  if (readable === null) return "TRUE";
  params.push([...readable]);
  return `${sourceProjectsSql(ids, stored)} <@ $${params.length}::text[]`;
}

/**
 * Scope of stored proposals: readable iff the proposal's record is (`recordProject`, its project
 * column) and every project of the records its evidence came from is, as they are now
 * (`evidenceRecordIds`, with `evidenceProjectIds` as stored for records no longer there).
 * Appends the readable ids as parameters.
 */
export function proposalScopeSql(
  principal: Principal,
  columns: { recordProject: string; evidenceRecordIds: string; evidenceProjectIds: string },
  params: unknown[],
): string {
  return `(${projectScopeSql(principal, columns.recordProject, params)} AND ${sourceScopeSql(principal, columns.evidenceRecordIds, columns.evidenceProjectIds, params)})`;
}

/**
 * Moves take effect on passages in the moving transaction: the passages of `recordIds` get their
 * record's project, and every passage holding text of one of them (its own or another record's)
 * gets its projects again from its source records. Run after the records are updated.
 */
export async function rescopeMovedRecords(sql: SqlQuery, recordIds: readonly string[]): Promise<void> {
  if (recordIds.length === 0) return;
  // One re-scoping at a time. The UPDATE reads the source records with its statement's snapshot:
  // two moves of records one passage quotes, running side by side, would each miss the other's
  // commit and leave that passage without one of the new projects. Serialised, the second one's
  // statement starts after the first committed.
  await sql.query(`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended('derived-scope:rescope', 0))`);
  await sql.query(
    `UPDATE chunks c
        SET project_id = r.project_id,
            contributing_project_ids = ${sourceProjectsSql("c.contributing_record_ids", "c.contributing_project_ids")}
       FROM records r
      WHERE r.id = c.record_id AND (c.record_id = ANY($1::text[]) OR c.contributing_record_ids && $1::text[])`,
    [[...recordIds]],
  );
}

/**
 * Before writing rows whose scope is computed from `recordIds`: share-locks those records until
 * the transaction ends, so a save moving one of them waits for the write (and then re-scopes the
 * new rows) or, if it came first, is committed and read. Locked in id order (no deadlock
 * between two writers).
 */
export async function lockSourceRecords(sql: SqlQuery, recordIds: readonly string[]): Promise<void> {
  if (recordIds.length === 0) return;
  await sql.query(`SELECT id FROM records WHERE id = ANY($1::text[]) ORDER BY id FOR SHARE`, [[...new Set(recordIds)]]);
}

/**
 * A saved answer is shown again only while the principal may read every one of its source
 * records; one that no longer exists counts as unreadable (nothing tells who could read it).
 */
export function canReadSources(principal: Principal, sourceIds: readonly string[], found: ReadonlyMap<string, { projectId: string }>): boolean {
  return sourceIds.every((id) => {
    const record = found.get(id);
    return record !== undefined && canRead(principal, record);
  });
}
