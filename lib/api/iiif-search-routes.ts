import "server-only";
import { z } from "zod";
import { defaultImageServiceSettings } from "../archive/iiif/image-request";
import { requestClientAddress, trustedProxies } from "../auth/client-address";
import { iiifAutocompleteResponse, iiifSearchResponse, processSearchLimiter } from "../http/iiif-search-response";
import { linkOrigin } from "./handle-api-request";
import { publicRoute } from "./public-route";

/**
 * GET of a record's IIIF Content Search service (`search`) or its autocomplete, in the
 * specification's version 2 or 1 (/iiif/<id>/search[/v1], /iiif/<id>/autocomplete[/v1]).
 * Access as the Manifest's (publicRoute); an unreadable, unknown or textless record is its 404,
 * bad input a 400, and the public reader shares one allowance per address (a 429 past it).
 */
export function iiifSearchRoute(service: "search" | "autocomplete", version: 1 | 2) {
  const respond = service === "search" ? iiifSearchResponse : iiifAutocompleteResponse;
  return publicRoute(z.object({ id: z.string().max(100) }), async (request, { principal, runtime, params }) =>
    respond({ prisma: runtime.database.prisma, search: runtime.search, config: runtime.config }, principal, {
      recordId: params.id,
      url: new URL(request.url),
      origin: linkOrigin(request, runtime.config),
      storageDir: runtime.config.storageDir,
      imageSettings: defaultImageServiceSettings,
      clientAddress: requestClientAddress(request, trustedProxies(runtime.config.MNEMO_TRUSTED_PROXIES)),
      limiter: processSearchLimiter(runtime.config),
      version,
    }),
  );
}
