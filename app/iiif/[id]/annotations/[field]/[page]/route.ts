import { z } from "zod";
import { linkOrigin } from "@/lib/api/handle-api-request";
import { publicRoute } from "@/lib/api/public-route";
import { scanPageAnnotationsResponse } from "@/lib/archive/iiif/iiif-responses";

/**
 * The text OCR read from a scan's page (`p<N>`) as a IIIF AnnotationPage of line annotations,
 * the one the page's Canvas names in the Manifest. Read as the Manifest is: signed in, with a
 * token, or without either for a record of a public project; anything else is the missing
 * record's 404. A field or page the record does not have is a 404, a page not written p<N> a 400.
 */
export const GET = publicRoute(
  z.object({ id: z.string().max(100), field: z.string().max(100), page: z.string().max(20) }),
  async (request, { principal, runtime, params }) =>
    scanPageAnnotationsResponse(runtime.database.prisma, principal, {
      recordId: params.id,
      field: params.field,
      page: params.page,
      origin: linkOrigin(request, runtime.config),
    }),
);
