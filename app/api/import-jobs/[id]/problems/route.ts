import { z } from "zod";
import { getImportJob, problemsCsv } from "@/lib/archive/import";
import { authorizedRoute } from "@/lib/http/authorized";
import { csvDownload } from "@/lib/http/csv-download";

/** The rows an import job skipped, with why, as CSV (its creator and admins; others: 404). */
export const GET = authorizedRoute(z.object({ id: z.string().max(64) }), async (_request, { principal, params, runtime }) => {
  const job = await getImportJob(runtime.database.prisma, principal, params.id);
  return csvDownload(problemsCsv(job.problems), `import-problems-${job.id.slice(0, 8)}.csv`);
});
