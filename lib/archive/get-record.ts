import "server-only";
import { type Principal, projectScopeWhere } from "../acl";
import type { PrismaClient } from "../db/generated/client";
import { notFound } from "../errors";
import { sectionFieldsSchema, type FieldDefinition } from "./field-definitions";
import { relationTargetsByField, withShownRelations } from "./validate-record-values";
import { isUuid } from "../ids";
import { personNameFields, personNameKeys } from "./citation-formats/person-name";

export interface LinkedRecord {
  id: string;
  title: string;
  sectionName: string;
  /** A linked person's own family/given fields, when their section has them (citations use them). */
  personName?: { family: string; given?: string };
}

export interface MediaSummary {
  id: string;
  kind: "image" | "audio" | "video" | "document";
  mime: string;
  size: number;
  width: number | null;
  height: number | null;
  durationSeconds: number | null;
  /** Recordings: min/max waveform pairs from the index worker's intake; null until it has read them. */
  peaks: [number, number][] | null;
  /** Images: "undecodable" when the worker could not decode its pixels; "pending" until it has tried. */
  imageCheck: "pending" | "decoded" | "undecodable" | null;
  view: string | null;
  originalName: string;
}

export interface RecordDetail {
  id: string;
  title: string;
  version: number;
  /** Field values; relation fields hold only the targets in `relations` (none other is named). */
  values: Record<string, unknown>;
  updatedAt: Date;
  createdAt: Date;
  project: { id: string; name: string; restricted: boolean };
  /** `egressPolicy`: whether the section's text may leave the host (an external bridge or model). */
  section: { id: string; slug: string; name: string; fields: FieldDefinition[]; egressPolicy: string };
  /** Media referenced by the record's image and media fields, by media id. */
  media: Record<string, MediaSummary>;
  /** Relation targets the principal may read, by record id; unreadable ones are absent. */
  relations: Record<string, LinkedRecord>;
  /** Readable records whose relation fields point here, with the field's label. */
  backlinks: (LinkedRecord & { fieldLabel: string })[];
}

/**
 * The record's values as the principal may see them: links to records they cannot read are left
 * out (a save carries them over untouched: `keepHiddenRelations`). For any write that starts
 * from stored values on someone's behalf, so a link they cannot see is neither shown nor refused.
 */
export async function valuesAsSeenBy(
  prisma: PrismaClient,
  principal: Principal,
  fields: FieldDefinition[],
  values: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const relationIds = [...new Set([...relationTargetsByField(fields, values).values()].flat())];
  if (relationIds.length === 0) return values;
  const readable = await prisma.record.findMany({ where: { id: { in: relationIds }, ...projectScopeWhere(principal) }, select: { id: true } });
  return withShownRelations(fields, values, new Set(readable.map((row) => row.id)));
}

/**
 * A record the principal may read, with what it links to. An unreadable record, a missing one
 * and a malformed id all end in the same not_found error. Relation labels are resolved through
 * the same scope, so a readable record never reveals the title of an unreadable one — nor its
 * id: relation values keep only the targets the principal may read, so a link to a restricted
 * record looks exactly like no link (the save keeps such links: `keepHiddenRelations`).
 */
export async function getRecord(prisma: PrismaClient, principal: Principal, id: string): Promise<RecordDetail> {
  if (!isUuid(id)) throw notFound();
  const scope = projectScopeWhere(principal);
  const record = await prisma.record.findFirst({
    where: { id, ...scope },
    include: { section: true, project: true, media: true },
  });
  if (!record) throw notFound();
  const fields = sectionFieldsSchema.parse(record.section.fields);
  const values = record.values as Record<string, unknown>;

  const relationIds = [...new Set([...relationTargetsByField(fields, values).values()].flat())];
  const [targets, incoming] = await Promise.all([
    relationIds.length
      ? prisma.record.findMany({
          where: { id: { in: relationIds }, ...scope },
          select: { id: true, title: true, section: { select: { name: true } } },
        })
      : [],
    prisma.recordLink.findMany({
      where: { targetId: id, source: scope },
      select: { fieldKey: true, source: { select: { id: true, title: true, section: { select: { name: true, fields: true } } } } },
      take: 200,
    }),
  ]);

  // A linked person's own name fields, for citations: just those keys of the readable targets'
  // values, not their whole values (a linked interview's transcript would come with them).
  const nameValues = new Map(
    targets.length
      ? (
          await prisma.$queryRaw<{ id: string; names: Record<string, unknown> | null }[]>`
            SELECT r.id, (SELECT jsonb_object_agg(e.key, e.value) FROM jsonb_each(r."values") AS e WHERE e.key = ANY(${[...personNameKeys]}::text[])) AS names
              FROM records r WHERE r.id = ANY(${targets.map((target) => target.id)}::text[])`
        ).map((row) => [row.id, row.names ?? {}])
      : [],
  );

  const media: Record<string, MediaSummary> = {};
  for (const item of record.media) {
    media[item.id] = {
      id: item.id,
      kind: item.kind,
      mime: item.mime,
      size: item.size,
      width: item.width,
      height: item.height,
      durationSeconds: item.durationSeconds,
      peaks: Array.isArray(item.peaks) ? (item.peaks as [number, number][]) : null,
      imageCheck: item.imageCheck,
      view: item.view,
      originalName: item.originalName,
    };
  }

  return {
    id: record.id,
    title: record.title,
    version: record.version,
    values: withShownRelations(fields, values, new Set(targets.map((target) => target.id))),
    updatedAt: record.updatedAt,
    createdAt: record.createdAt,
    project: { id: record.project.id, name: record.project.name, restricted: record.project.restricted },
    section: { id: record.section.id, slug: record.section.slug, name: record.section.name, fields, egressPolicy: record.section.egressPolicy },
    media,
    relations: Object.fromEntries(
      targets.map((target) => {
        const personName = personNameFields(nameValues.get(target.id) ?? {});
        return [target.id, { id: target.id, title: target.title, sectionName: target.section.name, ...(personName ? { personName } : {}) }];
      }),
    ),
    backlinks: incoming
      .map((link) => {
        const sourceFields = sectionFieldsSchema.safeParse(link.source.section.fields);
        const label = sourceFields.success ? (sourceFields.data.find((field) => field.key === link.fieldKey)?.label ?? link.fieldKey) : link.fieldKey;
        return { id: link.source.id, title: link.source.title, sectionName: link.source.section.name, fieldLabel: label };
      })
      .sort((a, b) => a.title.localeCompare(b.title)),
  };
}
