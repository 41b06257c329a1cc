import "server-only";
import type { Principal } from "../../acl";
import type { FieldDefinition } from "../../archive/field-definitions";
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
  /** The listed fields' cells, by field key, as the list shows them. */
  values: Record<string, string>;
  /** With a search: the record's place in the ranked hits (1 is best) and its fused relevance (0–1). */
  rank?: number;
  relevance?: number;
}

export interface RecordListExport {
  /** The section's listed fields, when the list is of one section (the list's extra columns). */
  columns: Pick<FieldDefinition, "key" | "label">[];
  search?: { query: string; mode: SearchMode };
  /** Records the list holds, and how many of them the export holds (at most the limit). */
  total: number;
  rowCount: number;
  rows: AsyncGenerator<ExportedRecord>;
}

const batchRows = 250;

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
  options: { maxRows: number },
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
  const columns = listColumnsOf(view.section);

  async function* rows(): AsyncGenerator<ExportedRecord> {
    let page = first;
    let sent = 0;
    for (;;) {
      for (const item of page.items) {
        if (sent >= rowCount) return;
        const hit = view.search?.byRecord.get(item.id);
        yield {
          id: item.id,
          title: item.title,
          section: item.sectionName,
          project: item.projectName,
          date: item.dateText,
          values: Object.fromEntries(columns.map((field) => [field.key, listCellText(field, item.values[field.key])])),
          ...(view.search ? { rank: ranks.get(item.id), relevance: hit ? Number(hit.score.toFixed(4)) : undefined } : {}),
        };
        sent++;
      }
      if (sent >= rowCount || page.items.length < pageSize) return;
      page = await listRecords(deps.sql, principal, { ...listQuery!, page: page.page + 1, pageSize }, { pinnedIds });
    }
  }

  return {
    columns: columns.map((field) => ({ key: field.key, label: field.label })),
    search: view.query ? { query: view.query, mode: view.mode } : undefined,
    total: first.total,
    rowCount,
    rows: rows(),
  };
}
