import { z } from "zod";
import { getDatabase } from "@/lib/db";
import { authorizedRoute } from "@/lib/http/authorized";
import { listThreads } from "@/lib/rag/ask/threads";

/** The signed-in user's own threads, most recent first. */
export const GET = authorizedRoute(z.unknown(), async (_request, { principal }) => {
  const { prisma } = await getDatabase();
  return Response.json({ threads: await listThreads(prisma, principal) }, { headers: { "cache-control": "no-store" } });
});
