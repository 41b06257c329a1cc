import "server-only";
import type { Principal } from "../../acl";
import { AppError, zodFieldErrors } from "../../errors";
import { errorResponse } from "../../http/error-response";
import { ndjsonResponse } from "../../http/ndjson";
import { requireJsonContentType } from "../../http/request-body";
import { runWithModelWork } from "../../rag/embed/model-work";
import { refuseUnstorableText } from "../../storable-text";
import { researchUnavailableFor, researchUnavailableReason } from "../../llm/research-model";
import { corsHeaders, preflightResponse } from "../cors";
import { type ApiDeps, rateLimitHeaders, rateLimitedError, readJsonObject, requestOrigin, unauthorizedError } from "../handle-api-request";
import type { OperationContext } from "../operations";
import { research } from "./research-loop";
import { type ResearchRequest, researchCost, researchRequestSchema } from "./research-schemas";

/**
 * The two doors into research mode, both streaming NDJSON events (research-schemas.ts):
 * POST /api/v1/research with an API token (read scope, like every lookup), and POST
 * /api/research for the signed-in Ask panel. Both charge the rate limiter `researchCost` (a run
 * is many model turns and tool calls: well above ask's 5), validate `{question, scope?}`, and
 * answer 503 with the reason when no research model is configured. Research is not an operation
 * of the registry: it is no MCP tool (an agent does its own research with the tools).
 */
function unavailable(deps: ApiDeps, principal: Principal): AppError | null {
  if (deps.research?.available) return null;
  return new AppError("unavailable", researchUnavailableFor(principal, deps.research?.reason ?? researchUnavailableReason));
}

function parseResearchBody(body: Record<string, unknown>): ResearchRequest {
  refuseUnstorableText(body);
  const parsed = researchRequestSchema.safeParse(body);
  if (!parsed.success) throw new AppError("bad_request", "Some values are not valid.", { fieldErrors: zodFieldErrors(parsed.error.issues) });
  return parsed.data;
}

/** Runs the loop as a response; the client's going away (or the request's signal) aborts the run and the model's request. */
function researchResponse(
  deps: ApiDeps,
  context: OperationContext,
  input: ResearchRequest,
  request: Request,
  headers: Record<string, string>,
): Promise<Response> {
  const model = deps.research;
  if (!model?.available) throw unavailable(deps, context.principal)!;
  const controller = new AbortController();
  if (request.signal.aborted) controller.abort();
  else request.signal.addEventListener("abort", () => controller.abort(), { once: true });
  const events = research({ context, provider: model.provider, budgets: model.budgets, request: input, signal: controller.signal });
  const work = { priority: "interactive", signal: controller.signal } as const;
  return runWithModelWork(work, () => ndjsonResponse(events, headers, () => controller.abort()));
}

/** POST /api/v1/research: the token's user is the principal; errors are the API's JSON errors. */
export async function handleResearchRequest(request: Request, deps: ApiDeps): Promise<Response> {
  if (request.method === "OPTIONS") return preflightResponse(deps.cors, request, ["POST"]);
  const headers: Record<string, string> = { ...corsHeaders(deps.cors, request), "cache-control": "no-store" };
  try {
    if (request.method !== "POST") throw new AppError("method_not_allowed", "research is called with POST.", { headers: { allow: "POST, OPTIONS" } });
    const auth = await deps.authenticate(request.headers.get("authorization"));
    if (!auth) throw unauthorizedError();
    const refused = unavailable(deps, auth.principal);
    if (refused) throw refused;
    const decision = deps.limiter.take(auth.tokenId, researchCost);
    Object.assign(headers, rateLimitHeaders(decision));
    if (!decision.allowed) throw rateLimitedError(decision);
    // Every token has the read scope; research reads only.
    const input = parseResearchBody(await readJsonObject(request));
    const context: OperationContext = {
      runtime: deps.runtime,
      principal: auth.principal,
      origin: requestOrigin(request, deps.origin),
      via: { channel: "api", tokenId: auth.tokenId },
    };
    return await researchResponse(deps, context, input, request, headers);
  } catch (error) {
    const response = errorResponse(error);
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  }
}

/**
 * POST /api/research for the signed-in panel (the session wrapper has resolved `principal`):
 * links are relative, and the rate limit is the user's own bucket; the body must be sent as JSON
 * (415 otherwise, before the limiter is charged). Errors are thrown for the wrapper to answer.
 */
export async function handleResearchSession(request: Request, principal: Principal, deps: ApiDeps): Promise<Response> {
  const refused = unavailable(deps, principal);
  if (refused) throw refused;
  requireJsonContentType(request, "the question");
  const decision = deps.limiter.take(`session:${principal.userId}`, researchCost);
  if (!decision.allowed) throw rateLimitedError(decision);
  const input = parseResearchBody(await readJsonObject(request));
  return researchResponse(deps, { runtime: deps.runtime, principal, origin: "" }, input, request, rateLimitHeaders(decision));
}
