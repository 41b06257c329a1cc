import "server-only";
import type { Principal } from "../acl";
import type { FieldDefinition } from "./field-definitions";
import type { LinkedRecord } from "./get-record";
import { listEditableProjects } from "./list-projects";
import { listRelationTargets, type RelationTarget } from "./list-relation-targets";
import type { PrismaClient } from "../db/generated/client";

/**
 * What the record form offers: the projects the principal may edit, and for each relation field
 * the readable records of its target section. Targets the record already links to are kept as
 * choices even past the list's limit, so saving never drops a link the editor can see.
 */
export async function loadRecordFormOptions(
  prisma: PrismaClient,
  principal: Principal,
  fields: FieldDefinition[],
  current?: { values: Record<string, unknown>; relations: Record<string, LinkedRecord> },
): Promise<{ projects: Awaited<ReturnType<typeof listEditableProjects>>; relationOptions: Record<string, RelationTarget[]> }> {
  const relationFields = fields.filter((field) => field.type === "relation");
  const [projects, ...targetLists] = await Promise.all([
    listEditableProjects(prisma, principal),
    ...relationFields.map((field) => listRelationTargets(prisma, principal, { sectionSlug: field.targetSection, limit: 1000 })),
  ]);
  const relationOptions: Record<string, RelationTarget[]> = {};
  for (const [index, field] of relationFields.entries()) {
    const options = [...(targetLists[index] ?? [])];
    const listed = new Set(options.map((option) => option.id));
    const value = current?.values[field.key];
    for (const id of Array.isArray(value) ? value : [value]) {
      const linked = typeof id === "string" ? current?.relations[id] : undefined;
      if (linked && !listed.has(linked.id)) options.push({ id: linked.id, title: linked.title });
    }
    relationOptions[field.key] = options.sort((a, b) => a.title.localeCompare(b.title));
  }
  return { projects, relationOptions };
}
