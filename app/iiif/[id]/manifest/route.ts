import { z } from "zod";
import { linkOrigin } from "@/lib/api/handle-api-request";
import { publicRoute } from "@/lib/api/public-route";
import { manifestResponse } from "@/lib/archive/iiif/iiif-responses";
import { defaultImageServiceSettings } from "@/lib/archive/iiif/image-request";

/**
 * A record as a IIIF Presentation 3 Manifest: its images, recordings (with transcript
 * annotations and index ranges) and scanned pages as Canvases. Signed in, with a token, or
 * without either for a record of a public project; anything else is the missing record's 404.
 */
export const GET = publicRoute(z.object({ id: z.string().max(100) }), async (request, { principal, runtime, params }) =>
  manifestResponse(runtime.database.prisma, principal, {
    recordId: params.id,
    origin: linkOrigin(request, runtime.config),
    storageDir: runtime.config.storageDir,
    imageSettings: defaultImageServiceSettings,
  }),
);
