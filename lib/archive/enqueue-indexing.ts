import "server-only";
import type { Prisma } from "../db/generated/client";
import type { SqlQuery } from "../db/sql-executor";

/** The outbox row: created or reset in the same transaction as the change it indexes. */
export async function enqueueIndexing(tx: Prisma.TransactionClient, recordId: string, reason: string): Promise<void> {
  await tx.indexQueueItem.upsert({
    where: { recordId },
    create: { recordId, reason },
    update: { reason, status: "pending", attempts: 0, availableAt: new Date(), lockedAt: null, lockedBy: null, lastError: null },
  });
}

/**
 * Queues, in the transaction that changes (or deletes) `recordIds`, every other record whose
 * group documents hold their text: those an embed group's field path reaches them from through
 * the current relation links, at any depth (an interview's `narrator.birthplace.description`
 * reaches a place through a person), and those whose passages list them (text from links
 * since removed). With `reasons.changed`, the changed records are queued too, in the same
 * statement: all rows are written in id order, so two saves of records quoting each other never
 * wait for each other's rows in opposite orders. Run before a delete, while the links still
 * exist. Returns how many rows were queued.
 */
export async function enqueueDependents(sql: SqlQuery, recordIds: readonly string[], reasons: { dependents: string; changed?: string }): Promise<number> {
  if (recordIds.length === 0) return 0;
  const rows = await sql.query<{ record_id: string }>(
    `WITH RECURSIVE paths AS (
       SELECT g.section_id, string_to_array(p.path, '.') AS keys
         FROM embed_groups g CROSS JOIN LATERAL jsonb_array_elements_text(g.fields) AS p(path)
     ), back AS (
       -- A changed record at depth d of a path (reached through its d-th relation), walked back
       -- link by link to the records at depth 0, where the path starts.
       SELECT p.section_id, p.keys, d.depth - 1 AS depth, l.source_id AS at
         FROM paths p CROSS JOIN LATERAL generate_series(1, cardinality(p.keys)) AS d(depth)
         JOIN record_links l ON l.target_id = ANY($1::text[]) AND l.field_key = p.keys[d.depth]
       UNION
       SELECT b.section_id, b.keys, b.depth - 1, l.source_id
         FROM back b JOIN record_links l ON l.target_id = b.at AND l.field_key = b.keys[b.depth]
        WHERE b.depth > 0
     ), dependents AS (
       SELECT r.id FROM back b JOIN records r ON r.id = b.at AND r.section_id = b.section_id WHERE b.depth = 0
       UNION
       SELECT c.record_id FROM chunks c WHERE c.contributing_record_ids && $1::text[]
     ), queued AS (
       SELECT d.id, $2::text AS reason FROM dependents d WHERE NOT d.id = ANY($1::text[])
       UNION ALL
       SELECT changed.id, $3::text FROM unnest($1::text[]) AS changed(id) WHERE $3::text IS NOT NULL
     )
     INSERT INTO index_queue (id, record_id, reason, status, attempts, available_at, created_at, updated_at)
     SELECT gen_random_uuid()::text, q.id, q.reason, 'pending', 0, now(), now(), now()
       FROM queued q
      ORDER BY q.id
     ON CONFLICT (record_id) DO UPDATE
       SET status = 'pending', attempts = 0, available_at = now(), reason = EXCLUDED.reason,
           locked_at = NULL, locked_by = NULL, last_error = NULL, updated_at = now()
     RETURNING record_id`,
    [[...recordIds], reasons.dependents, reasons.changed ?? null],
  );
  return rows.length;
}
