import { withApiToken } from "@/lib/api/api-deps";
import type { Principal } from "@/lib/acl";
import { notFound } from "@/lib/errors";
import { authorizedRoute } from "@/lib/http/authorized";
import { captionRouteParamsSchema, captionsResponse } from "@/lib/http/captions-response";
import { processCaptionTranslator } from "@/lib/rag/embed/caption-translation";
import type { Runtime } from "@/lib/runtime";

/**
 * A record's transcript as WebVTT or SRT (`<field>.vtt`, `<field>.srt`; `<field>.en.vtt` and
 * `<field>.en.srt` for the English machine translation of a Spanish or Catalan one), for the
 * record page's player and download links. Browsers come with their session; agents send their
 * API token as a bearer, as for media. Denied, missing and malformed are one 404.
 */
function serve({ principal, runtime }: { principal: Principal; runtime: Runtime }, params: { id: string; file: string }): Promise<Response> {
  return captionsResponse(runtime.database.prisma, principal, { recordId: params.id, file: params.file }, processCaptionTranslator);
}

const serveToSession = authorizedRoute(captionRouteParamsSchema, async (_request, context) => serve(context, context.params));

async function serveCaptions(request: Request, context: { params: Promise<{ id: string; file: string }> }): Promise<Response> {
  if (request.headers.has("authorization")) {
    const params = captionRouteParamsSchema.safeParse(await context.params);
    return withApiToken(request, async (signedIn) => {
      if (!params.success) throw notFound();
      return serve(signedIn, params.data);
    });
  }
  return serveToSession(request, context);
}

export const GET = serveCaptions;
