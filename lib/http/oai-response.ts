import "server-only";
import { type OaiContext, answerOaiRequest } from "../archive/oai/answer-oai-request";
import { OaiError } from "../archive/oai/oai-request";
import { readBodyText } from "./request-body";

/** Largest POST body: OAI-PMH arguments are a few short values and a resumption token. */
export const maxOaiBodyBytes = 16 * 1024;

/**
 * /oai as HTTP: GET with the arguments in the query string, or POST with them in an
 * application/x-www-form-urlencoded body (both, as the protocol requires). Every answer,
 * protocol errors included, is a 200 text/xml OAI-PMH document; a POST of another content type is
 * a badArgument. The caller is not asked for: harvesting reads the public projects only.
 */
export async function oaiResponse(request: Request, context: OaiContext): Promise<Response> {
  let entries: [string, string][] = [];
  let refusal: OaiError | undefined;
  if (request.method === "POST") {
    const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    const body = await readBodyText(request, maxOaiBodyBytes);
    if (type === "application/x-www-form-urlencoded") entries = [...new URLSearchParams(body)];
    else refusal = new OaiError("badArgument", "A POST request carries its arguments as application/x-www-form-urlencoded.");
  } else {
    entries = [...new URL(request.url).searchParams];
  }
  const xml = await answerOaiRequest(context, entries, refusal);
  return new Response(request.method === "HEAD" ? null : xml, {
    status: 200,
    headers: { "content-type": "text/xml; charset=utf-8", "cache-control": "no-store" },
  });
}
