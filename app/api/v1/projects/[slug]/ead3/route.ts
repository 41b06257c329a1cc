import { z } from "zod";
import { linkOrigin } from "@/lib/api/handle-api-request";
import { tokenRoute } from "@/lib/api/token-route";
import { projectEad3Response } from "@/lib/http/finding-aid-download";

/** GET /api/v1/projects/{slug}/ead3 — the project as an EAD3 finding aid, as the token's user may read it. */
export const GET = tokenRoute(z.object({ slug: z.string().max(200) }), async (request, { principal, runtime, params }) =>
  projectEad3Response(runtime.database.prisma, principal, request, { slug: params.slug, origin: linkOrigin(request, runtime.config), agency: runtime.config.MNEMO_OAI_REPOSITORY_NAME }),
);
