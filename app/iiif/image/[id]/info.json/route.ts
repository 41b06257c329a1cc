import { z } from "zod";
import { linkOrigin } from "@/lib/api/handle-api-request";
import { publicRoute } from "@/lib/api/public-route";
import { defaultImageServiceSettings } from "@/lib/archive/iiif/image-request";
import { imageInfoResponse } from "@/lib/archive/iiif/serve-image";
import { iiifUrls } from "@/lib/archive/iiif/presentation";

/** An image's information document (Image API 3): its size, the sizes, limits, formats and qualities served. */
export const GET = publicRoute(z.object({ id: z.string().max(100) }), async (request, { principal, runtime, params }) =>
  imageInfoResponse(runtime.database.prisma, principal, {
    imageId: params.id,
    storageDir: runtime.config.storageDir,
    serviceId: iiifUrls(linkOrigin(request, runtime.config)).imageService(params.id),
    settings: defaultImageServiceSettings,
  }),
);
