import "server-only";
import { z } from "zod";
import { type Principal, actorIdOf, assertAdmin } from "../../acl";
import { audit } from "../../db/audit";
import type { PrismaClient } from "../../db/generated/client";
import { AppError, notFound, parseInput } from "../../errors";

/** What marking a project public means, as the admin page states it. */
export const publicProjectStatement =
  "Anyone, without signing in, can view this project's records through IIIF manifests and images, harvest them over OAI-PMH and play or view their media. The app itself (the record list, search, answers) still needs membership.";

const inputSchema = z.object({ projectSlug: z.string().min(1).max(64), isPublic: z.boolean() });

/** Marks a project public or not (admins only), with an audit event; publishing again restarts its public date. */
export async function setProjectPublic(prisma: PrismaClient, principal: Principal, input: unknown): Promise<void> {
  assertAdmin(principal);
  const { projectSlug, isPublic } = parseInput(inputSchema, input);
  const project = await prisma.project.findUnique({ where: { slug: projectSlug } });
  if (!project) throw notFound();
  if (project.isPublic === isPublic) return;
  if (isPublic && project.restricted) throw new AppError("bad_request", "A restricted project cannot be public: its records are for named members only.");
  await prisma.$transaction(async (tx) => {
    await tx.project.update({ where: { id: project.id }, data: isPublic ? { isPublic: true, publicSince: new Date() } : { isPublic: false } });
    await audit(tx, {
      actorId: actorIdOf(principal),
      action: isPublic ? "project.publish" : "project.unpublish",
      targetType: "project",
      targetId: project.id,
      projectId: project.id,
      details: { slug: project.slug },
    });
  });
}
