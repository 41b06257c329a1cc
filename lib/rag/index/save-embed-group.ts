import "server-only";
import type { PrismaClient } from "../../db/generated/client";
import type { SqlExecutor } from "../../db/sql-executor";
import { AppError } from "../../errors";
import { type EmbedGroup, sectionShapes } from "../config/embed-groups";
import { validateEmbedGroup } from "../config/embed-group-schema";
import { enqueueReindex } from "./index-queue";

/**
 * Creates or replaces a section's embed group (by slug) after validating it against the
 * sections, and re-queues the section's records so their passages follow the new definition.
 * Invalid groups never save; the error lists every problem.
 */
export async function saveEmbedGroup(
  prisma: PrismaClient,
  sql: SqlExecutor,
  input: { sectionSlug: string; group: unknown; requeue?: boolean },
): Promise<EmbedGroup> {
  const sections = await sectionShapes(prisma);
  const section = sections.get(input.sectionSlug);
  if (!section) throw new AppError("bad_request", `There is no section called "${input.sectionSlug.slice(0, 80)}".`);
  const validated = validateEmbedGroup(input.group, section.slug, sections);
  if (!validated.ok) {
    throw new AppError("bad_request", `The embed group is not valid: ${validated.errors.join("; ")}`, { fieldErrors: { group: validated.errors } });
  }
  const { group } = validated;
  const data = {
    label: group.label,
    fields: group.fields,
    chunking: group.chunking,
    maxTokens: group.maxTokens,
    minTokens: group.minTokens,
    overlap: group.overlap,
    languages: group.languages,
  };
  const row = await prisma.embedGroup.upsert({
    where: { sectionId_slug: { sectionId: section.id, slug: group.slug } },
    create: { sectionId: section.id, slug: group.slug, ...data },
    update: data,
  });
  if (input.requeue !== false) await enqueueReindex(sql, { sectionId: section.id }, "embed-group.changed");
  return { ...group, id: row.id, sectionId: section.id };
}
