import "server-only";
import { type Principal, actorIdOf, canEdit, projectScopeWhere } from "../../acl";
import { sectionFieldsSchema } from "../../archive/field-definitions";
import { validateRecordValues } from "../../archive/validate-record-values";
import { audit } from "../../db/audit";
import type { Prisma, PrismaClient } from "../../db/generated/client";
import { AppError, notFound } from "../../errors";
import { isUuid } from "../../ids";
import { type ProposalRole, readObjectContext } from "../config/object-context";
import type { ProposalEvidence, ProposalValue } from "./proposals";

/**
 * A value proposed from outside the neighbour vote — by an agent through the API or MCP — for one
 * role (typology, material, period, date) of an object, stored as a pending proposal that
 * curators decide in the review queue and on the record page like any other (proposals.ts).
 * Nothing is written to the record. Proposing is refused where requesting proposals is refused
 * in the browser: a record the principal may not read is not found, one they may not edit is
 * forbidden. The value must be one the role's field would accept, and the role must be
 * uncatalogued with no proposal awaiting a decision (to change a catalogued value, update the
 * record). Its evidence is the proposer's note, not neighbours, and it does not count in the
 * proposals' accuracy.
 */
export const agentProposalMode = "agent";

export interface ProposeValueInput {
  recordId: string;
  role: ProposalRole;
  value: ProposalValue;
  /** Why: the proposer's reasoning or source, shown to the curator who decides. */
  note?: string;
  auditDetails?: Record<string, string | number | boolean | null>;
}

const conflictPending = (label: string) => new AppError("conflict", `A proposal for the ${label} of this record already awaits a curator's decision.`);

export async function proposeValue(
  prisma: PrismaClient,
  principal: Principal,
  input: ProposeValueInput,
): Promise<{ proposalId: string; recordId: string; role: ProposalRole; status: "pending" }> {
  if (!isUuid(input.recordId)) throw notFound();
  const record = await prisma.record.findFirst({ where: { id: input.recordId, ...projectScopeWhere(principal) }, include: { section: true } });
  if (!record) throw notFound();
  const context = readObjectContext(record.section.objectContext);
  if (!context) throw new AppError("bad_request", "This record is not an object: its section has no object context.");
  if (!canEdit(principal, record)) throw new AppError("forbidden", "Only curators who edit this record's project may propose values for it.");
  const fieldKey = context.roles[input.role];
  const field = sectionFieldsSchema.parse(record.section.fields).find((candidate) => candidate.key === fieldKey);
  if (!fieldKey || !field) {
    const message = `This collection does not catalogue a ${input.role}.`;
    throw new AppError("bad_request", message, { fieldErrors: { role: [message] } });
  }
  const checked = validateRecordValues([{ ...field, required: false }], { [field.key]: input.value });
  if (!checked.ok)
    throw new AppError("bad_request", "The value does not fit the field.", {
      fieldErrors: { value: checked.fieldErrors[field.key] ?? ["Not a valid value."] },
    });
  const label = field.label.toLowerCase();
  if ((record.values as Record<string, unknown>)[field.key] !== undefined) {
    throw new AppError("conflict", `The record already catalogues its ${label}; update the record to change it.`);
  }

  const value = checked.values[field.key] as ProposalValue;
  const evidence: ProposalEvidence = {
    mode: agentProposalMode,
    confidence: 0,
    votes: [],
    date: null,
    voters: [],
    support: [],
    stated: null,
    flag: null,
    proposed: true,
    note: input.note ?? null,
  };
  try {
    return await prisma.$transaction(async (tx) => {
      if (await tx.proposal.findFirst({ where: { recordId: record.id, role: input.role, status: "pending" }, select: { id: true } }))
        throw conflictPending(label);
      const created = await tx.proposal.create({
        data: {
          recordId: record.id,
          role: input.role,
          value: value as Prisma.InputJsonValue,
          confidence: 0,
          evidence: evidence as unknown as Prisma.InputJsonValue,
          proposedById: actorIdOf(principal),
          mode: agentProposalMode,
        },
      });
      await audit(tx, {
        actorId: actorIdOf(principal),
        action: "proposal.propose",
        targetType: "proposal",
        targetId: created.id,
        projectId: record.projectId,
        details: { ...input.auditDetails, recordId: record.id, role: input.role, proposed: value },
      });
      return { proposalId: created.id, recordId: record.id, role: input.role, status: "pending" as const };
    });
  } catch (error) {
    if (error instanceof AppError) throw error;
    // Two proposals at once: the one-pending-per-role index refuses the second.
    if (await prisma.proposal.findFirst({ where: { recordId: record.id, role: input.role, status: "pending" }, select: { id: true } }))
      throw conflictPending(label);
    throw error;
  }
}
