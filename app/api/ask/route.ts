import { z } from "zod";
import { getDatabase } from "@/lib/db";
import { authorizedRoute } from "@/lib/http/authorized";
import { getAskContext } from "@/lib/rag/ask/ask-context";
import { askResponse } from "@/lib/http/ask-response";

/** POST a question; the answer streams back as NDJSON events (see lib/http/ask-response.ts). */
export const POST = authorizedRoute(z.unknown(), async (request, { principal }) => {
  const { prisma } = await getDatabase();
  return askResponse(prisma, getAskContext, principal, request);
});
