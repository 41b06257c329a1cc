import { z } from "zod";
import { linkOrigin } from "@/lib/api/handle-api-request";
import { publicRoute } from "@/lib/api/public-route";
import { collectionResponse } from "@/lib/archive/iiif/iiif-responses";

/** The project's records the principal may read, as a IIIF Collection of Manifests (or of its pages when large). */
export const GET = publicRoute(z.object({ slug: z.string().max(200) }), async (request, { principal, runtime, params }) =>
  collectionResponse(runtime.database.prisma, principal, { kind: "project", slug: params.slug, origin: linkOrigin(request, runtime.config) }),
);
