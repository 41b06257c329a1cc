import { z } from "zod";
import { authorizedRoute } from "@/lib/http/authorized";
import { getReindexProgress } from "@/lib/admin/reindex-jobs";

/** A reindex job's progress, for the admin page's progress bar (admins only; others: 404). */
export const GET = authorizedRoute(z.object({ id: z.string().max(64) }), async (_request, { principal, params, runtime }) => {
  const { sql } = runtime.database;
  const progress = await getReindexProgress(sql, principal, params.id);
  return Response.json(progress, { headers: { "cache-control": "no-store" } });
});
