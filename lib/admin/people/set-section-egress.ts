import "server-only";
import { z } from "zod";
import { type Principal, actorIdOf, assertAdmin, egressPolicies } from "../../acl";
import { forgetSections } from "../../archive/sections";
import { audit } from "../../db/audit";
import type { PrismaClient } from "../../db/generated/client";
import { notFound, parseInput } from "../../errors";

/** What each egress policy means, as the section's admin page states it. */
export const egressStatements = {
  local_only:
    "Text and images of this section never leave this server: external embedding, reranking, generation and image models are not sent them, and answers drawing on it are answered by the offline models only.",
  allow_external:
    "Text and images of this section may be sent to the external providers configured for this server (embedding, reranking, generation, image models), at indexing and at answer time.",
} as const;

const policySchema = z.enum(egressPolicies, { error: "Choose local_only or allow_external." });

export async function setSectionEgress(prisma: PrismaClient, principal: Principal, input: { sectionSlug: string; policy: unknown }): Promise<void> {
  assertAdmin(principal);
  const policy = parseInput(policySchema, input.policy);
  const section = await prisma.section.findUnique({ where: { slug: input.sectionSlug } });
  if (!section) throw notFound();
  await prisma.$transaction(async (tx) => {
    await tx.section.update({ where: { id: section.id }, data: { egressPolicy: policy } });
    await audit(tx, {
      actorId: actorIdOf(principal),
      action: "section.egress",
      targetType: "section",
      targetId: section.id,
      projectId: null,
      details: { section: section.slug, before: section.egressPolicy, after: policy },
    });
  });
  forgetSections(prisma);
}
