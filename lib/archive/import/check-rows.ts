import "server-only";
import { type Principal, canEdit, projectScopeWhere } from "../../acl";
import type { PrismaClient } from "../../db/generated/client";
import { unstorableTextProblem } from "../../storable-text";
import type { FieldDefinition } from "../field-definitions";
import type { SectionSummary } from "../sections";
import { type RecordValues, relationTargetsByField, validateRecordValues } from "../validate-record-values";
import { clip, convertCells, type ConvertedRow, type ResolvedMapping } from "./convert-cells";
import { eventLoopPacer, turnBudgetMs, yieldToEventLoop } from "./event-loop";
import type { ImportMedia } from "./import-media";
import type { ImportProblem } from "./types";

/** A row ready to write: its values validated as the editor validates them. */
export interface CheckedRow {
  row: number;
  values: RecordValues;
  externalId: string | null;
  /** The saved record with the same external id, which this row updates; null: a new record. */
  existing: { id: string; version: number } | null;
  /** The saved record already holds exactly these values. */
  unchanged: boolean;
}

export interface CheckContext {
  prisma: PrismaClient;
  principal: Principal;
  section: SectionSummary;
  projectId: string;
  mapping: ResolvedMapping;
  /** The first data row (1-based) that names each external id in the whole file. */
  firstRowOfExternalId: Map<string, number>;
  /** Checks image/media cells; resolves them to media ids when writing. */
  media?: ImportMedia;
}

const maxExternalIdLength = 200;

/** Which row first names each external id: a later row naming it again is a duplicate. */
export function firstRowsOfExternalIds(rows: readonly string[][], mapping: ResolvedMapping): Map<string, number> {
  const first = new Map<string, number>();
  if (mapping.externalIdIndex === null) return first;
  for (const [index, cells] of rows.entries()) {
    const id = (cells[mapping.externalIdIndex] ?? "").trim();
    if (id && !first.has(id)) first.set(id, index + 1);
  }
  return first;
}

/**
 * Checks a slice of rows against the section and the database as the importer sees it: each
 * cell converted and validated like the editor's save, relations resolved by external id or
 * exact title among the records the importer may READ (a record they cannot read is reported
 * exactly like a missing one), external ids matched to the saved record they update. Writes
 * nothing. `startRow` is the 1-based number of the slice's first row.
 */
export async function checkRows(
  context: CheckContext,
  rows: readonly string[][],
  startRow: number,
): Promise<{ checked: CheckedRow[]; problems: ImportProblem[] }> {
  const { section, mapping } = context;
  const pace = eventLoopPacer(turnBudgetMs);
  const converted: ConvertedRow[] = [];
  for (const cells of rows) {
    await pace();
    converted.push(convertCells(section.fields, mapping, cells));
  }
  const problems: ImportProblem[] = [];
  const rowProblems = converted.map((row, index) => row.problems.map((problem) => ({ row: startRow + index, ...problem })));

  const relationTargets = await resolveRelationTokens(
    context,
    converted.map((row) => row.relationTokens),
  );
  await pace();
  const existing = await findExternalIds(
    context,
    converted.map((row) => row.externalId).filter((id): id is string => id !== null),
  );
  // The embedded database answers through promises alone: give waiting requests a turn.
  await yieldToEventLoop();

  const checked: CheckedRow[] = [];
  for (const [index, row] of converted.entries()) {
    await pace();
    const number = startRow + index;
    const found = rowProblems[index] ?? [];
    const report = (problem: Omit<ImportProblem, "row">) => found.push({ row: number, ...problem });
    const externalIdColumn = mapping.externalIdColumn ?? undefined;
    let target: SavedRecord | null = null;
    if (mapping.externalIdIndex !== null) {
      const id = row.externalId;
      if (id === null) report({ column: externalIdColumn, message: "The row has no external id" });
      else if (id.length > maxExternalIdLength || unstorableTextProblem(id)) {
        report({ column: externalIdColumn, message: `The external id must be at most ${maxExternalIdLength} characters of text` });
      } else if ((context.firstRowOfExternalId.get(id) ?? number) < number) {
        report({
          column: externalIdColumn,
          message: `The external id “${clip(id)}” repeats row ${context.firstRowOfExternalId.get(id)}; rows ${context.firstRowOfExternalId.get(id)} and ${number} cannot both be imported`,
        });
      } else {
        const saved = existing.get(id);
        // Unique per section: a record the importer cannot edit holds the id whether or not they
        // can read it, and it is named no further than that.
        if (saved && !canEdit(context.principal, saved))
          report({ column: externalIdColumn, message: `The external id “${clip(id)}” is taken by a record you cannot edit` });
        else if (saved && saved.projectId !== context.projectId) {
          report({
            column: externalIdColumn,
            message: `The external id “${clip(id)}” belongs to a record of another project; import into that project to update it`,
          });
        } else if (saved) target = saved;
      }
    }
    const values: RecordValues = { ...row.values };
    const failedFields = new Set(found.map((problem) => problem.field).filter(Boolean));
    for (const [key, tokens] of row.relationTokens) {
      const field = section.fields.find((candidate) => candidate.key === key);
      if (field?.type !== "relation") continue;
      const ids: string[] = [];
      for (const token of tokens) {
        const resolved = relationTargets.get(`${field.targetSection}\u0000${token}`);
        if (resolved?.ids.length === 1 && resolved.ids[0]) ids.push(resolved.ids[0]);
        else if (resolved && resolved.ids.length > 1) {
          report({
            column: mapping.fields.get(key)?.column,
            field: key,
            message: `${field.label}: ${resolved.ids.length} records titled “${clip(token)}” you can read; name it by its external id`,
          });
        } else {
          report({
            column: mapping.fields.get(key)?.column,
            field: key,
            message: `${field.label}: no record titled or numbered “${clip(token)}” you can read in ${field.targetSection}`,
          });
        }
      }
      if (ids.length > 0) values[key] = field.multiple ? ids : ids[0];
    }
    for (const [key, name] of row.mediaNames) {
      const field = section.fields.find((candidate) => candidate.key === key);
      if (!field) continue;
      if (!context.media) {
        report({
          column: mapping.fields.get(key)?.column,
          field: key,
          message: `${field.label} names a file, but the import has no media folder or media zip`,
        });
        continue;
      }
      const media = await context.media(field, name, number);
      if (media.problem) report({ column: mapping.fields.get(key)?.column, field: key, message: `${field.label} ${media.problem}` });
      else if (media.id) values[key] = media.id;
    }
    for (const problem of found) if (problem.field) failedFields.add(problem.field);
    // Fields that failed above are reported once, not again as "required".
    const validated = validateRecordValues(
      section.fields.filter((field) => !failedFields.has(field.key)),
      Object.fromEntries(Object.entries(values).filter(([key]) => !failedFields.has(key))),
    );
    if (!validated.ok) {
      for (const [key, messages] of Object.entries(validated.fieldErrors)) {
        report({ column: mapping.fields.get(key)?.column ?? mapping.rangeEnds.get(key)?.from?.column, field: key, message: messages.join("; ") });
      }
    }
    if (found.length > 0 || !validated.ok) {
      problems.push(...found);
      continue;
    }
    let finalValues = validated.values;
    if (target) finalValues = keepHiddenRelations(section.fields, target, finalValues);
    checked.push({
      row: number,
      values: finalValues,
      externalId: row.externalId,
      existing: target ? { id: target.id, version: target.version } : null,
      unchanged: target !== null && canonicalJson(target.values) === canonicalJson(finalValues),
    });
  }
  return { checked, problems };
}

interface SavedRecord {
  id: string;
  version: number;
  projectId: string;
  values: RecordValues;
  /** Relation targets of the saved values the importer cannot read: kept, as the editor keeps them. */
  hiddenTargets: Set<string>;
}

/**
 * Relation cells name records by external id or exact title; both are looked up among the
 * records of the target section the importer may read, in one query per target section.
 * Keyed by `<section slug>\0<token>`.
 */
async function resolveRelationTokens(context: CheckContext, tokensByRow: Map<string, string[]>[]): Promise<Map<string, { ids: string[] }>> {
  const tokensBySection = new Map<string, Set<string>>();
  for (const tokens of tokensByRow) {
    for (const [key, list] of tokens) {
      const field = context.section.fields.find((candidate) => candidate.key === key);
      if (field?.type !== "relation") continue;
      const set = tokensBySection.get(field.targetSection) ?? new Set<string>();
      for (const token of list) if (!unstorableTextProblem(token)) set.add(token);
      tokensBySection.set(field.targetSection, set);
    }
  }
  const result = new Map<string, { ids: string[] }>();
  for (const [slug, set] of tokensBySection) {
    const tokens = [...set];
    for (let offset = 0; offset < tokens.length; offset += 2_000) {
      const slice = tokens.slice(offset, offset + 2_000);
      const rows = await context.prisma.record.findMany({
        where: {
          section: { slug },
          ...projectScopeWhere(context.principal),
          OR: [{ externalId: { in: slice } }, { title: { in: slice } }],
        },
        select: { id: true, title: true, externalId: true },
      });
      const byExternalId = new Map(rows.filter((row) => row.externalId !== null).map((row) => [row.externalId as string, row.id]));
      for (const token of slice) {
        const byId = byExternalId.get(token);
        const ids = byId ? [byId] : rows.filter((row) => row.title === token).map((row) => row.id);
        if (ids.length > 0) result.set(`${slug}\u0000${token}`, { ids });
      }
    }
  }
  return result;
}

/** The saved records of the section holding these external ids, wherever they are. */
async function findExternalIds(context: CheckContext, externalIds: string[]): Promise<Map<string, SavedRecord>> {
  const result = new Map<string, SavedRecord>();
  const ids = [...new Set(externalIds.filter((id) => !unstorableTextProblem(id)))];
  for (let offset = 0; offset < ids.length; offset += 2_000) {
    const rows = await context.prisma.record.findMany({
      where: { sectionId: context.section.id, externalId: { in: ids.slice(offset, offset + 2_000) } },
      select: { id: true, version: true, projectId: true, values: true, externalId: true },
    });
    const editable = rows.filter((row) => canEdit(context.principal, row));
    const targets = [...new Set(editable.flatMap((row) => [...relationTargetsByField(context.section.fields, row.values as RecordValues).values()].flat()))];
    const readable = new Set<string>();
    for (let start = 0; start < targets.length; start += 5_000) {
      const found = await context.prisma.record.findMany({
        where: { id: { in: targets.slice(start, start + 5_000) }, ...projectScopeWhere(context.principal) },
        select: { id: true },
      });
      for (const row of found) readable.add(row.id);
    }
    for (const row of rows) {
      const values = row.values as RecordValues;
      const hiddenTargets = new Set(
        [...relationTargetsByField(context.section.fields, values).values()].flat().filter((id) => canEdit(context.principal, row) && !readable.has(id)),
      );
      result.set(row.externalId as string, { id: row.id, version: row.version, projectId: row.projectId, values, hiddenTargets });
    }
  }
  return result;
}

/**
 * An importer cannot see, and so cannot remove, the saved record's links to records outside
 * their projects: those are carried over (as saveRecord does for the editor). A target that no
 * longer exists counts as hidden too, which only keeps what the record already said.
 */
function keepHiddenRelations(fields: readonly FieldDefinition[], saved: SavedRecord, values: RecordValues): RecordValues {
  if (saved.hiddenTargets.size === 0) return values;
  const result = { ...values };
  const savedByField = relationTargetsByField([...fields], saved.values);
  for (const field of fields) {
    if (field.type !== "relation") continue;
    const hidden = (savedByField.get(field.key) ?? []).filter((id) => saved.hiddenTargets.has(id));
    if (hidden.length === 0) continue;
    if (field.multiple) result[field.key] = [...new Set([...((result[field.key] as string[] | undefined) ?? []), ...hidden])];
    else if (result[field.key] === undefined) result[field.key] = hidden[0];
  }
  return result;
}

/** JSON with object keys sorted, so values read back from jsonb compare with fresh ones. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}
