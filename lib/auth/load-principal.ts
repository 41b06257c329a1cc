import "server-only";
import type { Principal } from "../acl";
import type { PrismaClient } from "../db/generated/client";

/**
 * Resolves a signed-in user into a Principal from the database, so role and membership
 * changes apply on the next request. Null when the user is gone, deactivated, or the session
 * predates a sessionVersion bump (sign-out everywhere, password reset).
 */
export async function loadPrincipal(
  prisma: PrismaClient,
  userId: string,
  sessionVersion: number,
): Promise<Principal | null> {
  const user = await prisma.user.findUnique({
    where: { id: userId },
    include: { memberships: { select: { projectId: true, role: true } } },
  });
  if (!user || !user.active || user.sessionVersion !== sessionVersion) return null;
  return {
    userId: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    readableProjectIds: user.memberships.map((membership) => membership.projectId),
    editableProjectIds: user.memberships
      .filter((membership) => membership.role === "editor")
      .map((membership) => membership.projectId),
  };
}
