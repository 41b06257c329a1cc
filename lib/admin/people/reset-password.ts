import "server-only";
import { type Principal, actorIdOf, assertAdmin } from "../../acl";
import { hashPassword } from "../../auth/passwords";
import { audit } from "../../db/audit";
import type { PrismaClient } from "../../db/generated/client";
import { parseInput } from "../../errors";
import { findUser } from "./find-user";
import { passwordSchema } from "./people-schemas";

/** A new password; every session of the user ends. */
export async function resetPassword(prisma: PrismaClient, principal: Principal, input: { userId: string; password: unknown }): Promise<void> {
  assertAdmin(principal);
  const user = await findUser(prisma, input.userId);
  const password = parseInput(passwordSchema, input.password);
  const passwordHash = await hashPassword(password);
  await prisma.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { passwordHash, sessionVersion: { increment: 1 } } });
    await audit(tx, {
      actorId: actorIdOf(principal),
      action: "user.password_reset",
      targetType: "user",
      targetId: user.id,
      projectId: null,
      details: { email: user.email },
    });
  });
}
