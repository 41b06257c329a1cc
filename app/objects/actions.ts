"use server";

import { z } from "zod";
import { authorizedAction } from "@/lib/http/authorized";
import { type DecisionInput, decideProposal, decisionSchema, proposeForUncatalogued } from "@/lib/rag/objects/proposals";

const decide = authorizedAction(decisionSchema, async (input, { principal, runtime }) => {
  return decideProposal(await runtime.objects(), runtime.database.prisma, principal, input);
});

/** Accept, override or reject one role's proposal of an object (curators who edit its project). */
export async function decideProposalAction(input: DecisionInput) {
  return decide(input);
}

const propose = authorizedAction(z.object({ sectionSlug: z.string().max(64).optional() }), async (input, { principal, runtime }) =>
  proposeForUncatalogued(await runtime.objects(), principal, { sectionSlug: input.sectionSlug, limit: 50 }),
);

/** Stores pending proposals for up to 50 uncatalogued objects the curator may edit. */
export async function proposeForUncataloguedAction(input: { sectionSlug?: string }) {
  return propose(input);
}
