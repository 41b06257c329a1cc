"use server";

import { z } from "zod";
import { authorizedAction } from "@/lib/http/authorized";
import { retryFailed, startReindex } from "@/lib/admin/reindex-jobs";

const sectionSlug = z.string().min(1).max(64).optional();

/** Queues a section (or everything) for reindexing; a running job over the same records is returned instead. */
export const startReindexAction = authorizedAction(z.object({ sectionSlug }), async (input, { principal, runtime }) => {
  const { prisma, sql } = runtime.database;
  const started = await startReindex(prisma, sql, principal, input);
  return { jobId: started.job.id, alreadyRunning: started.alreadyRunning, total: started.job.total };
});

/** Puts parked records back in line (admins only). */
export const retryFailedAction = authorizedAction(z.object({ sectionSlug }), async (input, { principal, runtime }) => {
  const { prisma, sql } = runtime.database;
  return { retried: await retryFailed(prisma, sql, principal, input) };
});
