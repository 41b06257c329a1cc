import "server-only";
import { z } from "zod";
import { proposalRoles } from "../../rag/config/object-context";
import { proposalValueSchema } from "../../rag/objects/proposals";
import { proposeValue } from "../../rag/objects/propose-value";
import { proposeValueOutput } from "../api-schemas";
import { auditDetailsOf, recordIdInput } from "./inputs";
import { defineOperation } from "./operation";

export const proposeValueOperation = defineOperation({
  name: "propose_value",
  title: "Propose a value for an object",
  description:
    "Proposes a typology, material, period or date for an object record you may edit whose role is not catalogued yet, with a note saying why. Nothing is written to the record: " +
    "the proposal waits in the review queue, where a curator accepts, overrides or rejects it (as with the proposals drawn from similar objects). " +
    "The value must be one the role's field takes (a category's option; a date as {from, to} years). A role already catalogued, or one with a proposal awaiting a decision, is refused with 409. Needs a token with the write scope.",
  method: "POST",
  path: "/objects/{recordId}/proposals",
  pathParams: ["recordId"],
  input: z.strictObject({
    recordId: recordIdInput,
    role: z.enum(proposalRoles, "The role is typology, material, period or date.").describe("Which catalogue role the value is for."),
    value: proposalValueSchema.describe("The proposed value: text (a category's option) or, for the date, {from, to} years."),
    note: z.string().trim().max(1000, "At most 1000 characters.").optional().describe("Why: the evidence or source, shown to the curator who decides."),
  }),
  output: proposeValueOutput,
  cost: 1,
  scope: "write",
  writeHints: { idempotent: false, destructive: false },
  async run(input, context) {
    const proposed = await proposeValue(context.runtime.prisma, context.principal, { ...input, auditDetails: auditDetailsOf(context) });
    return { ...proposed, url: `${context.origin}/records/${proposed.recordId}` };
  },
});
