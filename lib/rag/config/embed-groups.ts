import "server-only";
import { listSections } from "../../archive/sections";
import type { PrismaClient } from "../../db/generated/client";
import type { EmbedGroupInput, SectionShape } from "./embed-group-schema";

export interface EmbedGroup extends EmbedGroupInput {
  id: string;
  sectionId: string;
}

export async function sectionShapes(prisma: PrismaClient): Promise<Map<string, SectionShape>> {
  return new Map((await listSections(prisma)).map((section) => [section.slug, section]));
}

export async function listEmbedGroups(prisma: PrismaClient, sectionId?: string): Promise<EmbedGroup[]> {
  const rows = await prisma.embedGroup.findMany({ where: sectionId ? { sectionId } : {}, orderBy: [{ sectionId: "asc" }, { slug: "asc" }] });
  return rows.map((row) => ({
    id: row.id,
    sectionId: row.sectionId,
    slug: row.slug,
    label: row.label,
    fields: row.fields as string[],
    chunking: row.chunking,
    maxTokens: row.maxTokens,
    minTokens: row.minTokens,
    overlap: row.overlap,
    languages: row.languages as EmbedGroupInput["languages"],
  }));
}
