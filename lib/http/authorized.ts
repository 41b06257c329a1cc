import "server-only";
import type { z } from "zod";
import type { Principal } from "../acl";
import { getPrincipal, requirePrincipal } from "../auth/get-principal";
import type { ActionResult } from "../action-result";
import { type Runtime, getRuntime } from "../runtime";
import { runAuthorizedAction, runAuthorizedRoute } from "./run-authorized";

/** What a wrapped action, route or page works with: who asks, and the process's runtime in the active index space. */
export interface AuthorizedContext {
  principal: Principal;
  runtime: Runtime;
}

/**
 * The one wrapper every server action goes through: resolve the principal (no session, no
 * call), validate the input with zod, run the service with the runtime, map errors to an
 * ActionResult.
 */
export function authorizedAction<Schema extends z.ZodType, Output>(
  schema: Schema,
  handler: (input: z.output<Schema>, context: AuthorizedContext) => Promise<Output>,
): (input: z.input<Schema>) => Promise<ActionResult<Output>> {
  return (input) =>
    runAuthorizedAction(schema, async (parsed, { principal }) => handler(parsed, { principal, runtime: await getRuntime() }), getPrincipal, input);
}

type RouteContext<Params> = { params: Promise<Params> };

/**
 * The same for route handlers: principal, zod-validated params and query, the runtime, JSON
 * errors with the status of the AppError code. Not-found and not-readable share one body. A
 * route that takes a larger body than the JSON limit (256 KiB) names it in `options`.
 */
export function authorizedRoute<ParamsSchema extends z.ZodType>(
  paramsSchema: ParamsSchema,
  handler: (request: Request, context: AuthorizedContext & { params: z.output<ParamsSchema> }) => Promise<Response>,
  options: { maxBodyBytes?: () => number } = {},
) {
  return (request: Request, context: RouteContext<unknown>): Promise<Response> =>
    runAuthorizedRoute(
      paramsSchema,
      async (incoming, { principal, params }) => handler(incoming, { principal, params, runtime: await getRuntime() }),
      getPrincipal,
      request,
      context.params,
      options.maxBodyBytes?.(),
    );
}

/**
 * The same for server pages: the signed-in principal (without a session, off to sign-in and
 * back to `returnTo`) and the runtime. The page decides what it shows; services decide access.
 */
export async function authorizedPage(returnTo: string): Promise<AuthorizedContext> {
  const principal = await requirePrincipal(returnTo);
  return { principal, runtime: await getRuntime() };
}
