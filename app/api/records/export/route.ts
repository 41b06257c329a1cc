import { z } from "zod";
import { linkOrigin } from "@/lib/api/handle-api-request";
import { authorizedRoute } from "@/lib/http/authorized";
import { recordListExportResponse } from "@/lib/http/record-list-download";
import { recordListExportMaxRows } from "@/lib/rag/search/export-record-list";

/**
 * The record list as CSV or JSON: `?format=csv|json` and the same parameters as /records (a
 * search's pinned ranked order, the filters, the sort), every page of it up to
 * recordListExportMaxRows, readable records only.
 */
export const GET = authorizedRoute(z.unknown(), async (request, { principal, runtime }) => {
  const { prisma, sql } = runtime.database;
  return recordListExportResponse({ prisma, sql, searchContext: runtime.search }, principal, request, {
    origin: linkOrigin(request, runtime.config),
    maxRows: recordListExportMaxRows,
  });
});
