import { z } from "zod";
import { getImportJob } from "@/lib/archive/import";
import { authorizedRoute } from "@/lib/http/authorized";

/** An import job's progress, for the /import page's progress bar (its creator and admins; others: 404). */
export const GET = authorizedRoute(z.object({ id: z.string().max(64) }), async (_request, { principal, params, runtime }) => {
  const job = await getImportJob(runtime.database.prisma, principal, params.id);
  return Response.json(job, { headers: { "cache-control": "no-store" } });
});
