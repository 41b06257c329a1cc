import "server-only";
import { type Principal, canEditProject, readableProjectIds } from "../acl";
import type { PrismaClient } from "../db/generated/client";

export interface ProjectSummary {
  id: string;
  /** The project's slug: its finding aid's and IIIF collection's address. */
  slug: string;
  name: string;
  restricted: boolean;
}

/** Projects the principal may read (admins: all), by name: the record list's project filter. */
export async function listReadableProjects(prisma: PrismaClient, principal: Principal): Promise<ProjectSummary[]> {
  const ids = readableProjectIds(principal);
  return prisma.project.findMany({
    where: ids === null ? {} : { id: { in: [...ids] } },
    select: { id: true, slug: true, name: true, restricted: true },
    orderBy: { name: "asc" },
  });
}

/** Projects the principal may create and edit records in: the record form's project choice. */
export async function listEditableProjects(prisma: PrismaClient, principal: Principal): Promise<ProjectSummary[]> {
  const readable = await listReadableProjects(prisma, principal);
  return readable.filter((project) => canEditProject(principal, project.id));
}
