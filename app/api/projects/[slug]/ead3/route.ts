import { z } from "zod";
import { linkOrigin } from "@/lib/api/handle-api-request";
import { authorizedRoute } from "@/lib/http/authorized";
import { projectEad3Response } from "@/lib/http/finding-aid-download";

/**
 * A project as an EAD3 finding aid, for the signed-in reader (lib/archive/finding-aids). A
 * project they may not read is the same 404 as one that does not exist.
 */
export const GET = authorizedRoute(z.object({ slug: z.string().max(200) }), async (request, { principal, runtime, params }) =>
  projectEad3Response(runtime.database.prisma, principal, request, {
    slug: params.slug,
    origin: linkOrigin(request, runtime.config),
    agency: runtime.config.MNEMO_OAI_REPOSITORY_NAME,
  }),
);
