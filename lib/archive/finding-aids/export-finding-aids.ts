import "server-only";
import { type Principal, canReadProject, projectScopeWhere } from "../../acl";
import type { PrismaClient } from "../../db/generated/client";
import { AppError, notFound } from "../../errors";
import { type FieldDefinition, sectionFieldsSchema } from "../field-definitions";
import { getRecord } from "../get-record";
import { iiifUrls, showsInIiif } from "../iiif/presentation";
import { relationTargetsByField } from "../validate-record-values";
import { type DescribedRecord, describedValues, firstAuthorityUri } from "./describe-record";
import { type PersonRelation, eacCpfDocument } from "./eac-cpf";
import { type FindingAidRecord, type FindingAidSeries, ead3Document } from "./ead3";
import { personSectionSlug } from "./links";

/**
 * The finding aids as the requester may read them:
 * - a project as EAD3 (`projectFindingAid`): a project they may not read, or no such project, is
 *   the same not_found; every record of a readable project is readable, and a record's links to
 *   people in projects they may not read name no one;
 * - a person as EAC-CPF (`personAuthorityRecord`): the record is read as its page reads it
 *   (getRecord: unreadable ≡ missing), and only the records linking to it that the requester may
 *   read are its relations. A person is a record of the section the record list's People facet
 *   reads (links.ts `personSectionSlug`); any other record has no EAC-CPF.
 */

export interface XmlFile {
  body: string;
  fileName: string;
}

/** Records read per query while a finding aid is built. */
const batchSize = 500;
/** Ids per `IN` list. */
const idsPerQuery = 1000;

/** Who keeps the description: the repository's name (MNEMO_OAI_REPOSITORY_NAME, as OAI-PMH names it), else Mnemo at the host. */
function agencyOf(origin: string, named?: string): string {
  if (named?.trim()) return named;
  try {
    return `Mnemo (${new URL(origin).host})`;
  } catch {
    return "Mnemo";
  }
}

function safeFileName(name: string): string {
  return (
    name
      .replace(/[^A-Za-z0-9._-]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 80) || "record"
  );
}

/** Readable records by id, with their title and first authority link (a person's Wikidata id). */
async function readableTargets(prisma: PrismaClient, principal: Principal, ids: readonly string[]): Promise<DescribedRecord["relations"]> {
  const out: DescribedRecord["relations"] = {};
  for (let start = 0; start < ids.length; start += idsPerQuery) {
    const rows = await prisma.record.findMany({
      where: { id: { in: ids.slice(start, start + idsPerQuery) }, ...projectScopeWhere(principal) },
      select: { id: true, title: true, values: true, section: { select: { fields: true } } },
    });
    for (const row of rows) {
      const fields = sectionFieldsSchema.safeParse(row.section.fields);
      const authorityUri = fields.success ? firstAuthorityUri(fields.data, row.values as Record<string, unknown>) : undefined;
      out[row.id] = { title: row.title, ...(authorityUri ? { authorityUri } : {}) };
    }
  }
  return out;
}

/** GET …/projects/<slug>/ead3: the project as an EAD3 finding aid. */
export async function projectFindingAid(
  prisma: PrismaClient,
  principal: Principal,
  input: { slug: string; origin: string; url: string; agency?: string; generatedAt?: Date },
): Promise<XmlFile> {
  const project = await prisma.project.findUnique({
    where: { slug: input.slug },
    select: { id: true, slug: true, name: true, description: true, restricted: true, isPublic: true },
  });
  if (!project || !canReadProject(principal, project.id)) throw notFound();
  const urls = iiifUrls(input.origin);

  const sectionFields = new Map<string, FieldDefinition[] | null>();
  const fieldsOf = async (sectionId: string) => {
    if (!sectionFields.has(sectionId)) {
      const section = await prisma.section.findUnique({ where: { id: sectionId }, select: { fields: true } });
      const parsed = sectionFieldsSchema.safeParse(section?.fields);
      sectionFields.set(sectionId, parsed.success ? parsed.data : null);
    }
    return sectionFields.get(sectionId) ?? null;
  };

  const bySection = new Map<string, FindingAidRecord[]>();
  const targetIds = new Set<string>();
  for (let skip = 0; ; skip += batchSize) {
    const rows = await prisma.record.findMany({
      where: { projectId: project.id },
      select: {
        id: true,
        title: true,
        values: true,
        sectionId: true,
        dateFrom: true,
        dateTo: true,
        media: { select: { id: true, kind: true, imageCheck: true, durationSeconds: true } },
      },
      orderBy: [{ title: "asc" }, { id: "asc" }],
      skip,
      take: batchSize,
    });
    for (const row of rows) {
      const fields = await fieldsOf(row.sectionId);
      if (!fields) continue;
      const values = row.values as Record<string, unknown>;
      for (const ids of relationTargetsByField(fields, values).values()) for (const id of ids) targetIds.add(id);
      const media = Object.fromEntries(
        row.media.map((item) => [item.id, { kind: item.kind, imageCheck: item.imageCheck, durationSeconds: item.durationSeconds }]),
      );
      const record: FindingAidRecord = {
        id: row.id,
        title: row.title,
        values: describedValues(fields, values),
        section: { slug: "", name: "", fields },
        relations: {},
        media,
        years: { from: row.dateFrom, to: row.dateTo },
        pageUrl: urls.recordPage(row.id),
        ...(showsInIiif({ values, section: { fields }, media }) ? { manifestUrl: urls.manifest(row.id) } : {}),
      };
      (bySection.get(row.sectionId) ?? bySection.set(row.sectionId, []).get(row.sectionId)!).push(record);
    }
    if (rows.length < batchSize) break;
  }

  // Only the people and places the requester may read are named; one map serves every record.
  const relations = await readableTargets(prisma, principal, [...targetIds]);
  const sections = await prisma.section.findMany({
    where: { id: { in: [...bySection.keys()] } },
    select: { id: true, slug: true, name: true, description: true },
    orderBy: [{ position: "asc" }, { name: "asc" }],
  });
  const series: FindingAidSeries[] = sections.map((section) => ({
    slug: section.slug,
    name: section.name,
    description: section.description,
    records: (bySection.get(section.id) ?? []).map((record) => ({
      ...record,
      relations,
      section: { ...record.section, slug: section.slug, name: section.name },
    })),
  }));

  return {
    body: ead3Document({ project, series, url: input.url, generatedAt: input.generatedAt ?? new Date(), agency: agencyOf(input.origin, input.agency) }),
    fileName: `${safeFileName(project.slug)}-ead3.xml`,
  };
}

/** Readable records whose relation fields point at the person, with the field's label. */
async function personRelations(prisma: PrismaClient, principal: Principal, personId: string, origin: string): Promise<PersonRelation[]> {
  const links = await prisma.recordLink.findMany({
    where: { targetId: personId, source: projectScopeWhere(principal) },
    select: { fieldKey: true, source: { select: { id: true, title: true, section: { select: { fields: true } } } } },
    orderBy: [{ source: { title: "asc" } }, { sourceId: "asc" }],
    take: 5000,
  });
  const urls = iiifUrls(origin);
  return links.map((link) => {
    const fields = sectionFieldsSchema.safeParse(link.source.section.fields);
    const role = fields.success ? (fields.data.find((field) => field.key === link.fieldKey)?.label ?? link.fieldKey) : link.fieldKey;
    return { title: link.source.title, url: urls.recordPage(link.source.id), role };
  });
}

/** GET …/records/<id>/eac-cpf: a person as an EAC-CPF authority record. */
export async function personAuthorityRecord(
  prisma: PrismaClient,
  principal: Principal,
  input: { id: string; origin: string; agency?: string; generatedAt?: Date },
): Promise<XmlFile> {
  const record = await getRecord(prisma, principal, input.id);
  if (record.section.slug !== personSectionSlug) {
    throw new AppError(
      "not_found",
      `This record is not a person: EAC-CPF describes the records of the People section (${personSectionSlug}), and this one is in ${record.section.name}.`,
    );
  }
  const [targets, relations] = await Promise.all([
    readableTargets(prisma, principal, Object.keys(record.relations)),
    personRelations(prisma, principal, record.id, input.origin),
  ]);
  const person = {
    id: record.id,
    title: record.title,
    values: record.values,
    section: record.section,
    relations: targets,
    media: {},
    pageUrl: iiifUrls(input.origin).recordPage(record.id),
  };
  return {
    body: eacCpfDocument({ person, relations, generatedAt: input.generatedAt ?? new Date(), agency: agencyOf(input.origin, input.agency) }),
    fileName: `${safeFileName(record.title)}-eac-cpf.xml`,
  };
}
