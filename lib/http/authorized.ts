import "server-only";
import type { z } from "zod";
import type { Principal } from "../acl";
import { getPrincipal } from "../auth/get-principal";
import { AppError, describeError, notFoundMessage } from "../errors";
import { errorResponse } from "./error-response";

export { errorResponse };
import { type ActionResult, zodFieldErrors } from "./action-result";

/**
 * The one wrapper every server action goes through: resolve the principal (no session, no
 * call), validate the input with zod, run the service, map errors to an ActionResult.
 */
export function authorizedAction<Schema extends z.ZodType, Output>(
  schema: Schema,
  handler: (input: z.output<Schema>, context: { principal: Principal }) => Promise<Output>,
): (input: z.input<Schema>) => Promise<ActionResult<Output>> {
  return async (input) => {
    try {
      const principal = await getPrincipal();
      if (!principal) throw new AppError("unauthorized", "Your session has ended. Sign in again.");
      const parsed = schema.safeParse(input);
      if (!parsed.success) {
        throw new AppError("bad_request", "Some values are not valid.", {
          fieldErrors: zodFieldErrors(parsed.error.issues),
        });
      }
      return { status: "ok", data: await handler(parsed.data, { principal }) };
    } catch (error) {
      if (isNextControlFlow(error)) throw error;
      return { status: "error", ...describeError(error) };
    }
  };
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
  return async (request: Request, context: RouteContext<unknown>): Promise<Response> => {
    try {
      const principal = await getPrincipal();
      if (!principal) throw new AppError("unauthorized", "Sign in to continue.");
      const parsed = paramsSchema.safeParse(await context.params);
      // A malformed id is answered like a missing one.
      if (!parsed.success) throw new AppError("not_found", notFoundMessage);
      return await handler(request, { principal, params: parsed.data });
    } catch (error) {
      return errorResponse(error);
    }
  };
}

// redirect() and notFound() throw special errors Next.js must see.
function isNextControlFlow(error: unknown): boolean {
  const digest = (error as { digest?: unknown } | null)?.digest;
  return typeof digest === "string" && (digest.startsWith("NEXT_REDIRECT") || digest.startsWith("NEXT_HTTP_ERROR_FALLBACK") || digest === "NEXT_NOT_FOUND");
}
