import { z } from "zod";
import { authorizedRoute } from "@/lib/http/authorized";
import { deleteThread, getThread } from "@/lib/rag/ask/threads";

const params = z.object({ id: z.string().max(64) });

/** One of the user's threads with its messages; anyone else's is not found. */
export const GET = authorizedRoute(params, async (_request, { principal, params: { id }, runtime }) => {
  const { prisma } = runtime.database;
  return Response.json({ thread: await getThread(prisma, principal, id) }, { headers: { "cache-control": "no-store" } });
});

export const DELETE = authorizedRoute(params, async (_request, { principal, params: { id }, runtime }) => {
  const { prisma } = runtime.database;
  await deleteThread(prisma, principal, id);
  return new Response(null, { status: 204 });
});
