import type { PrismaClient } from "../db/generated/client";

/** A project served to anonymous viewers and harvesters. */
export interface PublicProject {
  id: string;
  slug: string;
  name: string;
  description: string;
  /** When it last became public: OAI-PMH datestamps of its records are never earlier. */
  publicSince: Date;
}

/** The ids of the projects an admin marked public (lib/acl's publicReader reads exactly these). */
export async function publicProjectIds(prisma: PrismaClient): Promise<string[]> {
  const rows = await prisma.project.findMany({ where: { isPublic: true }, select: { id: true }, orderBy: { id: "asc" } });
  return rows.map((row) => row.id);
}

/** The public projects with what a harvester or a collection manifest shows of them. */
export async function listPublicProjects(prisma: PrismaClient): Promise<PublicProject[]> {
  const rows = await prisma.project.findMany({ where: { isPublic: true }, orderBy: { slug: "asc" } });
  return rows.map((row) => ({ id: row.id, slug: row.slug, name: row.name, description: row.description, publicSince: row.publicSince ?? row.createdAt }));
}
