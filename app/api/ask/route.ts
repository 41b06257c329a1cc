import { z } from "zod";
import { authorizedRoute } from "@/lib/http/authorized";
import { askResponse } from "@/lib/http/ask-response";

/** POST a question; the answer streams back as NDJSON events (see lib/http/ask-response.ts). */
export const POST = authorizedRoute(z.unknown(), async (request, { principal, runtime }) => {
  return askResponse(runtime.database.prisma, runtime.ask, principal, request);
});
