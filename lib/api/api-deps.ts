import "server-only";
import { authenticateApiTokenWithId } from "../auth/api-tokens";
import { getConfig } from "../config";
import { errorResponse } from "../http/error-response";
import { type Runtime, getRuntime } from "../runtime";
import { type CorsPolicy, corsFromConfig } from "./cors";
import type { Principal } from "../acl";
import { z } from "zod";
import { parseRouteParams } from "../http/run-authorized";
import { personEacCpfResponse, projectEad3Response } from "../http/finding-aid-download";
import { type ApiDeps, handleApiPath, linkOrigin, rateLimitHeaders, rateLimitedError, unauthorizedError, unknownEndpointResponse } from "./handle-api-request";
import { corsHeaders } from "./cors";
import { handleMcpRequest } from "./mcp-server";
import { researchModelFromConfig } from "../llm/research-model";
import { handleResearchRequest } from "./research/research-request";
import { type ApiOperation, operationNamed } from "./operations";

/**
 * The web process's agent API over its runtime (lib/runtime.ts): the database, the search, ask
 * and objects contexts the pages use, the process's rate limiter, and CORS from the
 * configuration. Route files under app/api/v1 and app/api/mcp are one line each on top of this.
 */
function processCors(): CorsPolicy {
  return corsFromConfig(getConfig());
}

export async function getApiDeps(): Promise<ApiDeps> {
  return apiDepsOver(await getRuntime());
}

/** The agent API's dependencies over a runtime (also what the session's research route runs on). */
export function apiDepsOver(runtime: Runtime): ApiDeps {
  const { prisma } = runtime.database;
  return {
    runtime: {
      prisma,
      search: runtime.search,
      ask: runtime.ask,
      objects: runtime.objects,
      media: { storageDir: runtime.config.storageDir, maxBytes: runtime.config.MAX_UPLOAD_BYTES },
    },
    limiter: runtime.limiter,
    cors: processCors(),
    authenticate: (authorization) => authenticateApiTokenWithId(prisma, authorization),
    origin: runtime.config.AUTH_URL ? new URL(runtime.config.AUTH_URL).origin : undefined,
    mcpAllowWrite: runtime.config.MNEMO_MCP_ALLOW_WRITE,
    research: researchModelFromConfig(runtime.config),
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

/** Every method of the route of one operation (or of several sharing a path): each operation's method runs it, OPTIONS answers CORS, the rest 405. */
export function apiRoute(...names: [string, ...string[]]): Record<"GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS", Handler> {
  const pathOperations = names.map((name) => operationNamed(name) as unknown as ApiOperation);
  const handler: Handler = (request, context) =>
    guarded(async () => {
      const params = Object.fromEntries(
        Object.entries((await context?.params) ?? {}).map(([key, value]) => [key, Array.isArray(value) ? value.join("/") : value]),
      );
      return handleApiPath(pathOperations, request, params, await getApiDeps());
    });
  return { GET: handler, POST: handler, PUT: handler, PATCH: handler, DELETE: handler, OPTIONS: handler };
}

/** POST /api/v1/research: research mode over the token API (not an operation: see research-request.ts). */
export function researchRoute(): Record<"GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS", (request: Request) => Promise<Response>> {
  const handler = (request: Request) => guarded(async () => handleResearchRequest(request, await getApiDeps()));
  return { GET: handler, POST: handler, PUT: handler, PATCH: handler, DELETE: handler, OPTIONS: handler };
}

export function mcpRoute(): Record<"GET" | "POST" | "DELETE" | "OPTIONS", (request: Request) => Promise<Response>> {
  const handler = (request: Request) => guarded(async () => handleMcpRequest(request, await getApiDeps()));
  return { GET: handler, POST: handler, DELETE: handler, OPTIONS: handler };
}

export function unknownApiRoute(): Record<"GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS", (request: Request) => Promise<Response>> {
  const handler = async (request: Request) => unknownEndpointResponse(request, processCors());
  return { GET: handler, POST: handler, PUT: handler, PATCH: handler, DELETE: handler, OPTIONS: handler };
}

/**
 * For routes outside /api/v1 that also serve agents (media files): the bearer token's user, rate
 * limit and CORS as in the API, then `handler`; errors as JSON.
 */
export async function withApiToken(request: Request, handler: (context: { principal: Principal; runtime: Runtime }) => Promise<Response>): Promise<Response> {
  const headers: Record<string, string> = { ...corsHeaders(processCors(), request) };
  const finish = (response: Response) => {
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  };
  try {
    const runtime = await getRuntime();
    const apiDeps = apiDepsOver(runtime);
    const auth = await apiDeps.authenticate(request.headers.get("authorization"));
    if (!auth) throw unauthorizedError();
    const decision = apiDeps.limiter.take(auth.tokenId, 1);
    Object.assign(headers, rateLimitHeaders(decision));
    if (!decision.allowed) throw rateLimitedError(decision);
    return finish(await handler({ principal: auth.principal, runtime }));
  } catch (error) {
    return finish(errorResponse(error));
  }
}

/**
 * A route under /api/v1 that answers a file rather than an operation's JSON: the bearer token's
 * user, rate limit and CORS as in the API (withApiToken), the path parameters through their
 * schema (malformed: not found, like missing), then the handler. Every token has the read scope
 * these routes need.
 */
function fileRoute<ParamsSchema extends z.ZodType>(
  paramsSchema: ParamsSchema,
  handler: (request: Request, context: { principal: Principal; runtime: Runtime; params: z.output<ParamsSchema> }) => Promise<Response>,
) {
  return (request: Request, context: RouteContext): Promise<Response> =>
    withApiToken(request, async ({ principal, runtime }) =>
      handler(request, { principal, runtime, params: parseRouteParams(paramsSchema, await context.params) }),
    );
}

/** GET /api/v1/projects/{slug}/ead3: the project as an EAD3 finding aid, as the token's user may read it. */
export function projectEad3Route() {
  return {
    GET: fileRoute(z.object({ slug: z.string().max(200) }), async (request, { principal, runtime, params }) =>
      projectEad3Response(runtime.database.prisma, principal, request, {
        slug: params.slug,
        origin: linkOrigin(request, runtime.config),
        agency: runtime.config.MNEMO_OAI_REPOSITORY_NAME,
      }),
    ),
  };
}

/** GET /api/v1/records/{recordId}/eac-cpf: a person as an EAC-CPF record, as the token's user may read it. */
export function personEacCpfRoute() {
  return {
    GET: fileRoute(z.object({ recordId: z.string().max(100) }), async (request, { principal, runtime, params }) =>
      personEacCpfResponse(runtime.database.prisma, principal, {
        id: params.recordId,
        origin: linkOrigin(request, runtime.config),
        agency: runtime.config.MNEMO_OAI_REPOSITORY_NAME,
      }),
    ),
  };
}
