import "server-only";
import type { Principal } from "../../acl";
import type { FieldDefinition } from "../../archive/field-definitions";
import { exportFieldColumns, exportRecordFields, sectionsOfList } from "../../archive/export-record-fields";
import { listRecords } from "../../archive/list-records";
import { AppError } from "../../errors";
import { type RecordListParams, type RecordListViewDeps, listCellText, listColumnsOf, resolveRecordList } from "./record-list-view";
import type { SearchMode } from "./search-archive";

/** One exported row: what the list shows of a record, and with a search its rank and relevance. */
export interface ExportedRecord {
  id: string;
  title: string;
  section: string;
  project: string;
  /** The record's years as the list shows them ("1962", "400 BC – 380 BC"), empty when undated. */
  date: string;
  /** The exported fields' cells by field key: the listed ones as the list shows them, or every field (`fields: "all"`). */
  values: Record<string, string>;
  /** With a search: the record's place in the ranked hits (1 is best) and its fused relevance (0–1). */
  rank?: number;
  relevance?: number;
}

/** Which fields an export holds: the list's columns, or every field of the records' sections. */
export const exportedFieldChoices = ["listed", "all"] as const;
export type ExportedFields = (typeof exportedFieldChoices)[number];

export interface RecordListExport {
  /** The section's listed fields when the list is of one section (the list's extra columns); with "all", every field of the list's sections. */
  columns: Pick<FieldDefinition, "key" | "label">[];
  search?: { query: string; mode: SearchMode };
  /** Records the list holds, and how many of them the export holds (at most the limit). */
  total: number;
  rowCount: number;
  rows: AsyncGenerator<ExportedRecord>;
}

const batchRows = 250;

/** Most rows a record list export holds (the export says when it left the rest out): a larger list is a harvest, which OAI-PMH and the JSON API page through. */
export const recordListExportMaxRows = 5_000;

/**
 * The record list as its page shows it, every page of it up to `maxRows`: the same URL
 * parameters resolved by the same function as the page (resolveRecordList: filters, section, the
 * pinned ranked search), then listRecords paged in batches, so the rows and their order are the
 * page's — readable records only, a search's relevance order or the chosen sort. The page and
 * page size of the URL are ignored: an export starts at the first row. A filter problem is a
 * bad_request naming it; a search that cannot run is the error the page shows.
 */
export async function exportRecordList(
  deps: RecordListViewDeps,
  principal: Principal,
  params: RecordListParams,
  options: { maxRows: number; fields?: ExportedFields; origin?: string },
): Promise<RecordListExport> {
  const { view, listQuery } = await resolveRecordList(deps, principal, params);
  if (view.problem) throw new AppError("bad_request", view.problem);
  if (view.searchProblem) throw new AppError(view.searchProblem.unavailable ? "unavailable" : "bad_request", view.searchProblem.message);
  if (!listQuery) throw new AppError("bad_request", "The list could not be resolved.");
  const pinnedIds = view.search?.pinnedIds;
  const ranks = new Map(pinnedIds?.map((id, index) => [id, index + 1]));
  const pageSize = Math.min(batchRows, options.maxRows);
  const first = await listRecords(deps.sql, principal, { ...listQuery, page: 1, pageSize }, { pinnedIds });
  const rowCount = Math.min(first.total, options.maxRows);
  const listed = listColumnsOf(view.section);
  // Every field: the union of the list's sections' fields, read per batch through the reader's access.
  const sections = options.fields === "all" ? await sectionsOfList(deps.sql, principal, listQuery, { pinnedIds }) : undefined;
  const columns = sections ? exportFieldColumns(sections) : listed.map((field) => ({ key: field.key, label: field.label }));

  async function* rows(): AsyncGenerator<ExportedRecord> {
    let page = first;
    let sent = 0;
    for (;;) {
      const allFields = sections
        ? await exportRecordFields(
            deps.prisma,
            principal,
            page.items.map((item) => item.id),
            sections,
            { origin: options.origin ?? "" },
          )
        : undefined;
      for (const item of page.items) {
        if (sent >= rowCount) return;
        const hit = view.search?.byRecord.get(item.id);
        yield {
          id: item.id,
          title: item.title,
          section: item.sectionName,
          project: item.projectName,
          date: item.dateText,
          values: allFields
            ? Object.fromEntries(columns.map((column) => [column.key, allFields.get(item.id)?.[column.key] ?? ""]))
            : Object.fromEntries(listed.map((field) => [field.key, listCellText(field, item.values[field.key])])),
          ...(view.search ? { rank: ranks.get(item.id), relevance: hit ? Number(hit.score.toFixed(4)) : undefined } : {}),
        };
        sent++;
      }
      if (sent >= rowCount || page.items.length < pageSize) return;
      page = await listRecords(deps.sql, principal, { ...listQuery!, page: page.page + 1, pageSize }, { pinnedIds });
    }
  }

  return {
    columns,
    search: view.query ? { query: view.query, mode: view.mode } : undefined,
    total: first.total,
    rowCount,
    rows: rows(),
  };
}
