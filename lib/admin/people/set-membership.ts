import "server-only";
import { z } from "zod";
import { type Principal, actorIdOf, assertAdmin } from "../../acl";
import { forgetProjectSets } from "../../auth/load-principal";
import { audit } from "../../db/audit";
import type { PrismaClient } from "../../db/generated/client";
import { AppError, notFound, parseInput } from "../../errors";
import { findUser } from "./find-user";
import { idSchema } from "./people-schemas";

const membershipRoleSchema = z.enum(["reader", "editor"], { error: "Choose reader or editor." });

/** Adds, changes (reader/editor) or, with role null, removes a membership. */
export async function setMembership(
  prisma: PrismaClient,
  principal: Principal,
  input: { projectId: string; email?: string; userId?: string; role: "reader" | "editor" | null },
): Promise<void> {
  assertAdmin(principal);
  const projectId = parseInput(idSchema, input.projectId);
  const project = await prisma.project.findUnique({ where: { id: projectId } });
  if (!project) throw notFound();
  const user = input.userId
    ? await findUser(prisma, input.userId)
    : await prisma.user.findUnique({ where: { email: (input.email ?? "").trim().toLowerCase() } });
  if (!user) throw new AppError("bad_request", "There is no user with this email.", { fieldErrors: { email: ["There is no user with this email."] } });
  const role = input.role === null ? null : parseInput(membershipRoleSchema, input.role);
  await prisma.$transaction(async (tx) => {
    const before = await tx.membership.findUnique({ where: { userId_projectId: { userId: user.id, projectId } } });
    if (role === null) {
      if (before) await tx.membership.delete({ where: { userId_projectId: { userId: user.id, projectId } } });
    } else {
      await tx.membership.upsert({
        where: { userId_projectId: { userId: user.id, projectId } },
        create: { userId: user.id, projectId, role },
        update: { role },
      });
    }
    await audit(tx, {
      actorId: actorIdOf(principal),
      action: role === null ? "membership.remove" : before ? "membership.change" : "membership.add",
      targetType: "project",
      targetId: projectId,
      projectId,
      details: { email: user.email, before: before?.role ?? null, after: role },
    });
  });
  // After the commit: the user's next request in this process sees the change (others within MNEMO_PRINCIPAL_CACHE_MS).
  forgetProjectSets(prisma, user.id);
}
