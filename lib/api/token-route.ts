import "server-only";
import type { z } from "zod";
import type { Principal } from "../acl";
import { parseRouteParams } from "../http/run-authorized";
import type { Runtime } from "../runtime";
import { withApiToken } from "./api-deps";

type RouteContext = { params: Promise<unknown> };

/**
 * A route under /api/v1 that answers a file rather than an operation's JSON (the EAD3 and EAC-CPF
 * exports): the bearer token's user, rate limit and CORS as in the API (withApiToken), the path
 * parameters through their schema (malformed: not found, like missing), then the handler. Every
 * token has the read scope these routes need.
 */
export function tokenRoute<ParamsSchema extends z.ZodType>(
  paramsSchema: ParamsSchema,
  handler: (request: Request, context: { principal: Principal; runtime: Runtime; params: z.output<ParamsSchema> }) => Promise<Response>,
) {
  return (request: Request, context: RouteContext): Promise<Response> =>
    withApiToken(request, async ({ principal, runtime }) => handler(request, { principal, runtime, params: parseRouteParams(paramsSchema, await context.params) }));
}
