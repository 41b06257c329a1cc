import { authorizedRoute } from "@/lib/http/authorized";
import { openSavedSearchResponse, savedSearchRouteParamsSchema } from "@/lib/http/saved-search-responses";

/** Opens one of the user's saved searches: the visit is recorded (its "new" count starts again) and the list opens. */
export const GET = authorizedRoute(savedSearchRouteParamsSchema, async (_request, { principal, params: { id }, runtime }) => {
  const { prisma, sql } = runtime.database;
  return openSavedSearchResponse({ prisma, sql, searchContext: runtime.search }, principal, id);
});
