import { z } from "zod";
import { authorizedRoute } from "@/lib/http/authorized";
import { savedSearchesResponse } from "@/lib/http/saved-search-responses";

/** The signed-in user's saved searches, each with its "new since last visit" count. */
export const GET = authorizedRoute(z.unknown(), async (request, { principal, runtime }) => {
  const { prisma, sql } = runtime.database;
  return savedSearchesResponse({ prisma, sql, searchContext: runtime.search }, principal, request);
});

/** Saves the record list's state: `{name, params}` with the list's URL parameters. */
export const POST = GET;
