import "server-only";
import { type Principal, assertAdmin } from "../../acl";
import type { PrismaClient } from "../../db/generated/client";

export interface AdminUser {
  id: string;
  email: string;
  name: string;
  role: "admin" | "curator" | "researcher";
  active: boolean;
  createdAt: Date;
  memberships: { projectId: string; projectName: string; role: "reader" | "editor" }[];
}

export async function listUsers(prisma: PrismaClient, principal: Principal): Promise<AdminUser[]> {
  assertAdmin(principal);
  const users = await prisma.user.findMany({
    orderBy: [{ active: "desc" }, { email: "asc" }],
    include: { memberships: { include: { project: { select: { name: true } } } } },
  });
  return users.map((user) => ({
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    active: user.active,
    createdAt: user.createdAt,
    memberships: user.memberships.map((membership) => ({ projectId: membership.projectId, projectName: membership.project.name, role: membership.role })),
  }));
}
