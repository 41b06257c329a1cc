import "server-only";
import { authenticateApiTokenWithId } from "../auth/api-tokens";
import { getDatabase } from "../db";
import { errorResponse } from "../http/error-response";
import { getAskContext } from "../rag/ask/ask-context";
import { getObjectsRuntime } from "../rag/objects/objects-runtime";
import { getSearchContext } from "../rag/search/search-context";
import { type CorsPolicy, corsFromEnv } from "./cors";
import type { Principal } from "../acl";
import { type ApiDeps, handleApiRequest, rateLimitHeaders, rateLimitedError, unauthorizedError, unknownEndpointResponse } from "./handle-api-request";
import { corsHeaders } from "./cors";
import { handleMcpRequest } from "./mcp-server";
import { type ApiOperation, operationNamed } from "./operations";
import { type RateLimiter, createRateLimiter, rateLimitFromEnv } from "./rate-limit";

/**
 * The web process's agent API: its database, the search, ask and objects contexts the pages
 * use, one rate limiter for the process, and CORS from the environment. Route files under
 * app/api/v1 and app/api/mcp are one line each on top of this.
 */
const globalForApi = globalThis as unknown as { mnemoApi?: { limiter: RateLimiter; cors: CorsPolicy } };

function processState() {
  globalForApi.mnemoApi ??= { limiter: createRateLimiter(rateLimitFromEnv(process.env)), cors: corsFromEnv(process.env) };
  return globalForApi.mnemoApi;
}

export async function getApiDeps(): Promise<ApiDeps> {
  const { prisma } = await getDatabase();
  const { limiter, cors } = processState();
  return {
    runtime: { prisma, search: getSearchContext, ask: getAskContext, objects: getObjectsRuntime },
    limiter,
    cors,
    authenticate: (authorization) => authenticateApiTokenWithId(prisma, authorization),
    origin: process.env.AUTH_URL ? new URL(process.env.AUTH_URL).origin : undefined,
  };
}

type RouteContext = { params: Promise<Record<string, string | string[]>> };
type Handler = (request: Request, context: RouteContext) => Promise<Response>;

async function guarded(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    return errorResponse(error);
  }
}

/** Every method of one operation's route: its own method runs it, OPTIONS answers CORS, the rest 405. */
export function apiRoute(name: string): Record<"GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS", Handler> {
  const operation = operationNamed(name) as unknown as ApiOperation;
  const handler: Handler = (request, context) =>
    guarded(async () => {
      const params = Object.fromEntries(Object.entries((await context?.params) ?? {}).map(([key, value]) => [key, Array.isArray(value) ? value.join("/") : value]));
      return handleApiRequest(operation, request, params, await getApiDeps());
    });
  return { GET: handler, POST: handler, PUT: handler, PATCH: handler, DELETE: handler, OPTIONS: handler };
}

export function mcpRoute(): Record<"GET" | "POST" | "DELETE" | "OPTIONS", (request: Request) => Promise<Response>> {
  const handler = (request: Request) => guarded(async () => handleMcpRequest(request, await getApiDeps()));
  return { GET: handler, POST: handler, DELETE: handler, OPTIONS: handler };
}

export function unknownApiRoute(): Record<"GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS", (request: Request) => Promise<Response>> {
  const handler = async (request: Request) => unknownEndpointResponse(request, processState().cors);
  return { GET: handler, POST: handler, PUT: handler, PATCH: handler, DELETE: handler, OPTIONS: handler };
}

/**
 * For routes outside /api/v1 that also serve agents (media files): the bearer token's user, rate
 * limit and CORS as in the API, then `handler`; errors as JSON.
 */
export async function withApiToken(request: Request, handler: (principal: Principal) => Promise<Response>): Promise<Response> {
  const headers: Record<string, string> = { ...corsHeaders(processState().cors, request) };
  const finish = (response: Response) => {
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  };
  try {
    const apiDeps = await getApiDeps();
    const auth = await apiDeps.authenticate(request.headers.get("authorization"));
    if (!auth) throw unauthorizedError();
    const decision = apiDeps.limiter.take(auth.tokenId, 1);
    Object.assign(headers, rateLimitHeaders(decision));
    if (!decision.allowed) throw rateLimitedError(decision);
    return finish(await handler(auth.principal));
  } catch (error) {
    return finish(errorResponse(error));
  }
}
