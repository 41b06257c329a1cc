import { z } from "zod";
import { apiDepsOver } from "@/lib/api/api-deps";
import { handleResearchSession } from "@/lib/api/research/research-request";
import { authorizedRoute } from "@/lib/http/authorized";

/** POST {question, scope?} from the Ask panel; the research run streams back as NDJSON events (lib/api/research). */
export const POST = authorizedRoute(z.unknown(), async (request, { principal, runtime }) => {
  return handleResearchSession(request, principal, apiDepsOver(runtime));
});
