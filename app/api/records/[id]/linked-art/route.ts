import { linkOrigin } from "@/lib/api/handle-api-request";
import { publicRoute } from "@/lib/api/public-route";
import { linkedArtParamsSchema, linkedArtResponse } from "@/lib/http/linked-art-response";

/**
 * An object's Linked Art JSON-LD (HumanMadeObject), which its IIIF Manifest names in `seeAlso`.
 * Like the Manifest it is read signed in, with a token, or without either for a record of a
 * public project (lib/api/public-route.ts); anything else is the missing record's 404.
 */
export const GET = publicRoute(linkedArtParamsSchema, async (request, { principal, runtime, params }) =>
  linkedArtResponse(runtime.database.prisma, principal, { recordId: params.id, origin: linkOrigin(request, runtime.config) }),
);
