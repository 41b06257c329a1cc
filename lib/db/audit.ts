import "server-only";
import type { Prisma } from "./generated/client";
import type { SqlQuery } from "./sql-executor";

/** One entry of the audit log (audit_events): who did what to which target, and the particulars. */
export interface AuditEntry {
  /** The user who acted; null or absent for the system actor or someone not signed in. */
  actorId?: string | null;
  action: string;
  targetType: string;
  targetId?: string | null;
  /** The project the target belongs to, when it has one (the log is filtered by it). */
  projectId?: string | null;
  details: unknown;
  /** When it happened, if not now. */
  at?: Date;
}

/**
 * Writes an audit entry with a Prisma client or transaction. Returns Prisma's promise unawaited,
 * so the write can also be one step of an array transaction (`prisma.$transaction([...])`).
 */
export function audit(tx: Pick<Prisma.TransactionClient, "auditEvent">, entry: AuditEntry) {
  const { details, ...rest } = entry;
  return tx.auditEvent.create({ data: { ...rest, details: details as Prisma.InputJsonValue } });
}

/** The same write for code that runs SQL (within its transaction, given that one's executor). */
export async function auditSql(sql: SqlQuery, entry: Omit<AuditEntry, "at">): Promise<void> {
  await sql.query(
    `INSERT INTO audit_events (id, actor_id, action, target_type, target_id, project_id, details)
     VALUES (gen_random_uuid()::text, $1, $2, $3, $4, $5, $6::jsonb)`,
    [entry.actorId ?? null, entry.action, entry.targetType, entry.targetId ?? null, entry.projectId ?? null, JSON.stringify(entry.details)],
  );
}

/** Several entries in one statement (a bulk import's batch), with a Prisma client or transaction. */
export function auditMany(tx: Pick<Prisma.TransactionClient, "auditEvent">, entries: readonly Omit<AuditEntry, "at">[]) {
  return tx.auditEvent.createMany({
    data: entries.map(({ details, ...rest }) => ({ ...rest, details: details as Prisma.InputJsonValue })),
  });
}
