import "server-only";
import { type Principal, actorIdOf, assertAdmin } from "../../acl";
import { audit } from "../../db/audit";
import type { PrismaClient } from "../../db/generated/client";
import { AppError, parseInput } from "../../errors";
import { newProjectSchema } from "./people-schemas";

export async function createProjectAsAdmin(prisma: PrismaClient, principal: Principal, input: unknown): Promise<{ id: string }> {
  assertAdmin(principal);
  const data = parseInput(newProjectSchema, input);
  if (await prisma.project.findUnique({ where: { slug: data.slug } })) {
    throw new AppError("bad_request", "A project with this slug already exists.", { fieldErrors: { slug: ["A project with this slug already exists."] } });
  }
  return prisma.$transaction(async (tx) => {
    const project = await tx.project.create({ data });
    await audit(tx, {
      actorId: actorIdOf(principal),
      action: "project.create",
      targetType: "project",
      targetId: project.id,
      projectId: project.id,
      details: { slug: data.slug, restricted: data.restricted },
    });
    return { id: project.id };
  });
}
