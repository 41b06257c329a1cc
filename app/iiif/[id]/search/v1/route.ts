import { z } from "zod";
import { linkOrigin } from "@/lib/api/handle-api-request";
import { publicRoute } from "@/lib/api/public-route";
import { requestClientAddress, trustedProxies } from "@/lib/auth/client-address";
import { imageServiceSettings } from "@/lib/archive/iiif/serve-image";
import { iiifSearchResponse, processSearchLimiter } from "@/lib/http/iiif-search-response";

/**
 * Content Search 1.0 (Mirador 3, the Universal Viewer): the same hits as an sc:AnnotationList with search:Hits.
 * Access as the Manifest's; an unreadable, unknown or textless record is its 404; bad input a 400.
 */
export const GET = publicRoute(z.object({ id: z.string().max(100) }), async (request, { principal, runtime, params }) =>
  iiifSearchResponse({ prisma: runtime.database.prisma, search: runtime.search, config: runtime.config }, principal, {
    recordId: params.id,
    url: new URL(request.url),
    origin: linkOrigin(request, runtime.config),
    storageDir: runtime.config.storageDir,
    imageSettings: imageServiceSettings(runtime.config),
    clientAddress: requestClientAddress(request, trustedProxies(runtime.config.MNEMO_TRUSTED_PROXIES)),
    limiter: processSearchLimiter(runtime.config),
    version: 1,
  }),
);
