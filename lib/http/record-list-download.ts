import "server-only";
import { z } from "zod";
import type { Principal } from "../acl";
import { csvLine } from "../csv";
import { parseInput } from "../errors";
import { type ExportedRecord, type RecordListExport, exportRecordList, exportedFieldChoices } from "../rag/search/export-record-list";
import { type RecordListViewDeps, readRecordListParams } from "../rag/search/record-list-view";
import { queryOf } from "./request-query";

export const recordListExportFormats = ["csv", "json"] as const;
const exportFormatSchema = z.object({
  format: z.enum(recordListExportFormats, { error: "Choose a format: csv or json." }),
  // Absent or empty: the listed columns, as every export link before this choice.
  columns: z.preprocess(
    (value) => (value === "" || value === undefined ? "listed" : value),
    z.enum(exportedFieldChoices, { error: "Choose columns: listed or all." }),
  ),
});

function recordUrl(origin: string, id: string): string {
  return `${origin.replace(/\/+$/, "")}/records/${encodeURIComponent(id)}`;
}

/** CSV: id, URL, title, section, project, date, the listed (or all) fields, and with a search rank and relevance; every cell formula-safe. */
async function* csvChunks(list: RecordListExport, origin: string): AsyncGenerator<string> {
  const ranked = list.search !== undefined;
  yield csvLine(["id", "url", "title", "section", "project", "date", ...list.columns.map((column) => column.label), ...(ranked ? ["rank", "relevance"] : [])]);
  for await (const row of list.rows) {
    yield csvLine([
      row.id,
      recordUrl(origin, row.id),
      row.title,
      row.section,
      row.project,
      row.date,
      ...list.columns.map((column) => row.values[column.key] ?? ""),
      ...(ranked ? [row.rank === undefined ? "" : String(row.rank), row.relevance === undefined ? "" : String(row.relevance)] : []),
    ]);
  }
}

/** JSON: what was asked and how much the list holds, then the records, streamed one by one. */
async function* jsonChunks(list: RecordListExport, origin: string): AsyncGenerator<string> {
  const head = { search: list.search ?? null, total: list.total, exported: list.rowCount, columns: list.columns };
  yield `${JSON.stringify(head).slice(0, -1)},"records":[`;
  let first = true;
  for await (const row of list.rows) {
    const record: ExportedRecord & { url: string } = { ...row, url: recordUrl(origin, row.id) };
    yield `${first ? "" : ","}\n${JSON.stringify(record)}`;
    first = false;
  }
  yield "\n]}\n";
}

function streamOf(chunks: AsyncGenerator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}

/**
 * GET /api/records/export?format=csv|json[&columns=listed|all]&<the list's parameters>: the record
 * list as the page shows it (exportRecordList), streamed, up to `maxRows`; `columns=all` gives
 * every field the reader may read instead of the listed ones. The headers say how many records the
 * list holds and how many the file holds.
 */
export async function recordListExportResponse(
  deps: RecordListViewDeps,
  principal: Principal,
  request: Request,
  options: { origin: string; maxRows: number },
): Promise<Response> {
  const query = queryOf(request);
  const { format, columns } = parseInput(exportFormatSchema, { format: query.format, columns: query.columns });
  const list = await exportRecordList(deps, principal, readRecordListParams(query), { maxRows: options.maxRows, fields: columns, origin: options.origin });
  const stamp = new Date().toISOString().slice(0, 10);
  return new Response(streamOf(format === "csv" ? csvChunks(list, options.origin) : jsonChunks(list, options.origin)), {
    headers: {
      "content-type": format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="records-${stamp}.${format}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "mnemo-export-total": String(list.total),
      "mnemo-export-rows": String(list.rowCount),
    },
  });
}
