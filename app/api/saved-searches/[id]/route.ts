import { authorizedRoute } from "@/lib/http/authorized";
import { savedSearchResponse, savedSearchRouteParamsSchema } from "@/lib/http/saved-search-responses";

/** One of the user's saved searches (GET), renamed (PATCH `{name}`) or deleted (DELETE); anyone else's is not found. */
export const GET = authorizedRoute(savedSearchRouteParamsSchema, async (request, { principal, params: { id }, runtime }) => {
  const { prisma, sql } = runtime.database;
  return savedSearchResponse({ prisma, sql, searchContext: runtime.search }, principal, request, id);
});

export const PATCH = GET;
export const DELETE = GET;
