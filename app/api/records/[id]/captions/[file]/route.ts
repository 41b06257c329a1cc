import { publicRoute } from "@/lib/api/public-route";
import { captionRouteParamsSchema, captionsResponse } from "@/lib/http/captions-response";
import { processCaptionTranslator } from "@/lib/rag/embed/caption-translation";

/**
 * A record's transcript as WebVTT or SRT (`<field>.vtt`, `<field>.srt`; `<field>.en.vtt` and
 * `<field>.en.srt` for the English machine translation of a Spanish or Catalan one), for the
 * record page's player and download links, and for IIIF viewers (a recording's Canvas names its
 * captions as a rendering). Browsers come with their session; agents send their API token as a
 * bearer, as for media; without either, the transcripts of public projects' records are served
 * (lib/api/public-route.ts), as their IIIF manifests already carry the turns. Denied, missing
 * and malformed are one 404.
 */
export const GET = publicRoute(captionRouteParamsSchema, async (_request, { principal, runtime, params }) =>
  captionsResponse(runtime.database.prisma, principal, { recordId: params.id, file: params.file }, processCaptionTranslator),
);
