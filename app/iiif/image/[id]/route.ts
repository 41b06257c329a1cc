import { z } from "zod";
import { linkOrigin } from "@/lib/api/handle-api-request";
import { publicRoute } from "@/lib/api/public-route";
import { imageBaseRedirect } from "@/lib/archive/iiif/serve-image";

/** The image service's base URI redirects to its info.json (Image API 3, level 1). */
export const GET = publicRoute(z.object({ id: z.string().max(100) }), async (request, { principal, runtime, params }) =>
  imageBaseRedirect(runtime.database.prisma, principal, {
    imageId: params.id,
    storageDir: runtime.config.storageDir,
    origin: linkOrigin(request, runtime.config),
  }),
);
