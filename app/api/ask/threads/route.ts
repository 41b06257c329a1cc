import { z } from "zod";
import { authorizedRoute } from "@/lib/http/authorized";
import { listThreads } from "@/lib/rag/ask/threads";

/** The signed-in user's own threads, most recent first. */
export const GET = authorizedRoute(z.unknown(), async (_request, { principal, runtime }) => {
  const { prisma } = runtime.database;
  return Response.json({ threads: await listThreads(prisma, principal) }, { headers: { "cache-control": "no-store" } });
});
