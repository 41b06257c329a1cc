import "server-only";
import type { SqlExecutor } from "../db/sql-executor";
import { egressAllowed, egressAllowedSql } from "./egress";

/**
 * Egress read back by id, for text that has already been fetched under the principal's access
 * and is about to be handed to an external model (research mode's tool results): may this
 * passage (its section and every contributing section, as ask decides) or this record (its
 * section) leave the host? Ids that are not found are absent from the answer, and an absent id
 * never allows egress (default deny).
 */
export async function passagesAllowedOut(sql: SqlExecutor, chunkIds: readonly string[]): Promise<Set<string>> {
  const ids = [...new Set(chunkIds)].filter(Boolean);
  if (ids.length === 0) return new Set();
  const params: unknown[] = [ids];
  const allowed = egressAllowedSql({ policy: "s.egress_policy", contributingSectionIds: "c.contributing_section_ids" }, params);
  const rows = await sql.query<{ id: string; allowed: boolean }>(
    `SELECT c.id, ${allowed} AS allowed FROM chunks c JOIN sections s ON s.id = c.section_id WHERE c.id = ANY($1::text[])`,
    params,
  );
  return new Set(rows.filter((row) => row.allowed === true).map((row) => row.id));
}

export async function recordsAllowedOut(sql: SqlExecutor, recordIds: readonly string[]): Promise<Set<string>> {
  const ids = [...new Set(recordIds)].filter(Boolean);
  if (ids.length === 0) return new Set();
  const rows = await sql.query<{ id: string; policy: string }>(
    `SELECT r.id, s.egress_policy::text AS policy FROM records r JOIN sections s ON s.id = r.section_id WHERE r.id = ANY($1::text[])`,
    [ids],
  );
  return new Set(rows.filter((row) => egressAllowed([row.policy])).map((row) => row.id));
}
