import { z } from "zod";
import { publicRoute } from "@/lib/api/public-route";
import { imageResponse } from "@/lib/archive/iiif/serve-image";

const segment = z.string().max(100);

/**
 * An image rendition (Image API 3, level 1): `<region>/<size>/<rotation>/<quality>.<format>`,
 * made by sharp and cached. An image the principal may not read is the missing image's 404;
 * a request this server does not serve is a 400 naming the parameter.
 */
export const GET = publicRoute(z.object({ id: segment, region: segment, size: segment, rotation: segment, quality: segment }), async (_request, { principal, runtime, params }) =>
  imageResponse(runtime.database.prisma, principal, { imageId: params.id, storageDir: runtime.config.storageDir, region: params.region, size: params.size, rotation: params.rotation, quality: params.quality }),
);
