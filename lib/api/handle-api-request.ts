import "server-only";
import type { z } from "zod";
import type { AuthenticatedToken } from "../auth/api-tokens";
import type { ResearchModel } from "../llm/research-model";
import { AppError, notFound } from "../errors";
import { zodFieldErrors } from "../action-result";
import { errorResponse } from "../http/error-response";
import { ndjsonResponse } from "../http/ndjson";
import { runWithModelWork } from "../rag/embed/model-work";
import { maxJsonBodyBytes, readBodyText } from "../http/request-body";
import { refuseUnstorableText, unstorableTextProblem } from "../storable-text";
import { type CorsPolicy, corsHeaders, preflightResponse } from "./cors";
import type { ApiOperation, ApiRuntime } from "./operations";
import type { RateLimitDecision, RateLimiter } from "../rate-limit";

/**
 * One agent API call over HTTP: method, bearer token (the token's user is the principal; no
 * cookie is ever read), rate limit, input (path parameters with the query string or the JSON
 * body) validated by the operation's schema, the operation, and its output parsed through the
 * output schema. Every error is JSON `{error: {code, message, fieldErrors?}}` with its status;
 * a record the token's user may not read is the same 404 as one that does not exist. A token
 * without the operation's scope is refused (403 `insufficient_scope`) before its input is read,
 * so the refusal is the same whatever the call aims at.
 */
export interface ApiDeps {
  runtime: ApiRuntime;
  limiter: RateLimiter;
  cors: CorsPolicy;
  authenticate(authorization: string | null): Promise<AuthenticatedToken | null>;
  /** Prefix for links in results; the request's own origin when absent. */
  origin?: string;
  /** MNEMO_MCP_ALLOW_WRITE: MCP lists the write operations as tools for write tokens (off when absent). */
  mcpAllowWrite?: boolean;
  /** Research mode's model and budgets (MNEMO_RESEARCH_*); unavailable when absent. */
  research?: ResearchModel;
}

export const unauthorizedMessage =
  "Send a valid API token as `Authorization: Bearer mnemo_…`. Tokens that expired or were revoked are refused; create one at /account/tokens.";

export function unauthorizedError(): AppError {
  return new AppError("unauthorized", unauthorizedMessage, { headers: { "www-authenticate": 'Bearer realm="mnemo"' } });
}

export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  return { "ratelimit-limit": String(decision.limit), "ratelimit-remaining": String(Math.max(0, decision.remaining)) };
}

export function rateLimitedError(decision: RateLimitDecision): AppError {
  return new AppError("rate_limited", `Too many requests with this token. Try again in ${decision.retryAfterSeconds} s.`, {
    retryAfterSeconds: decision.retryAfterSeconds,
  });
}

/**
 * The refusal of a call whose token lacks `scope` (RFC 6750's insufficient_scope). It names the
 * operation and the scope, nothing about the target, so it cannot tell what exists.
 */
export function insufficientScopeError(operation: { name: string; scope: string }): AppError {
  return new AppError(
    "insufficient_scope",
    `${operation.name} needs a token with the ${operation.scope} scope, and this token does not have it. Create a token with read and write access at /account/tokens.`,
    { headers: { "www-authenticate": `Bearer realm="mnemo", error="insufficient_scope", scope="${operation.scope}"` } },
  );
}

/** Reads a JSON object body, bounded (256 KiB unless the operation allows more); an empty body is an empty object. */
export async function readJsonObject(request: Request, maxBytes = maxJsonBodyBytes): Promise<Record<string, unknown>> {
  const text = await readBodyText(request, maxBytes);
  if (text.trim() === "") return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AppError("bad_request", "The request body is not valid JSON; send the input as a JSON object.");
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) throw new AppError("bad_request", "Send the input as a JSON object.");
  return body as Record<string, unknown>;
}

function queryObject(url: URL): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const all = url.searchParams.getAll(key);
    values[key] = all.length === 1 ? all[0] : all;
  }
  return values;
}

function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

/**
 * Where links in results point: AUTH_URL's origin when configured, else the host the client
 * called (behind a proxy, its forwarded host and protocol), so links work from the caller's side.
 */
export function requestOrigin(request: Request, configured?: string): string {
  if (configured) return configured;
  const url = new URL(request.url);
  const host = (request.headers.get("x-forwarded-host") ?? request.headers.get("host") ?? "").split(",")[0]!.trim();
  const protocol = (request.headers.get("x-forwarded-proto") ?? url.protocol.replace(/:$/, "")).split(",")[0]!.trim();
  if (!/^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-fA-F:.]+\](:\d{1,5})?$/.test(host) || !/^https?$/.test(protocol)) return url.origin;
  return `${protocol}://${host}`;
}

/** Where links to records point for a route handler: AUTH_URL's origin when configured, else the called host. */
export function linkOrigin(request: Request, config: { AUTH_URL?: string }): string {
  return requestOrigin(request, config.AUTH_URL ? new URL(config.AUTH_URL).origin : undefined);
}

export async function handleApiRequest<Input extends z.ZodObject, Output extends z.ZodObject>(
  operation: ApiOperation<Input, Output>,
  request: Request,
  pathParams: Record<string, string>,
  deps: ApiDeps,
): Promise<Response> {
  if (request.method === "OPTIONS") return preflightResponse(deps.cors, request, [operation.method]);
  const headers: Record<string, string> = { ...corsHeaders(deps.cors, request), "cache-control": "no-store" };
  try {
    if (request.method !== operation.method) {
      throw new AppError("method_not_allowed", `${operation.name} is called with ${operation.method}.`, { headers: { allow: `${operation.method}, OPTIONS` } });
    }
    const auth = await deps.authenticate(request.headers.get("authorization"));
    if (!auth) throw unauthorizedError();
    const decision = deps.limiter.take(auth.tokenId, operation.cost);
    Object.assign(headers, rateLimitHeaders(decision));
    if (!decision.allowed) throw rateLimitedError(decision);
    if (!auth.scopes.includes(operation.scope)) throw insufficientScopeError(operation);

    const raw = operation.method === "GET" ? queryObject(new URL(request.url)) : await readJsonObject(request, operation.maxBodyBytes?.() ?? maxJsonBodyBytes);
    // Before the path parameters join: a malformed id in the path stays a 404, like a missing record.
    refuseUnstorableText(raw);
    for (const name of operation.pathParams) {
      if (name in raw) throw new AppError("bad_request", `${name} is part of the path; do not send it again.`);
      // An id the database cannot even hold (NUL: /sections/%00/…) names nothing: not found.
      if (unstorableTextProblem(pathParams[name] ?? "")) throw notFound();
      raw[name] = pathParams[name];
    }
    const parsed = operation.input.safeParse(raw);
    if (!parsed.success) {
      // A malformed id in the path is answered like a missing record.
      const pathIssue = parsed.error.issues.find((issue) => operation.pathParams.includes(String(issue.path[0])));
      if (pathIssue) throw new AppError("not_found", "Not found.");
      throw new AppError("bad_request", "Some values are not valid.", { fieldErrors: zodFieldErrors(parsed.error.issues) });
    }
    const context = {
      runtime: deps.runtime,
      principal: auth.principal,
      origin: requestOrigin(request, deps.origin),
      via: { channel: "api", tokenId: auth.tokenId } as const,
    };
    const input = parsed.data as z.output<Input> & { stream?: boolean };
    // Model work of the call goes before the index worker's and is dropped while queued if the client goes away.
    const work = { priority: "interactive", signal: request.signal } as const;
    if (operation.stream && input.stream === true) return await runWithModelWork(work, () => ndjsonResponse(operation.stream!(input, context), headers));
    const output = operation.output.parse(await runWithModelWork(work, () => operation.run(input, context)));
    return new Response(JSON.stringify(output), { status: 200, headers: { ...headers, "content-type": "application/json; charset=utf-8" } });
  } catch (error) {
    return withHeaders(errorResponse(error), headers);
  }
}

/**
 * One path that several operations share, by method (GET /records/{id} reads, PATCH updates): the
 * operation of the request's method runs; OPTIONS names every method; any other is a 405 that
 * lists them.
 */
export async function handleApiPath(
  pathOperations: readonly ApiOperation[],
  request: Request,
  pathParams: Record<string, string>,
  deps: ApiDeps,
): Promise<Response> {
  if (pathOperations.length === 1) return handleApiRequest(pathOperations[0]!, request, pathParams, deps);
  const methods = pathOperations.map((operation) => operation.method);
  if (request.method === "OPTIONS") return preflightResponse(deps.cors, request, methods);
  const operation = pathOperations.find((candidate) => candidate.method === request.method);
  if (operation) return handleApiRequest(operation, request, pathParams, deps);
  const error = new AppError("method_not_allowed", `This path is called with ${methods.join(" or ")}.`, {
    headers: { allow: `${methods.join(", ")}, OPTIONS` },
  });
  return withHeaders(errorResponse(error), { ...corsHeaders(deps.cors, request), "cache-control": "no-store" });
}

/** Any path under /api/v1 that names no operation. */
export function unknownEndpointResponse(request: Request, cors: CorsPolicy): Response {
  const error = new AppError("not_found", "There is no such endpoint. The API is described at /api/v1/openapi.json.");
  return withHeaders(errorResponse(error), { ...corsHeaders(cors, request), "cache-control": "no-store" });
}
