import "server-only";
import { z } from "zod";
import type { Principal } from "../acl";
import { AppError } from "../errors";
import type { RecordListViewDeps } from "../rag/search/record-list-view";
import {
  createSavedSearch,
  deleteSavedSearch,
  getSavedSearch,
  listSavedSearchesWithNews,
  openSavedSearch,
  renameSavedSearch,
} from "../rag/search/saved-searches";
import { maxJsonBodyBytes, readJsonBody } from "./request-body";

/**
 * The saved searches' JSON API, for the signed-in user's own searches only (lib/rag/search/saved-searches.ts):
 * GET /api/saved-searches (each with its "new since last visit" count) and POST (name, the
 * list's params); GET, PATCH (a new name) and DELETE /api/saved-searches/<id>; and
 * GET /account/searches/<id>/open, which records the visit and redirects to the list. Another
 * user's search, a malformed id and a missing one are the same 404.
 */
export const savedSearchRouteParamsSchema = z.object({ id: z.string().max(64) });

const noStore = { "cache-control": "no-store" };

function jsonBody(request: Request): Promise<unknown> {
  return readJsonBody(request, maxJsonBodyBytes, "the saved search");
}

function methodNotAllowed(allowed: string): AppError {
  return new AppError("method_not_allowed", `Use ${allowed}.`, { headers: { allow: allowed } });
}

/** GET (list) or POST (create) /api/saved-searches. */
export async function savedSearchesResponse(deps: RecordListViewDeps, principal: Principal, request: Request): Promise<Response> {
  if (request.method === "GET") return Response.json({ savedSearches: await listSavedSearchesWithNews(deps, principal) }, { headers: noStore });
  if (request.method === "POST")
    return Response.json({ savedSearch: await createSavedSearch(deps.prisma, principal, await jsonBody(request)) }, { status: 201, headers: noStore });
  throw methodNotAllowed("GET, POST");
}

/** GET, PATCH (rename) or DELETE /api/saved-searches/<id>. */
export async function savedSearchResponse(deps: RecordListViewDeps, principal: Principal, request: Request, id: string): Promise<Response> {
  if (request.method === "GET") return Response.json({ savedSearch: await getSavedSearch(deps.prisma, principal, id) }, { headers: noStore });
  if (request.method === "PATCH")
    return Response.json({ savedSearch: await renameSavedSearch(deps.prisma, principal, id, await jsonBody(request)) }, { headers: noStore });
  if (request.method === "DELETE") {
    await deleteSavedSearch(deps.prisma, principal, id);
    return new Response(null, { status: 204 });
  }
  throw methodNotAllowed("GET, PATCH, DELETE");
}

/**
 * GET /account/searches/<id>/open: the visit recorded, a redirect to the list. The location is
 * a path (browsers resolve it against the address they asked), so a proxy in front never
 * sends the reader to the server's inner host name.
 */
export async function openSavedSearchResponse(deps: RecordListViewDeps, principal: Principal, id: string): Promise<Response> {
  const href = await openSavedSearch(deps.prisma, principal, id);
  return new Response(null, { status: 303, headers: { location: href, ...noStore } });
}
