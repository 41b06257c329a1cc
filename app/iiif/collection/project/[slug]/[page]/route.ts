import { z } from "zod";
import { linkOrigin } from "@/lib/api/handle-api-request";
import { publicRoute } from "@/lib/api/public-route";
import { collectionResponse } from "@/lib/archive/iiif/iiif-responses";

/** One page of a large project collection: a Collection of at most 500 Manifests. */
export const GET = publicRoute(z.object({ slug: z.string().max(200), page: z.string().max(20) }), async (request, { principal, runtime, params }) =>
  collectionResponse(runtime.database.prisma, principal, {
    kind: "project",
    slug: params.slug,
    page: params.page,
    origin: linkOrigin(request, runtime.config),
  }),
);
