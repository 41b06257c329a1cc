import "server-only";
import { type Principal, actorIdOf, assertAdmin } from "../../acl";
import { audit } from "../../db/audit";
import type { PrismaClient } from "../../db/generated/client";
import { AppError, parseInput } from "../../errors";
import { findUser } from "./find-user";
import { roleSchema } from "./people-schemas";

export async function setUserRole(prisma: PrismaClient, principal: Principal, input: { userId: string; role: unknown }): Promise<void> {
  assertAdmin(principal);
  const user = await findUser(prisma, input.userId);
  const role = parseInput(roleSchema, input.role);
  if (user.id === principal.userId && role !== "admin") throw new AppError("bad_request", "You cannot remove your own administrator role; ask another admin.");
  await prisma.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { role } });
    await audit(tx, {
      actorId: actorIdOf(principal),
      action: "user.role",
      targetType: "user",
      targetId: user.id,
      projectId: null,
      details: { email: user.email, before: user.role, after: role },
    });
  });
}
