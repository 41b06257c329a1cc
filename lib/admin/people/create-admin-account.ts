import "server-only";
import { systemPrincipal } from "../../acl";
import { hashPassword } from "../../auth/passwords";
import { audit } from "../../db/audit";
import type { PrismaClient } from "../../db/generated/client";
import { AppError, parseInput } from "../../errors";
import { createUserAsAdmin } from "./create-user";
import { newUserSchema } from "./people-schemas";

const adminAccountSchema = newUserSchema.omit({ role: true });

export interface AdminAccountResult {
  id: string;
  email: string;
  /** False when an existing account was made an active admin with a new password. */
  created: boolean;
}

/**
 * An admin account made from the command line (`npm run create-admin`): the way into an
 * installation that has no account yet (a new one, or one filled by restoring project backups,
 * whose members are matched by email and never created). An email already taken is refused unless
 * `resetExisting`: then that account becomes an active admin with the new password, and every
 * session it had ends. Audited with no actor, as other command-line changes are.
 */
export async function createAdminAccount(prisma: PrismaClient, input: unknown, options: { resetExisting?: boolean } = {}): Promise<AdminAccountResult> {
  const data = parseInput(adminAccountSchema, input);
  const existing = await prisma.user.findUnique({ where: { email: data.email }, select: { id: true } });
  if (!existing) {
    const { id } = await createUserAsAdmin(prisma, systemPrincipal, { ...data, role: "admin" });
    return { id, email: data.email, created: true };
  }
  if (!options.resetExisting) {
    throw new AppError(
      "conflict",
      `An account with the email ${data.email} already exists. Run again with --reset-password to make it an active admin with a new password.`,
      {
        fieldErrors: { email: ["An account with this email already exists."] },
      },
    );
  }
  const passwordHash = await hashPassword(data.password);
  await prisma.$transaction(async (tx) => {
    await tx.user.update({ where: { id: existing.id }, data: { passwordHash, role: "admin", active: true, sessionVersion: { increment: 1 } } });
    await audit(tx, { actorId: null, action: "user.admin_reset", targetType: "user", targetId: existing.id, projectId: null, details: { email: data.email } });
  });
  return { id: existing.id, email: data.email, created: false };
}
