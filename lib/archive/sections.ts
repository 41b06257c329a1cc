import "server-only";
import type { PrismaClient } from "../db/generated/client";
import { AppError } from "../errors";
import { unstorableTextProblem } from "../storable-text";
import { type FieldDefinition, sectionFieldsSchema } from "./field-definitions";

export interface SectionSummary {
  id: string;
  slug: string;
  name: string;
  description: string;
  fields: FieldDefinition[];
  egressPolicy: "local_only" | "allow_external";
}

function toSummary(row: {
  id: string;
  slug: string;
  name: string;
  description: string;
  fields: unknown;
  egressPolicy: "local_only" | "allow_external";
}): SectionSummary {
  return { ...row, fields: sectionFieldsSchema.parse(row.fields) };
}

/** Sections are the archive's structure, not its content: every signed-in user may list them. */
export async function listSections(prisma: PrismaClient): Promise<SectionSummary[]> {
  const rows = await prisma.section.findMany({ orderBy: [{ position: "asc" }, { name: "asc" }] });
  return rows.map(toSummary);
}

export async function getSectionBySlug(prisma: PrismaClient, slug: string): Promise<SectionSummary> {
  // A slug the database cannot even compare (a NUL in the URL) names no section either.
  const row = unstorableTextProblem(slug) ? null : await prisma.section.findUnique({ where: { slug } });
  if (!row) throw new AppError("bad_request", `There is no section called "${slug.slice(0, 80)}".`);
  return toSummary(row);
}

