import "server-only";
import { z } from "zod";
import { getImportJob } from "../../archive/import";
import { importJobOutput } from "../api-schemas";
import { id } from "./inputs";
import { defineOperation } from "./operation";

export const getImportOperation = defineOperation({
  name: "get_import",
  title: "Follow an import",
  description:
    "An import job you started (admins: any): its status (queued, running, done, failed), rows processed, created, updated, unchanged and skipped, and the problems of the skipped rows. " +
    "Anyone else's job is not found, like a missing one. Needs a token with the write scope, as starting the import did.",
  method: "GET",
  path: "/imports/{jobId}",
  pathParams: ["jobId"],
  input: z.strictObject({ jobId: id.describe("The job's id, as create_import returned it.") }),
  output: importJobOutput,
  cost: 1,
  // Following a job is part of importing: the same write token starts and follows it (and MCP,
  // read-only until write tools exist, offers neither).
  scope: "write",
  async run(input, { runtime, principal, origin }) {
    const job = await getImportJob(runtime.prisma, principal, input.jobId);
    const records = new URLSearchParams({ section: job.sectionSlug, project: job.projectId });
    return { ...job, url: `${origin}/api/v1/imports/${job.id}`, recordsUrl: `${origin}/records?${records}` };
  },
});
