import "server-only";
import { type Principal, actorIdOf, assertAdmin } from "../../acl";
import { hashPassword } from "../../auth/passwords";
import { audit } from "../../db/audit";
import type { PrismaClient } from "../../db/generated/client";
import { AppError, parseInput } from "../../errors";
import { newUserSchema } from "./people-schemas";

export async function createUserAsAdmin(prisma: PrismaClient, principal: Principal, input: unknown): Promise<{ id: string }> {
  assertAdmin(principal);
  const data = parseInput(newUserSchema, input);
  if (await prisma.user.findUnique({ where: { email: data.email } })) {
    throw new AppError("bad_request", "A user with this email already exists.", { fieldErrors: { email: ["A user with this email already exists."] } });
  }
  const passwordHash = await hashPassword(data.password);
  return prisma.$transaction(async (tx) => {
    const user = await tx.user.create({ data: { email: data.email, name: data.name, role: data.role, passwordHash } });
    await audit(tx, {
      actorId: actorIdOf(principal),
      action: "user.create",
      targetType: "user",
      targetId: user.id,
      projectId: null,
      details: { email: data.email, role: data.role },
    });
    return { id: user.id };
  });
}
