import { z } from "zod";
import { linkOrigin } from "@/lib/api/handle-api-request";
import { authorizedRoute } from "@/lib/http/authorized";
import { citeSelectionResponse } from "@/lib/http/citation-download";

/**
 * Several records' citations in one file: `?format=ris|bibtex|csl-json&ids=<id>,<id>…` (up to
 * 100). Ids not there for the reader — missing and unreadable alike — are named in the
 * `Mnemo-Not-Found` header; none left is a 404.
 */
export const GET = authorizedRoute(z.unknown(), async (request, { principal, runtime }) =>
  citeSelectionResponse(runtime.database.prisma, principal, request, {
    origin: linkOrigin(request, runtime.config),
  }),
);
