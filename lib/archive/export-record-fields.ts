import "server-only";
import { type Principal, projectScopeWhere } from "../acl";
import type { PrismaClient } from "../db/generated/client";
import type { SqlExecutor } from "../db/sql-executor";
import { type ExportFieldContext, exportFieldText } from "./export-field-text";
import { type FieldDefinition, sectionFieldsSchema } from "./field-definitions";
import { type ListRecordsQuery, listWhere } from "./list-records";
import { relationTargetsByField } from "./validate-record-values";

/** One column of an "all fields" export: a field key, labelled by the first section that has it. */
export interface ExportFieldColumn {
  key: string;
  label: string;
}

export interface ExportSection {
  slug: string;
  fields: FieldDefinition[];
}

/**
 * The sections the list's records belong to (readable records only, the list's filters and a
 * search's pinned hits), in the sections' order, with their fields: the "all fields" export's
 * columns are the union of these.
 */
export async function sectionsOfList(
  sql: SqlExecutor,
  principal: Principal,
  query: ListRecordsQuery,
  options: { pinnedIds?: readonly string[] } = {},
): Promise<ExportSection[]> {
  const params: unknown[] = [];
  const { where } = listWhere(principal, query, params, options);
  const rows = await sql.query<{ slug: string; fields: unknown }>(
    `SELECT listed.slug, listed.fields FROM sections listed
      WHERE listed.id IN (SELECT r.section_id FROM records r JOIN sections s ON s.id = r.section_id WHERE ${where.join(" AND ")})
      ORDER BY listed.position, listed.id`,
    params,
  );
  return rows.map((row) => ({ slug: row.slug, fields: sectionFieldsSchema.parse(row.fields) }));
}

/**
 * The columns for every field of these sections but their title field (the export's title
 * column): each key once, in section order then field order, so a mixed list has the union of
 * its sections' fields in a stable order.
 */
export function exportFieldColumns(sections: readonly ExportSection[]): ExportFieldColumn[] {
  const columns = new Map<string, ExportFieldColumn>();
  for (const section of sections) {
    const titleKey = section.fields.find((field) => field.type === "text")?.key;
    for (const field of section.fields) {
      if (field.key !== titleKey && !columns.has(field.key)) columns.set(field.key, { key: field.key, label: field.label });
    }
  }
  return [...columns.values()];
}

/**
 * Every field of a batch of records the principal may read (the list's rows) as export text, by
 * record id then field key. Relations name only the linked records the principal may read
 * (resolved through lib/acl, so a restricted target is absent exactly like a deleted one); files
 * are the record's own, linked as /api/media/<id> serves them to whoever may read the record.
 */
export async function exportRecordFields(
  prisma: PrismaClient,
  principal: Principal,
  recordIds: readonly string[],
  sections: readonly ExportSection[],
  options: { origin: string },
): Promise<Map<string, Record<string, string>>> {
  if (recordIds.length === 0) return new Map();
  const fieldsOf = new Map(sections.map((section) => [section.slug, section.fields]));
  const records = await prisma.record.findMany({
    where: { id: { in: [...recordIds] }, ...projectScopeWhere(principal) },
    select: { id: true, values: true, section: { select: { slug: true } }, media: { select: { id: true, originalName: true } } },
  });
  const targets = [
    ...new Set(
      records.flatMap((record) =>
        [...relationTargetsByField(fieldsOf.get(record.section.slug) ?? [], record.values as Record<string, unknown>).values()].flat(),
      ),
    ),
  ];
  const readable = targets.length
    ? await prisma.record.findMany({ where: { id: { in: targets }, ...projectScopeWhere(principal) }, select: { id: true, title: true } })
    : [];
  const relationTitles = new Map(readable.map((target) => [target.id, target.title]));
  const base = options.origin.replace(/\/+$/, "");
  const result = new Map<string, Record<string, string>>();
  for (const record of records) {
    const context: ExportFieldContext = {
      relationTitles,
      mediaLinks: new Map(record.media.map((item) => [item.id, `${item.originalName} <${base}/api/media/${encodeURIComponent(item.id)}>`])),
    };
    const values = record.values as Record<string, unknown>;
    const fields = fieldsOf.get(record.section.slug) ?? [];
    result.set(record.id, Object.fromEntries(fields.map((field) => [field.key, exportFieldText(field, values[field.key], context)])));
  }
  return result;
}
