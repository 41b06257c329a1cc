import "server-only";
import type { z } from "zod";
import type { Principal } from "../acl";
import { getPrincipal } from "../auth/get-principal";
import type { ActionResult } from "../action-result";
import { runAuthorizedAction, runAuthorizedRoute } from "./run-authorized";

/**
 * The one wrapper every server action goes through: resolve the principal (no session, no
 * call), validate the input with zod, run the service, map errors to an ActionResult.
 */
export function authorizedAction<Schema extends z.ZodType, Output>(
  schema: Schema,
  handler: (input: z.output<Schema>, context: { principal: Principal }) => Promise<Output>,
): (input: z.input<Schema>) => Promise<ActionResult<Output>> {
  return (input) => runAuthorizedAction(schema, handler, getPrincipal, input);
}

type RouteContext<Params> = { params: Promise<Params> };

/**
 * The same for route handlers: principal, zod-validated params and query, JSON errors with the
 * status of the AppError code. Not-found and not-readable share one body.
 */
export function authorizedRoute<ParamsSchema extends z.ZodType>(
  paramsSchema: ParamsSchema,
  handler: (request: Request, context: { principal: Principal; params: z.output<ParamsSchema> }) => Promise<Response>,
) {
  return (request: Request, context: RouteContext<unknown>): Promise<Response> =>
    runAuthorizedRoute(paramsSchema, handler, getPrincipal, request, context.params);
}
