import "server-only";
import type { Principal } from "../acl";
import { type CitationFile, citeRecord, citeRecords } from "../archive/cite-records";
import type { PrismaClient } from "../db/generated/client";
import { queryOf } from "./request-query";

/**
 * A citation file the browser saves (a reference manager opens it): its media type, a file name,
 * never cached. A selection names the ids it did not find in `Mnemo-Not-Found` (URL-encoded,
 * comma-separated), missing and unreadable alike.
 */
export function citationDownload(file: CitationFile): Response {
  const headers: Record<string, string> = {
    "content-type": file.contentType,
    "content-disposition": `attachment; filename="${file.fileName.replace(/[^A-Za-z0-9._-]+/g, "-")}"`,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  };
  if (file.notFound.length > 0) headers["mnemo-not-found"] = file.notFound.map(encodeURIComponent).join(",");
  return new Response(file.body, { headers });
}

/** GET /api/records/<id>/cite?format=…[&t=…] */
export async function citeRecordResponse(
  prisma: PrismaClient,
  principal: Principal,
  request: Request,
  options: { id: string; origin: string },
): Promise<Response> {
  return citationDownload(await citeRecord(prisma, principal, { id: options.id, query: queryOf(request), origin: options.origin }));
}

/** GET /api/records/cite?format=…&ids=<id>,<id>… */
export async function citeSelectionResponse(prisma: PrismaClient, principal: Principal, request: Request, options: { origin: string }): Promise<Response> {
  return citationDownload(await citeRecords(prisma, principal, { query: queryOf(request, ["ids"]), origin: options.origin }));
}
