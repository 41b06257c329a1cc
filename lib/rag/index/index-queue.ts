import "server-only";
import type { SqlExecutor } from "../../db/sql-executor";

/**
 * The indexing outbox. Rows are written in the same transaction as a record change; workers
 * claim them with FOR UPDATE SKIP LOCKED (so two workers never take the same record), index,
 * and delete the row. A failure backs off exponentially; after maxAttempts the row is parked
 * with its error. A claim whose worker died is taken over once its lease has expired.
 */
export interface QueueItem {
  id: string;
  recordId: string;
  attempts: number;
  updatedAt: Date;
}

export interface QueueOptions {
  maxAttempts: number;
  leaseSeconds: number;
  backoffBaseSeconds: number;
}

/** maxAttempts: five tries with doubling backoff (5, 10, 20, 40 s from backoffBaseSeconds) outlast a model endpoint's restart; a record failing more needs a person (Admin → Indexing). */
export const defaultQueueOptions: QueueOptions = { maxAttempts: 5, leaseSeconds: 300, backoffBaseSeconds: 5 };

export async function claimQueueItems(sql: SqlExecutor, workerId: string, limit: number, options: QueueOptions = defaultQueueOptions): Promise<QueueItem[]> {
  const rows = await sql.query<{ id: string; record_id: string; attempts: number; updated_at: Date }>(
    `UPDATE index_queue q
        SET status = 'running', locked_at = now(), locked_by = $1, attempts = q.attempts + 1, updated_at = now()
      WHERE q.id IN (
        SELECT id FROM index_queue
         WHERE (status = 'pending' AND available_at <= now())
            OR (status = 'running' AND locked_at < now() - make_interval(secs => $3))
         ORDER BY available_at, created_at
         LIMIT $2
         FOR UPDATE SKIP LOCKED)
      RETURNING q.id, q.record_id, q.attempts, q.updated_at`,
    [workerId, limit, options.leaseSeconds],
  );
  return rows.map((row) => ({ id: row.id, recordId: row.record_id, attempts: row.attempts, updatedAt: new Date(row.updated_at) }));
}

/**
 * Done: the row goes, unless the record was saved again while it was being indexed (the save
 * reset the row to pending), in which case it stays for the next pass.
 */
export async function completeQueueItem(sql: SqlExecutor, item: QueueItem, workerId: string): Promise<void> {
  await sql.query(`DELETE FROM index_queue WHERE id = $1 AND locked_by = $2 AND status = 'running'`, [item.id, workerId]);
}

export async function failQueueItem(
  sql: SqlExecutor,
  item: QueueItem,
  workerId: string,
  error: unknown,
  options: QueueOptions = defaultQueueOptions,
  retryable = true,
): Promise<"retry" | "parked"> {
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 2000);
  const park = !retryable || item.attempts >= options.maxAttempts;
  const delaySeconds = options.backoffBaseSeconds * 2 ** Math.max(0, item.attempts - 1);
  await sql.query(
    `UPDATE index_queue
        SET status = $3::"QueueStatus", last_error = $4, locked_at = NULL, locked_by = NULL,
            available_at = now() + make_interval(secs => $5), updated_at = now()
      WHERE id = $1 AND locked_by = $2 AND status = 'running'`,
    [item.id, workerId, park ? "parked" : "pending", message, park ? 0 : delaySeconds],
  );
  return park ? "parked" : "retry";
}

/**
 * Embedded mode, at start-up: the data directory has one owner, so every claim still marked
 * running was left by a process that died (killed, crashed, power cut). Rather than wait out the
 * lease, they go back in line at once — or are parked, with the reason, once a record has been
 * claimed maxAttempts times, so a record that brings the process down cannot do it forever.
 */
export async function releaseOrphanedClaims(sql: SqlExecutor, options: QueueOptions = defaultQueueOptions): Promise<{ released: number; parked: number }> {
  const rows = await sql.query<{ status: string }>(
    `UPDATE index_queue
        SET status = CASE WHEN attempts >= $1 THEN 'parked'::"QueueStatus" ELSE 'pending'::"QueueStatus" END,
            last_error = CASE WHEN attempts >= $1
                              THEN 'The process indexing this record stopped ' || attempts || ' times before it finished (killed or crashed).'
                              ELSE last_error END,
            locked_at = NULL, locked_by = NULL, available_at = now(), updated_at = now()
      WHERE status = 'running'
      RETURNING status::text`,
    [options.maxAttempts],
  );
  const parked = rows.filter((row) => row.status === "parked").length;
  return { released: rows.length - parked, parked };
}

/** Puts parked rows back in line (an admin's "retry failed"). */
export async function retryParked(sql: SqlExecutor, sectionId?: string): Promise<number> {
  const rows = await sql.query(
    `UPDATE index_queue q SET status = 'pending', attempts = 0, available_at = now(), last_error = NULL, updated_at = now()
       FROM records r
      WHERE r.id = q.record_id AND q.status = 'parked' AND ($1::text IS NULL OR r.section_id = $1)
      RETURNING q.id`,
    [sectionId ?? null],
  );
  return rows.length;
}

/** Queues records for (re)indexing: a section's, or every record. Returns how many. */
export async function enqueueReindex(sql: SqlExecutor, scope: { sectionId?: string }, reason = "reindex"): Promise<number> {
  const rows = await sql.query(
    `INSERT INTO index_queue (id, record_id, reason, status, attempts, available_at, created_at, updated_at)
     SELECT gen_random_uuid()::text, r.id, $2, 'pending', 0, now(), now(), now()
       FROM records r WHERE ($1::text IS NULL OR r.section_id = $1)
     ON CONFLICT (record_id) DO UPDATE
       SET status = 'pending', attempts = 0, available_at = now(), reason = EXCLUDED.reason,
           locked_at = NULL, locked_by = NULL, last_error = NULL, updated_at = now()
     RETURNING id`,
    [scope.sectionId ?? null, reason],
  );
  return rows.length;
}
