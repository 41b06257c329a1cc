import "server-only";
import { type Principal, assertAdmin } from "../../acl";
import type { PrismaClient } from "../../db/generated/client";

export interface AdminProject {
  id: string;
  slug: string;
  name: string;
  description: string;
  restricted: boolean;
  isPublic: boolean;
  records: number;
  members: { userId: string; email: string; name: string; role: "reader" | "editor"; userRole: string; active: boolean }[];
}

export async function listProjectsWithMembers(prisma: PrismaClient, principal: Principal): Promise<AdminProject[]> {
  assertAdmin(principal);
  const projects = await prisma.project.findMany({
    orderBy: { name: "asc" },
    include: { memberships: { include: { user: true }, orderBy: { user: { email: "asc" } } }, _count: { select: { records: true } } },
  });
  return projects.map((project) => ({
    id: project.id,
    slug: project.slug,
    name: project.name,
    description: project.description,
    restricted: project.restricted,
    isPublic: project.isPublic,
    records: project._count.records,
    members: project.memberships.map((membership) => ({
      userId: membership.userId,
      email: membership.user.email,
      name: membership.user.name,
      role: membership.role,
      userRole: membership.user.role,
      active: membership.user.active,
    })),
  }));
}
