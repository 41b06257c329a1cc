import "server-only";
import { type Principal, actorIdOf, assertAdmin } from "../acl";
import { audit } from "../db/audit";
import { Prisma, type PrismaClient } from "../db/generated/client";
import { notFound, parseInput } from "../errors";
import { sectionFieldsSchema } from "../archive/field-definitions";
import { forgetSections } from "../archive/sections";
import { type DcMapping, dcElements, dcMappingSchema, defaultDcMapping, storedDcMapping } from "../archive/oai/dublin-core";

export interface SectionDcMapping {
  /** What OAI-PMH uses now. */
  mapping: DcMapping;
  /** Whether an admin set it (else it is the default derived from the fields). */
  custom: boolean;
  defaults: DcMapping;
  fields: { key: string; label: string; type: string }[];
  elements: readonly string[];
}

/** A section's Dublin Core mapping for its admin page (admins only). */
export async function getSectionDcMapping(prisma: PrismaClient, principal: Principal, sectionSlug: string): Promise<SectionDcMapping> {
  assertAdmin(principal);
  const section = await prisma.section.findUnique({ where: { slug: sectionSlug }, select: { fields: true, dcMapping: true } });
  if (!section) throw notFound();
  const fields = sectionFieldsSchema.parse(section.fields);
  const stored = storedDcMapping(section.dcMapping, fields);
  const defaults = defaultDcMapping(fields);
  return {
    mapping: stored ?? defaults,
    custom: stored !== null,
    defaults,
    fields: fields.map(({ key, label, type }) => ({ key, label, type })),
    elements: dcElements,
  };
}

/**
 * Sets which fields give which Dublin Core elements in OAI-PMH (admins only; audited). Known
 * elements and the section's own field keys only; `null` returns to the default.
 */
export async function setSectionDcMapping(prisma: PrismaClient, principal: Principal, input: { sectionSlug: string; mapping: unknown }): Promise<DcMapping> {
  assertAdmin(principal);
  const section = await prisma.section.findUnique({ where: { slug: input.sectionSlug } });
  if (!section) throw notFound();
  const fields = sectionFieldsSchema.parse(section.fields);
  const mapping = input.mapping === null ? null : parseInput(dcMappingSchema(fields), input.mapping);
  await prisma.$transaction(async (tx) => {
    await tx.section.update({ where: { id: section.id }, data: { dcMapping: mapping === null ? Prisma.DbNull : (mapping as Prisma.InputJsonValue) } });
    await audit(tx, {
      actorId: actorIdOf(principal),
      action: "section.dc_mapping",
      targetType: "section",
      targetId: section.id,
      projectId: null,
      details: { section: section.slug, before: section.dcMapping ?? null, after: mapping },
    });
  });
  forgetSections(prisma);
  return mapping ?? defaultDcMapping(fields);
}
