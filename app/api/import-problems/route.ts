import { z } from "zod";
import { authorizedRoute } from "@/lib/http/authorized";
import { csvDownload } from "@/lib/http/csv-download";
import { readFormData } from "@/lib/http/request-body";
import { dryRunProblemsCsv, importUploadLimit } from "@/lib/http/import-upload";

/**
 * A dry run's problems as CSV: the page posts the same form as its "Check" step (the file and
 * the plan, up to the import limit) and the problems of checking it again come back as a download.
 * Nothing is written; who may check what is the service's decision, as for the dry run.
 */
export const POST = authorizedRoute(
  z.unknown(),
  async (request, { principal, runtime }) => {
    const { csv, fileName } = await dryRunProblemsCsv(runtime.database.prisma, principal, await readFormData(request, importUploadLimit()));
    return csvDownload(csv, fileName);
  },
  { maxBodyBytes: importUploadLimit },
);
