import "server-only";
import { z } from "zod";
import { type Principal, actorIdOf, canEdit, canEditSomeProject, editScopeSql, projectScopeSql } from "../../acl";
import { proposalScopeSql } from "../../acl/derived-scope";
import { valuesAsSeenBy } from "../../archive/get-record";
import { saveRecord } from "../../archive/save-record";
import { audit } from "../../db/audit";
import type { Prisma, PrismaClient } from "../../db/generated/client";
import { AppError, notFound } from "../../errors";
import { type RoleCharacterisation, characteriseObject, proposedFieldValue } from "./characterise";
import type { ProposalFlag, StatedValue } from "./respect-statements";
import { loadObjectSubject } from "./object-neighbours";
import { type ProposalRole, proposalRoles } from "../config/object-context";
import type { ObjectsRuntime } from "./similar-objects";
import { maxProposalTextLength } from "./proposal-limits";
import { whereEquals } from "../../db/sql-where";

/**
 * Proposals as curators decide them. A proposal is stored with its evidence (the voting
 * neighbours, their weights and thumbnails) and the records and projects that evidence came
 * from; it is shown only to someone who may read the record AND the project of every one of
 * those records as it is now (a neighbour moved into a restricted project hides it at once), so
 * a proposal drawn from a restricted project never tells an outsider anything. Accepting or overriding
 * writes the value through the normal record save — validation, version check, audit, indexing
 * outbox — and the decision in the same transaction; researchers may look but not decide.
 */
export type ProposalValue = string | { from: number; to: number };

const yearSchema = z.number().int().min(-10_000).max(3_000);
export const proposalValueSchema = z.union([
  z.string().trim().min(1, "Give a value.").max(maxProposalTextLength, `At most ${maxProposalTextLength} characters.`),
  z.object({ from: yearSchema, to: yearSchema }).refine((range) => range.from <= range.to, "The earliest year must not be after the latest."),
]);

export const decisionSchema = z.discriminatedUnion("action", [
  z.object({
    action: z.literal("accept"),
    recordId: z.string().max(64),
    role: z.enum(proposalRoles),
    /** The value the curator saw; if the proposal has changed since, nothing is written. */
    expected: proposalValueSchema.optional(),
  }),
  z.object({ action: z.literal("override"), recordId: z.string().max(64), role: z.enum(proposalRoles), value: proposalValueSchema }),
  z.object({ action: z.literal("reject"), recordId: z.string().max(64), role: z.enum(proposalRoles) }),
]);
export type DecisionInput = z.input<typeof decisionSchema>;

export interface ProposalEvidence {
  mode: string;
  confidence: number;
  votes: { value: string; share: number; voters: number }[];
  date: { earliest: number; latest: number; central: number } | null;
  voters: { recordId: string; title: string; projectId: string; weight: number; value: string; date: { from: number; to: number } | null }[];
  support: { recordId: string; title: string; mediaId: string | null }[];
  /** The value the record's own text states for the role: it outranks the votes. (Absent on older proposals.) */
  stated?: StatedValue | null;
  /** The neighbours' winner contradicted the record: it is not proposed, and this says why. */
  flag?: ProposalFlag | null;
  /**
   * False when nothing consistent with the record remains to propose: the item is stored to show
   * its flag (its value is the contradicted vote) and can be overridden or rejected, not accepted.
   */
  proposed?: boolean;
  /** A value proposed by an agent (propose-value.ts, mode "agent"): the proposer's reason, in place of neighbours. */
  note?: string | null;
}

export interface StoredProposal {
  id: string;
  recordId: string;
  recordTitle: string;
  sectionSlug: string;
  sectionName: string;
  role: ProposalRole;
  value: ProposalValue;
  confidence: number;
  evidence: ProposalEvidence;
  status: "pending" | "accepted" | "overridden" | "rejected";
  decidedValue: ProposalValue | null;
  decidedAt: Date | null;
  decidedBy: string | null;
  createdAt: Date;
  thumbnailMediaId: string | null;
  /** Whether the stored value is a proposal (false: a flagged vote that contradicts the record). */
  proposed: boolean;
  flag: ProposalFlag | null;
  stated: StatedValue | null;
}

export function sameValue(a: ProposalValue | null | undefined, b: ProposalValue | null | undefined): boolean {
  if (a === null || a === undefined || b === null || b === undefined) return false;
  if (typeof a === "string" || typeof b === "string")
    return typeof a === typeof b && String(a).trim().toLocaleLowerCase() === String(b).trim().toLocaleLowerCase();
  return a.from === b.from && a.to === b.to;
}

export function formatProposalValue(value: ProposalValue | null): string {
  if (value === null) return "";
  if (typeof value === "string") return value;
  const year = (y: number) => (y < 0 ? `${-y} BC` : String(y));
  if (value.from < 0 && value.to > 0) return `${year(value.from)} – AD ${value.to}`;
  return value.from === value.to ? year(value.from) : `${year(value.from)} – ${year(value.to)}`;
}

function evidenceOf(role: RoleCharacterisation, mode: string): ProposalEvidence {
  const judged = role.judgement;
  return {
    mode,
    confidence: judged.value === null ? (judged.flag?.share ?? 0) : judged.confidence,
    votes: (role.categorical?.votes ?? []).map((vote) => ({ value: vote.value, share: vote.share, voters: vote.voters })),
    date: role.date ? { earliest: role.date.earliest, latest: role.date.latest, central: role.date.central } : null,
    voters: role.voters,
    support: role.support.map((neighbour) => ({ recordId: neighbour.recordId, title: neighbour.title, mediaId: neighbour.images[0]?.mediaId ?? null })),
    stated: judged.stated,
    flag: judged.flag,
    proposed: judged.value !== null,
  };
}

/** What a role's proposal stores: the proposed value, or (flagged, not proposed) the contradicted vote; null when neither. */
function storedValueOf(role: RoleCharacterisation): ProposalValue | null {
  return proposedFieldValue(role) ?? role.judgement.flag?.vote ?? null;
}

/** The columns of a stored proposal (`p`) and its record (`r`) that decide who may see it. */
const proposalColumns = { recordProject: "r.project_id", evidenceRecordIds: "p.evidence_record_ids", evidenceProjectIds: "p.evidence_project_ids" };

interface ProposalRow {
  id: string;
  record_id: string;
  title: string;
  slug: string;
  name: string;
  role: ProposalRole;
  value: ProposalValue;
  confidence: number;
  evidence: ProposalEvidence;
  status: StoredProposal["status"];
  decided_value: ProposalValue | null;
  decided_at: Date | null;
  decided_by: string | null;
  created_at: Date;
  thumbnail: string | null;
}

const proposalSelect = `
  SELECT p.id, p.record_id, r.title, s.slug, s.name, p.role, p.value, p.confidence, p.evidence, p.status,
         p.decided_value, p.decided_at, u.name AS decided_by, p.created_at,
         (SELECT m.id FROM media m WHERE m.record_id = r.id AND m.kind = 'image' ORDER BY m.field_key LIMIT 1) AS thumbnail
    FROM proposals p JOIN records r ON r.id = p.record_id JOIN sections s ON s.id = r.section_id
    LEFT JOIN users u ON u.id = p.decided_by_id`;

function toStored(row: ProposalRow): StoredProposal {
  return {
    id: row.id,
    recordId: row.record_id,
    recordTitle: row.title,
    sectionSlug: row.slug,
    sectionName: row.name,
    role: row.role,
    value: row.value,
    confidence: Number(row.confidence),
    evidence: row.evidence,
    status: row.status,
    decidedValue: row.decided_value,
    decidedAt: row.decided_at ? new Date(row.decided_at) : null,
    decidedBy: row.decided_by,
    createdAt: new Date(row.created_at),
    thumbnailMediaId: row.thumbnail,
    proposed: row.evidence.proposed !== false,
    flag: row.evidence.flag ?? null,
    stated: row.evidence.stated ?? null,
  };
}

/** The latest stored proposal per role of one record that the principal may see. */
export async function proposalsForRecord(runtime: Pick<ObjectsRuntime, "sql">, principal: Principal, recordId: string): Promise<StoredProposal[]> {
  const params: unknown[] = [recordId];
  const scope = proposalScopeSql(principal, proposalColumns, params);
  const rows = await runtime.sql.query<ProposalRow>(
    `SELECT DISTINCT ON (p.role) * FROM (${proposalSelect} WHERE p.record_id = $1 AND ${scope}) p ORDER BY p.role, (p.status = 'pending') DESC, p.created_at DESC`,
    params,
  );
  return rows.map(toStored);
}

export const reviewPageSize = 25;

/** The review queue: pending proposals the principal may see, newest first, a page at a time. */
export async function listPendingProposals(
  runtime: Pick<ObjectsRuntime, "sql">,
  principal: Principal,
  input: { page?: number; role?: ProposalRole; sectionSlug?: string } = {},
): Promise<{ proposals: StoredProposal[]; total: number; page: number; pageCount: number }> {
  const params: unknown[] = [];
  // A role filled in meanwhile (by a decision or an ordinary edit) has nothing left to review.
  const where = [`p.status = 'pending'`, `NOT (r."values" ? (s.object_context->'roles'->>p.role))`, proposalScopeSql(principal, proposalColumns, params)];
  whereEquals(where, params, "p.role", input.role);
  whereEquals(where, params, "s.slug", input.sectionSlug);
  const [count] = await runtime.sql.query<{ total: number }>(
    `SELECT count(*)::int AS total FROM proposals p JOIN records r ON r.id = p.record_id JOIN sections s ON s.id = r.section_id WHERE ${where.join(" AND ")}`,
    params,
  );
  const total = count?.total ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / reviewPageSize));
  const page = Math.min(Math.max(1, Math.trunc(input.page ?? 1)), pageCount);
  const rows = await runtime.sql.query<ProposalRow>(
    `${proposalSelect} WHERE ${where.join(" AND ")} ORDER BY p.created_at DESC, p.id LIMIT ${reviewPageSize} OFFSET ${(page - 1) * reviewPageSize}`,
    params,
  );
  return { proposals: rows.map(toStored), total, page, pageCount };
}

export interface AccuracyRow {
  role: ProposalRole;
  decided: number;
  accepted: number;
  overridden: number;
  rejected: number;
  /** accepted as proposed / decided */
  accuracy: number | null;
}

/** Per role: how often curators accepted what the neighbours proposed, over the decisions the principal may see (agents' proposals are not the model's). */
export async function proposalAccuracy(runtime: Pick<ObjectsRuntime, "sql">, principal: Principal): Promise<AccuracyRow[]> {
  const params: unknown[] = [];
  const scope = proposalScopeSql(principal, proposalColumns, params);
  const rows = await runtime.sql.query<{ role: ProposalRole; status: string; count: number }>(
    `SELECT p.role, p.status, count(*)::int AS count FROM proposals p JOIN records r ON r.id = p.record_id
      WHERE p.status <> 'pending' AND p.mode <> 'agent' AND ${scope} GROUP BY p.role, p.status`,
    params,
  );
  return proposalRoles.map((role) => {
    const of = (status: string) => rows.find((row) => row.role === role && row.status === status)?.count ?? 0;
    const accepted = of("accepted");
    const overridden = of("overridden");
    const rejected = of("rejected");
    const decided = accepted + overridden + rejected;
    return { role, decided, accepted, overridden, rejected, accuracy: decided ? accepted / decided : null };
  });
}

function forbidDecision(): AppError {
  return new AppError("forbidden", "Only curators who edit this record's project may decide its proposals.");
}

/**
 * Accept, override or reject the proposal for one role of one object. The proposal decided is
 * the stored pending one the principal may see, or else the one computed now under their access.
 */
export async function decideProposal(
  runtime: ObjectsRuntime,
  prisma: PrismaClient,
  principal: Principal,
  raw: DecisionInput,
): Promise<{ status: StoredProposal["status"]; recordVersion: number | null }> {
  const input = decisionSchema.parse(raw);
  const subject = await loadObjectSubject(runtime.sql, principal, input.recordId);
  if (!canEdit(principal, { projectId: subject.projectId })) throw forbidDecision();
  const fieldKey = subject.context.roles[input.role];
  if (!fieldKey) throw new AppError("bad_request", `This collection does not catalogue a ${input.role}.`);
  const fieldLabel = subject.fields.find((field) => field.key === fieldKey)?.label ?? input.role;

  const stored = (await proposalsForRecord(runtime, principal, subject.recordId)).find(
    (proposal) => proposal.role === input.role && proposal.status === "pending",
  );
  let proposal: { id: string | null; value: ProposalValue; confidence: number; evidence: ProposalEvidence; evidenceProjectIds: string[]; mode: string };
  if (stored) {
    proposal = {
      id: stored.id,
      value: stored.value,
      confidence: stored.confidence,
      evidence: stored.evidence,
      evidenceProjectIds: [],
      mode: stored.evidence.mode,
    };
  } else {
    const characterisation = await characteriseObject(runtime, principal, { recordId: subject.recordId, subject });
    const role = characterisation.roles.find((candidate) => candidate.role === input.role);
    const value = role ? storedValueOf(role) : null;
    if (!role || value === null)
      throw new AppError("bad_request", `There is no proposal for the ${fieldLabel.toLowerCase()} of this object: no similar catalogued object has one.`);
    const evidence = evidenceOf(role, characterisation.mode);
    proposal = { id: null, value, confidence: evidence.confidence, evidence, evidenceProjectIds: evidenceProjectsOf(role), mode: characterisation.mode };
  }
  if (input.action === "accept" && proposal.evidence.proposed === false) {
    throw new AppError(
      "conflict",
      `Nothing is proposed for the ${fieldLabel.toLowerCase()}: the neighbours' ${formatProposalValue(proposal.value)} contradicts the record (${proposal.evidence.flag?.contradicts ?? "its own text"}). Override it with a value or reject it.`,
    );
  }
  if (input.action === "accept" && input.expected !== undefined && !sameValue(input.expected, proposal.value)) {
    throw new AppError("conflict", `The proposal changed since the page was loaded (now ${formatProposalValue(proposal.value)}). Review it again.`);
  }
  const status = input.action === "accept" ? "accepted" : input.action === "override" ? "overridden" : "rejected";
  const decidedValue: ProposalValue | null = input.action === "accept" ? proposal.value : input.action === "override" ? input.value : null;
  const field = subject.fields.find((candidate) => candidate.key === fieldKey);
  if (decidedValue !== null && (field?.type === "daterange") !== (typeof decidedValue === "object")) {
    throw new AppError(
      "bad_request",
      field?.type === "daterange" ? `${fieldLabel}: give an earliest and a latest year.` : `${fieldLabel}: give a value, not a range.`,
      {
        fieldErrors: { value: [field?.type === "daterange" ? "Give an earliest and a latest year." : "Give a value."] },
      },
    );
  }

  const record = await prisma.record.findUnique({ where: { id: subject.recordId } });
  if (!record) throw notFound();
  const writeDecision = async (tx: Prisma.TransactionClient) => {
    const data = {
      status,
      decidedValue: decidedValue === null ? undefined : (decidedValue as Prisma.InputJsonValue),
      decidedById: actorIdOf(principal),
      decidedAt: new Date(),
    } as const;
    let proposalId = proposal.id;
    if (proposalId) {
      const updated = await tx.proposal.updateMany({ where: { id: proposalId, status: "pending" }, data });
      if (updated.count === 0) throw new AppError("conflict", "Someone decided this proposal meanwhile. Reload to see their decision.");
    } else {
      const created = await tx.proposal.create({
        data: {
          recordId: subject.recordId,
          role: input.role,
          value: proposal.value as Prisma.InputJsonValue,
          confidence: proposal.confidence,
          evidence: proposal.evidence as unknown as Prisma.InputJsonValue,
          evidenceProjectIds: proposal.evidenceProjectIds,
          evidenceRecordIds: evidenceRecordsOf(proposal.evidence),
          proposedById: actorIdOf(principal),
          mode: proposal.mode,
          ...data,
        },
      });
      proposalId = created.id;
    }
    await audit(tx, {
      actorId: actorIdOf(principal),
      action: `proposal.${input.action}`,
      targetType: "proposal",
      targetId: proposalId,
      projectId: subject.projectId,
      details: { recordId: subject.recordId, role: input.role, proposed: proposal.value, decided: decidedValue, confidence: proposal.confidence },
    });
  };

  if (decidedValue === null) {
    await prisma.$transaction(writeDecision);
    return { status, recordVersion: null };
  }
  const saved = await saveRecord(prisma, principal, {
    id: record.id,
    version: record.version,
    sectionSlug: subject.sectionSlug,
    projectId: record.projectId,
    // Saved as the decider sees the record: a link to a record they cannot read is kept by the save, not refused.
    values: { ...(await valuesAsSeenBy(prisma, principal, subject.fields, record.values as Record<string, unknown>)), [fieldKey]: decidedValue },
    through: { via: "proposal", role: input.role, proposalId: proposal.id ?? undefined },
    onSaved: (tx) => writeDecision(tx),
  });
  return { status, recordVersion: saved.version };
}

/** The projects of the neighbours that voted on this role. */
function evidenceProjectsOf(role: RoleCharacterisation): string[] {
  return [...new Set(role.voters.map((voter) => voter.projectId))].sort();
}

/** The records the evidence shows: the voters and the supporting neighbours. */
function evidenceRecordsOf(evidence: ProposalEvidence): string[] {
  return [...new Set([...evidence.voters.map((voter) => voter.recordId), ...evidence.support.map((neighbour) => neighbour.recordId)])].sort();
}

/**
 * Stores pending proposals for the uncatalogued roles of objects the principal may edit (a
 * role with no value and no pending proposal), computed under the principal's access. At most
 * `limit` records per call; returns what it did so the page can say so.
 */
export async function proposeForUncatalogued(
  runtime: ObjectsRuntime,
  principal: Principal,
  input: { sectionSlug?: string; limit?: number } = {},
): Promise<{ examined: number; proposed: number; remaining: number }> {
  if (!canEditSomeProject(principal)) throw forbidDecision();
  const params: unknown[] = [];
  const editable = editScopeSql(principal, "r.project_id", params);
  const scope = projectScopeSql(principal, "r.project_id", params);
  const where = [`s.object_context IS NOT NULL`, editable, scope];
  whereEquals(where, params, "s.slug", input.sectionSlug);
  // Roles left empty (a role's field key is in object_context->'roles'), without a pending proposal.
  const candidates = await runtime.sql.query<{ id: string }>(
    `SELECT r.id FROM records r JOIN sections s ON s.id = r.section_id
      WHERE ${where.join(" AND ")}
        AND EXISTS (
          SELECT 1 FROM jsonb_each_text(s.object_context->'roles') AS role(name, field)
           WHERE NOT (r."values" ? role.field)
             AND NOT EXISTS (SELECT 1 FROM proposals p WHERE p.record_id = r.id AND p.role = role.name AND p.status = 'pending'))
      ORDER BY r.created_at, r.id`,
    params,
  );
  const limit = Math.max(1, Math.min(200, input.limit ?? 50));
  let proposed = 0;
  const batch = candidates.slice(0, limit);
  for (const { id } of batch) {
    const characterisation = await characteriseObject(runtime, principal, { recordId: id });
    if (characterisation.status !== "ok") continue;
    for (const role of characterisation.roles) {
      // A contradicted vote with nothing consistent to propose is stored too, to show its flag.
      const value = storedValueOf(role);
      if (role.current || value === null) continue;
      const evidence = evidenceOf(role, characterisation.mode);
      const inserted = await runtime.sql.query<{ id: string }>(
        `INSERT INTO proposals (id, record_id, role, value, confidence, evidence, status, evidence_project_ids, evidence_record_ids, proposed_by_id, mode)
         VALUES (gen_random_uuid()::text, $1, $2, $3::jsonb, $4, $5::jsonb, 'pending', $6::text[], $7::text[], $8, $9)
         ON CONFLICT DO NOTHING RETURNING id`,
        [
          id,
          role.role,
          JSON.stringify(value),
          evidence.confidence,
          JSON.stringify(evidence),
          evidenceProjectsOf(role),
          evidenceRecordsOf(evidence),
          actorIdOf(principal),
          characterisation.mode,
        ],
      );
      proposed += inserted.length;
    }
  }
  return { examined: batch.length, proposed, remaining: Math.max(0, candidates.length - batch.length) };
}
