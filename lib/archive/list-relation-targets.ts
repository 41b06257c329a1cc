import "server-only";
import { type Principal, projectScopeWhere } from "../acl";
import type { PrismaClient } from "../db/generated/client";

export interface RelationTarget {
  id: string;
  title: string;
}

/**
 * Records of one section the principal may read, by title: the choices a relation field offers
 * in the record form. Scoped like every other read, so a form never lists an unreadable title.
 */
export async function listRelationTargets(
  prisma: PrismaClient,
  principal: Principal,
  options: { sectionSlug: string; limit?: number },
): Promise<RelationTarget[]> {
  return prisma.record.findMany({
    where: { section: { slug: options.sectionSlug }, ...projectScopeWhere(principal) },
    select: { id: true, title: true },
    orderBy: [{ title: "asc" }, { id: "asc" }],
    take: Math.min(Math.max(options.limit ?? 1000, 1), 1000),
  });
}
