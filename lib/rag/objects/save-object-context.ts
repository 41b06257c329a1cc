import "server-only";
import { type Principal, actorIdOf, assertAdmin } from "../../acl";
import { sectionFieldsSchema } from "../../archive/field-definitions";
import { forgetSections } from "../../archive/sections";
import { audit } from "../../db/audit";
import { Prisma, type PrismaClient } from "../../db/generated/client";
import type { SqlExecutor } from "../../db/sql-executor";
import { AppError, notFound } from "../../errors";
import { enqueueReindex } from "../index/index-queue";
import { type ObjectContext, validateObjectContext } from "../config/object-context";

/**
 * An admin sets (or clears, with null) a section's object context. Invalid contexts never save:
 * every problem is returned by field path. Saving re-queues the section's records, so their
 * image and context vectors follow the new image fields and roles; the change is audited.
 * Anyone but an admin is told the section does not exist, as for every admin route.
 */
export async function saveObjectContext(
  prisma: PrismaClient,
  sql: SqlExecutor,
  principal: Principal,
  input: { sectionSlug: string; context: unknown },
): Promise<{ context: ObjectContext | null; queued: number }> {
  assertAdmin(principal);
  const rows = await prisma.section.findMany({ select: { id: true, slug: true, fields: true, objectContext: true } });
  const section = rows.find((row) => row.slug === input.sectionSlug);
  if (!section) throw notFound();
  let context: ObjectContext | null = null;
  if (input.context !== null) {
    const others = new Map(rows.map((row) => [row.slug, { objectContext: row.objectContext }]));
    const validated = validateObjectContext(input.context, sectionFieldsSchema.parse(section.fields), others, section.slug);
    if (!validated.ok) {
      const fieldErrors: Record<string, string[]> = {};
      for (const problem of validated.problems) (fieldErrors[problem.path || "_form"] ??= []).push(problem.message);
      throw new AppError(
        "bad_request",
        `The object context is not valid: ${validated.problems.map((problem) => `${problem.path}: ${problem.message}`).join("; ")}`,
        { fieldErrors },
      );
    }
    context = validated.context;
  }
  await prisma.$transaction([
    prisma.section.update({
      where: { id: section.id },
      data: { objectContext: context === null ? Prisma.DbNull : (context as unknown as Prisma.InputJsonValue) },
    }),
    audit(prisma, {
      actorId: actorIdOf(principal),
      action: "section.object_context",
      targetType: "section",
      targetId: section.id,
      details: { section: section.slug, before: section.objectContext, after: context },
    }),
  ]);
  forgetSections(prisma);
  const queued = await enqueueReindex(sql, { sectionId: section.id }, "object-context.changed");
  return { context, queued };
}

/** Every section's slug, name, fields and stored object context, in the archive's order: what the object context form offers. */
export async function listSectionsForObjectContext(prisma: PrismaClient) {
  return prisma.section.findMany({ orderBy: [{ position: "asc" }, { name: "asc" }], select: { slug: true, name: true, fields: true, objectContext: true } });
}
