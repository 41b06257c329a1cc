import { z } from "zod";
import { linkOrigin } from "@/lib/api/handle-api-request";
import { authorizedRoute } from "@/lib/http/authorized";
import { citeRecordResponse } from "@/lib/http/citation-download";

/**
 * A record's citation for a reference manager: `?format=ris|bibtex|csl-json`, and for a
 * recording `&t=<seconds>` for the cited moment. The record is read as its page reads it: an
 * unreadable record is the same 404 as a missing one.
 */
export const GET = authorizedRoute(z.object({ id: z.string() }), async (request, { principal, runtime, params }) =>
  citeRecordResponse(runtime.database.prisma, principal, request, {
    id: params.id,
    origin: linkOrigin(request, runtime.config),
  }),
);
