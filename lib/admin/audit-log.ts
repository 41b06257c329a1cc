import "server-only";
import { z } from "zod";
import { type Principal, assertAdmin } from "../acl";
import type { SqlExecutor } from "../db/sql-executor";
import { parseInput } from "../errors";
import { storableTextIssues } from "../storable-text";

/**
 * The audit log, for admins: record saves, proposal decisions, configuration changes and
 * sign-ins, newest first, a page at a time, filtered by kind, actor (an email substring) and a
 * date range. Audit events and sign-in attempts live in two tables; they are merged in SQL.
 * A successful password sign-in is written to both (an attempt and a `user.sign_in` event), so
 * that event is left out here and the attempt stands for it; OIDC sign-ins exist only as
 * events. Throttling (`sign_in.throttled`: a failure that starts or lengthens a wait;
 * `sign_in.refused`: an attempt refused unchecked) is listed with the sign-ins, under the
 * email that was tried. Anyone but an admin is told it does not exist.
 */
export const auditLogKinds = ["all", "records", "proposals", "configuration", "sign-ins"] as const;
export type AuditLogKind = (typeof auditLogKinds)[number];

export const auditLogPageSize = 50;

/** Filters as they arrive (from a URL or a caller); validated by listAuditLog. */
export interface AuditLogFilterInput {
  kind?: string;
  actor?: string;
  /** An ISO date (YYYY-MM-DD, from the start of that day, UTC) or date and time. */
  from?: string;
  /** An ISO date (up to the end of that day, UTC) or date and time (inclusive). */
  to?: string;
  page?: number | string;
}

export interface AuditLogEntry {
  id: string;
  at: Date;
  /** The audit action ("record.update", "proposal.accept"…), or "sign-in" / "sign-in.failed" / "sign-in.throttled" / "sign-in.refused" / "sign-out". */
  action: string;
  /** The actor's email; null for the system, or for a failed sign-in. */
  actor: string | null;
  /** What the event is about: a record's title, a section's name, a sign-in's email, or its type and short id. */
  target: string;
  project: string | null;
  details: Record<string, unknown>;
}

export interface AuditLogPage {
  entries: AuditLogEntry[];
  total: number;
  page: number;
  pageCount: number;
}

interface Moment {
  at: Date;
  dateOnly: boolean;
}

const momentPattern = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|[+-]\d{2}:\d{2})?)?$/i;

/** "2024-05-01", "2024-05-01T10:30", "2024-05-01T10:30:00.000Z", "…+02:00"; times without an offset are UTC. */
function parseMoment(text: string): Moment | null {
  const match = momentPattern.exec(text);
  if (!match) return null;
  const [, date = "", hours, minutes, seconds, millis, offset] = match;
  const day = new Date(`${date}T00:00:00.000Z`);
  if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== date) return null;
  if (hours === undefined) return { at: day, dateOnly: true };
  if (Number(hours) > 23 || Number(minutes) > 59 || Number(seconds ?? 0) > 59) return null;
  if (offset && offset.toUpperCase() !== "Z" && (Number(offset.slice(1, 3)) > 14 || Number(offset.slice(4, 6)) > 59)) return null;
  const at = new Date(`${date}T${hours}:${minutes}:${seconds ?? "00"}.${(millis ?? "0").padEnd(3, "0")}${offset?.toUpperCase() ?? "Z"}`);
  return Number.isNaN(at.getTime()) ? null : { at, dateOnly: false };
}

const blankToUndefined = (value: unknown) => (value === null || (typeof value === "string" && value.trim() === "") ? undefined : value);

const momentSchema = (label: string) =>
  z
    .string({ error: `“${label}” must be a date.` })
    .trim()
    .max(40, `“${label}” is not a date: use YYYY-MM-DD.`)
    .transform((text, context) => {
      const moment = parseMoment(text);
      if (!moment) {
        context.addIssue({ code: "custom", message: `“${label}” is not a date: use YYYY-MM-DD (or an ISO date and time), e.g. 2024-05-01.` });
        return z.NEVER;
      }
      return moment;
    });

export const auditLogFiltersSchema = z
  .object({
    kind: z.preprocess(blankToUndefined, z.enum(auditLogKinds, { error: "Choose a kind: all, records, proposals, configuration or sign-ins." }).default("all")),
    actor: z.preprocess(
      blankToUndefined,
      z
        .string({ error: "The actor filter must be text." })
        .trim()
        .max(200, "The actor filter is at most 200 characters.")
        .superRefine(storableTextIssues)
        .optional(),
    ),
    from: z.preprocess(blankToUndefined, momentSchema("From").optional()),
    to: z.preprocess(blankToUndefined, momentSchema("To").optional()),
    page: z.preprocess(
      blankToUndefined,
      z.coerce
        .number({ error: "The page must be a whole number." })
        .int("The page must be a whole number.")
        .min(1, "Pages start at 1.")
        .max(1_000_000, "No such page.")
        .default(1),
    ),
  })
  .transform((filters, context) => {
    // Both bounds as instants: from is inclusive; before is exclusive (a date covers its whole day).
    const since = filters.from?.at ?? null;
    const before = filters.to ? new Date(filters.to.at.getTime() + (filters.to.dateOnly ? 86_400_000 : 1)) : null;
    if (since && before && since >= before) {
      context.addIssue({ code: "custom", path: ["from"], message: "“From” is after “To”: choose a range that ends after it starts." });
      return z.NEVER;
    }
    return { kind: filters.kind, actor: filters.actor || undefined, since, before, page: filters.page };
  });

function parseFilters(input: AuditLogFilterInput) {
  return parseInput(auditLogFiltersSchema, input);
}

/**
 * Every event as one row shape: audit events (with their actor's email) and sign-in attempts.
 * `kind` classifies the action; `actor_key` is what the actor filter matches.
 */
const logSql = `
  SELECT e.id, e.at,
         CASE WHEN e.action = 'user.sign_in' THEN 'sign-in' WHEN e.action = 'user.sign_out' THEN 'sign-out'
              WHEN e.action IN ('sign_in.throttled', 'sign_in.refused') THEN replace(e.action, 'sign_in.', 'sign-in.')
              ELSE e.action END AS action,
         CASE WHEN e.action LIKE 'record.%' THEN 'records'
              WHEN e.action LIKE 'proposal.%' THEN 'proposals'
              WHEN e.action IN ('user.sign_in', 'user.sign_out', 'sign_in.throttled', 'sign_in.refused') THEN 'sign-ins'
              ELSE 'configuration' END AS kind,
         u.email AS actor, coalesce(u.email, e.details->>'email') AS actor_key,
         e.target_type, e.target_id,
         CASE WHEN e.target_type = 'sign_in' THEN e.details->>'email' END AS target_email, e.project_id, e.details
    FROM audit_events e LEFT JOIN users u ON u.id = e.actor_id
   WHERE NOT (e.action = 'user.sign_in' AND coalesce(e.details->>'method', '') = 'password')
  UNION ALL
  SELECT a.id, a.at,
         CASE WHEN a.success THEN 'sign-in' ELSE 'sign-in.failed' END AS action,
         'sign-ins' AS kind,
         CASE WHEN a.success THEN a.email END AS actor, a.email AS actor_key,
         'sign_in' AS target_type, NULL::text AS target_id, a.email AS target_email, NULL::text AS project_id,
         jsonb_build_object('address', a.address) AS details
    FROM sign_in_attempts a`;

interface LogRow {
  id: string;
  at: Date | string;
  action: string;
  actor: string | null;
  target: string;
  project: string | null;
  details: unknown;
}

export async function listAuditLog(sql: SqlExecutor, principal: Principal, filters: AuditLogFilterInput = {}): Promise<AuditLogPage> {
  assertAdmin(principal);
  const input = parseFilters(filters);

  const params: unknown[] = [];
  const where: string[] = [];
  if (input.kind !== "all") {
    params.push(input.kind);
    where.push(`l.kind = $${params.length}`);
  }
  if (input.actor) {
    // strpos, not LIKE: % and _ in the filter are plain characters.
    params.push(input.actor.toLowerCase());
    where.push(`strpos(lower(coalesce(l.actor_key, '')), $${params.length}::text) > 0`);
  }
  // Stored times are UTC without a zone; the bounds are compared as UTC too.
  if (input.since) {
    params.push(input.since.toISOString());
    where.push(`l.at >= ($${params.length}::timestamptz AT TIME ZONE 'UTC')`);
  }
  if (input.before) {
    params.push(input.before.toISOString());
    where.push(`l.at < ($${params.length}::timestamptz AT TIME ZONE 'UTC')`);
  }
  const whereSql = where.length ? `WHERE ${where.join(" AND ")}` : "";

  const [count] = await sql.query<{ total: number }>(`SELECT count(*)::int AS total FROM (${logSql}) l ${whereSql}`, params);
  const total = count?.total ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / auditLogPageSize));
  const page = Math.min(input.page, pageCount);

  const rows = await sql.query<LogRow>(
    `WITH page AS (
       SELECT l.* FROM (${logSql}) l ${whereSql}
        ORDER BY l.at DESC, l.id DESC
        LIMIT ${auditLogPageSize} OFFSET ${(page - 1) * auditLogPageSize}
     )
     SELECT page.id, page.at AT TIME ZONE 'UTC' AS at, page.action, page.actor, page.details,
            CASE
              WHEN page.target_email IS NOT NULL THEN page.target_email
              WHEN r.title IS NOT NULL THEN r.title
              WHEN pr.title IS NOT NULL THEN pr.title
              WHEN s.name IS NOT NULL THEN s.name
              WHEN g.label IS NOT NULL THEN g.label || ' (' || gs.name || ')'
              WHEN tu.email IS NOT NULL THEN tu.email
              WHEN tp.name IS NOT NULL THEN tp.name
              WHEN page.target_id IS NULL THEN replace(page.target_type, '_', ' ')
              ELSE replace(page.target_type, '_', ' ') || ' ' || left(page.target_id, 8)
            END AS target,
            CASE WHEN page.project_id IS NULL THEN NULL ELSE coalesce(p.name, 'project ' || left(page.project_id, 8)) END AS project
       FROM page
       LEFT JOIN records r ON page.target_type = 'record' AND r.id = page.target_id
       LEFT JOIN proposals pp ON page.target_type = 'proposal' AND pp.id = page.target_id
       LEFT JOIN records pr ON pr.id = pp.record_id
       LEFT JOIN sections s ON page.target_type = 'section' AND s.id = page.target_id
       LEFT JOIN embed_groups g ON page.target_type = 'embed_group' AND g.id = page.target_id
       LEFT JOIN sections gs ON gs.id = g.section_id
       LEFT JOIN users tu ON page.target_type = 'user' AND tu.id = page.target_id
       LEFT JOIN projects tp ON page.target_type = 'project' AND tp.id = page.target_id
       LEFT JOIN projects p ON p.id = page.project_id
      ORDER BY page.at DESC, page.id DESC`,
    params,
  );

  return {
    entries: rows.map((row) => ({
      id: row.id,
      at: new Date(row.at),
      action: row.action,
      actor: row.actor,
      target: row.target,
      project: row.project,
      details:
        row.details !== null && typeof row.details === "object" && !Array.isArray(row.details)
          ? (row.details as Record<string, unknown>)
          : row.details == null
            ? {}
            : { value: row.details },
    })),
    total,
    page,
    pageCount,
  };
}
