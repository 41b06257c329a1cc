import { authorizedRoute } from "@/lib/http/authorized";
import { englishTextParamsSchema, englishTextResponse } from "@/lib/http/english-text-response";
import { processTextTranslator } from "@/lib/rag/embed/text-translation";

/**
 * The English beside each paragraph of a record's Spanish or Catalan long text, as JSON, for the
 * record page's "Show English" (machine translation by Apertium, made on first request and kept
 * by the text's hash). Denied, missing and malformed are one 404.
 */
export const GET = authorizedRoute(englishTextParamsSchema, async (_request, { principal, runtime, params }) =>
  englishTextResponse(runtime.database.prisma, principal, { recordId: params.id, fieldKey: params.field }, processTextTranslator),
);
