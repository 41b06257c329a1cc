import "server-only";
import { type Principal, actorIdOf, assertAdmin } from "../../acl";
import { audit } from "../../db/audit";
import type { PrismaClient } from "../../db/generated/client";
import { AppError } from "../../errors";
import { findUser } from "./find-user";

/** Deactivating ends every session of the user at once; reactivating lets them sign in again. */
export async function setUserActive(prisma: PrismaClient, principal: Principal, input: { userId: string; active: boolean }): Promise<void> {
  assertAdmin(principal);
  const user = await findUser(prisma, input.userId);
  if (user.id === principal.userId && !input.active) throw new AppError("bad_request", "You cannot deactivate yourself.");
  await prisma.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { active: input.active, ...(input.active ? {} : { sessionVersion: { increment: 1 } }) } });
    await audit(tx, {
      actorId: actorIdOf(principal),
      action: input.active ? "user.activate" : "user.deactivate",
      targetType: "user",
      targetId: user.id,
      projectId: null,
      details: { email: user.email },
    });
  });
}
