import { z } from "zod";
import { linkOrigin } from "@/lib/api/handle-api-request";
import { publicRoute } from "@/lib/api/public-route";
import { requestClientAddress } from "@/lib/auth/client-address";
import { iiifUrls } from "@/lib/archive/iiif/presentation";
import { imageResponse, processImageService } from "@/lib/archive/iiif/serve-image";

const segment = z.string().max(100);

/**
 * An image rendition (Image API 3, level 1): `<region>/<size>/<rotation>/<quality>.<format>`,
 * made by sharp and cached. An image the principal may not read is the missing image's 404;
 * a malformed request (or one beyond the limits info.json declares) is a 400 naming the
 * parameter, a valid one it does not render (rotation, bitonal, tif…) a 501; too many renders
 * from one address without signing in, a 429.
 */
export const GET = publicRoute(
  z.object({ id: segment, region: segment, size: segment, rotation: segment, quality: segment }),
  async (request, { principal, runtime, params }) => {
    const service = processImageService(runtime.config);
    return imageResponse(runtime.database.prisma, principal, {
      imageId: params.id,
      storageDir: runtime.config.storageDir,
      region: params.region,
      size: params.size,
      rotation: params.rotation,
      quality: params.quality,
      service,
      clientAddress: requestClientAddress(request, service.proxies),
      serviceId: iiifUrls(linkOrigin(request, runtime.config)).imageService(params.id),
      ifNoneMatch: request.headers.get("if-none-match"),
    });
  },
);
