import "server-only";
import { type Principal, projectScopeWhere } from "../../acl";
import type { PrismaClient } from "../../db/generated/client";
import { sectionFieldsSchema } from "../field-definitions";
import { relationTargetsByField, withShownRelations } from "../validate-record-values";
import { type DcElement, defaultDcMapping, dublinCoreOf, storedDcMapping } from "./dublin-core";

/**
 * The Dublin Core of a page of records, read as the reader may read them (the public reader:
 * OAI-PMH never widens to the caller's own projects). Records outside the reader's projects are
 * not read at all; relation values keep only targets the reader may read, and their titles are
 * read through the same scope — the rule getRecord follows — so a public record never names a
 * record of another project.
 */
export async function dublinCoreOfRecords(
  prisma: PrismaClient,
  reader: Principal,
  ids: string[],
  recordUrl: (id: string) => string,
): Promise<Map<string, [DcElement, string][]>> {
  const scope = projectScopeWhere(reader);
  const records = await prisma.record.findMany({
    where: { id: { in: ids }, ...scope },
    select: {
      id: true,
      title: true,
      values: true,
      section: { select: { name: true, fields: true, dcMapping: true } },
      project: { select: { name: true } },
      media: { select: { id: true, mime: true } },
    },
  });
  const parsed = records.map((record) => {
    const fields = sectionFieldsSchema.parse(record.section.fields);
    return { record, fields, values: record.values as Record<string, unknown> };
  });
  const targetIds = [...new Set(parsed.flatMap(({ fields, values }) => [...relationTargetsByField(fields, values).values()].flat()))];
  const targets = targetIds.length ? await prisma.record.findMany({ where: { id: { in: targetIds }, ...scope }, select: { id: true, title: true } }) : [];
  const titles = new Map(targets.map((target) => [target.id, target.title]));
  const readable = new Set(titles.keys());

  const out = new Map<string, [DcElement, string][]>();
  for (const { record, fields, values } of parsed) {
    const mapping = storedDcMapping(record.section.dcMapping, fields) ?? defaultDcMapping(fields);
    out.set(
      record.id,
      dublinCoreOf(
        {
          title: record.title,
          url: recordUrl(record.id),
          sectionName: record.section.name,
          projectName: record.project.name,
          fields,
          values: withShownRelations(fields, values, readable),
          relationTitles: titles,
          mediaTypes: new Map(record.media.map((item) => [item.id, item.mime])),
        },
        mapping,
      ),
    );
  }
  return out;
}
