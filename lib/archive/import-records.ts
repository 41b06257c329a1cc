import "server-only";
import { randomUUID } from "node:crypto";
import { audit } from "../db/audit";
import { keepVersionsAs } from "../db/record-versions";
import type { Prisma, PrismaClient } from "../db/generated/client";
import { AppError } from "../errors";
import { type SectionSummary, getSectionBySlug } from "./sections";
import { recordTitle, recordYears, relationLinkRows, type RecordValues, validateRecordValues } from "./validate-record-values";
import { isUuid } from "../ids";

export interface ImportItem {
  /** Optional fixed id, so a batch can relate records to each other before they exist. */
  id?: string;
  values: RecordValues;
}

/**
 * Bulk creation for trusted loaders (the demo seed, archive imports run by an admin): the same
 * validation as an interactive save, relation targets checked to exist, and — in one
 * transaction per batch — the records (each one's first version kept as "bulk-load"), their links
 * and their indexing outbox rows.
 */
export async function importRecords(
  prisma: PrismaClient,
  input: { sectionSlug: string; projectId: string; items: ImportItem[]; actorId?: string | null; batchSize?: number },
): Promise<string[]> {
  const section = await getSectionBySlug(prisma, input.sectionSlug);
  const prepared = input.items.map((item, index) => prepare(section, item, index));
  await refuseTakenIds(
    prisma,
    prepared.map((item) => item.id),
  );
  const relationIds = [...new Set(prepared.flatMap((item) => item.links.map((link) => link.targetId)))];
  const found = new Set<string>();
  for (let offset = 0; offset < relationIds.length; offset += 5_000) {
    const rows = await prisma.record.findMany({ where: { id: { in: relationIds.slice(offset, offset + 5_000) } }, select: { id: true } });
    for (const row of rows) found.add(row.id);
  }
  const batchIds = new Set(prepared.map((item) => item.id));
  const missing = relationIds.filter((id) => !found.has(id) && !batchIds.has(id));
  if (missing.length) throw new AppError("bad_request", `${missing.length} relation target(s) do not exist, e.g. ${missing[0]}.`);

  const batchSize = input.batchSize ?? 500;
  for (let offset = 0; offset < prepared.length; offset += batchSize) {
    const batch = prepared.slice(offset, offset + batchSize);
    await prisma.$transaction(async (tx) => {
      await keepVersionsAs(tx, { via: "bulk-load" });
      await tx.record.createMany({
        data: batch.map((item) => ({
          id: item.id,
          sectionId: section.id,
          projectId: input.projectId,
          title: item.title,
          values: item.values as Prisma.InputJsonValue,
          dateFrom: item.years.from,
          dateTo: item.years.to,
          createdById: input.actorId ?? null,
          updatedById: input.actorId ?? null,
        })),
      });
      await tx.indexQueueItem.createMany({ data: batch.map((item) => ({ recordId: item.id, reason: "record.imported" })) });
    });
  }
  // Links after all records exist, since records of one import may point at each other.
  const links = prepared.flatMap((item) => item.links);
  for (let offset = 0; offset < links.length; offset += 2_000) {
    await prisma.recordLink.createMany({ data: links.slice(offset, offset + 2_000), skipDuplicates: true });
  }
  await audit(prisma, {
    actorId: input.actorId ?? null,
    action: "record.import",
    targetType: "section",
    targetId: section.id,
    projectId: input.projectId,
    details: { count: prepared.length, section: section.slug },
  });
  return prepared.map((item) => item.id);
}

/**
 * Fixed ids must be new and appear once: found only by the database, a taken id would fail a
 * later batch after earlier ones were committed, leaving half an import.
 */
async function refuseTakenIds(prisma: PrismaClient, ids: string[]): Promise<void> {
  const seen = new Set<string>();
  for (const [index, id] of ids.entries()) {
    if (seen.has(id)) throw new AppError("bad_request", `Item ${index + 1} of the import repeats the id ${id} of an earlier item.`);
    seen.add(id);
  }
  for (let offset = 0; offset < ids.length; offset += 5_000) {
    const [taken] = await prisma.record.findMany({ where: { id: { in: ids.slice(offset, offset + 5_000) } }, select: { id: true }, take: 1 });
    if (taken) throw new AppError("bad_request", `Item ${ids.indexOf(taken.id) + 1} of the import has the id ${taken.id}, which a saved record already has.`);
  }
}

function prepare(section: SectionSummary, item: ImportItem, index: number) {
  const validated = validateRecordValues(section.fields, item.values);
  if (!validated.ok) {
    const problems = Object.entries(validated.fieldErrors).map(([key, messages]) => `${key}: ${messages.join("; ")}`);
    throw new AppError("bad_request", `Item ${index + 1} of the import is not valid: ${problems.join(" | ")}`, {
      fieldErrors: validated.fieldErrors,
    });
  }
  const id = item.id && isUuid(item.id) ? item.id : randomUUID();
  return {
    id,
    values: validated.values,
    title: recordTitle(section.fields, validated.values),
    years: recordYears(section.fields, validated.values),
    links: relationLinkRows(section.fields, validated.values, id),
  };
}
