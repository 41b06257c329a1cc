import type { z } from "zod";
import type { Principal } from "../acl";
import { AppError, describeError, notFoundMessage } from "../errors";
import { type ActionResult, zodFieldErrors } from "../action-result";
import { errorResponse } from "./error-response";
import { maxJsonBodyBytes, refuseDeclaredBody } from "./request-body";
import { refuseUnstorableText, unstorableTextProblem } from "../storable-text";
import { refuseCrossSiteCookieWrite } from "./cross-site";
import { runWithModelWork } from "../rag/embed/model-work";

/**
 * The steps of the authorised wrappers (lib/http/authorized.ts) with the principal's source
 * passed in, so tests run exactly what every server action and route handler runs.
 */
export type ResolvePrincipal = () => Promise<Principal | null>;

/** Principal (none: refused), text the database cannot store (refused, by field), zod, the service, errors → ActionResult. */
export async function runAuthorizedAction<Schema extends z.ZodType, Output>(
  schema: Schema,
  handler: (input: z.output<Schema>, context: { principal: Principal }) => Promise<Output>,
  resolvePrincipal: ResolvePrincipal,
  input: z.input<Schema>,
): Promise<ActionResult<Output>> {
  try {
    const principal = await resolvePrincipal();
    if (!principal) throw new AppError("unauthorized", "Your session has ended. Sign in again.");
    refuseUnstorableText(input);
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
}

/**
 * The cross-site rule (a write that carries the session cookie from another site: 403,
 * lib/http/cross-site.ts), body limit (a declared body over 256 KiB, or the route's own larger
 * limit, is refused unread; a route that reads its body reads it with `readBodyText`/`readFormData`
 * and the same limit, which also stops one sent without a length), principal, zod-validated params
 * (malformed: not found, like missing), the handler, errors → JSON.
 */
export async function runAuthorizedRoute<ParamsSchema extends z.ZodType>(
  paramsSchema: ParamsSchema,
  handler: (request: Request, context: { principal: Principal; params: z.output<ParamsSchema> }) => Promise<Response>,
  resolvePrincipal: ResolvePrincipal,
  request: Request,
  /** The route's params, or the promise of them Next.js passes. */
  params: unknown,
  maxBodyBytes: number = maxJsonBodyBytes,
): Promise<Response> {
  try {
    refuseCrossSiteCookieWrite(request);
    refuseDeclaredBody(request, maxBodyBytes);
    const principal = await resolvePrincipal();
    if (!principal) throw new AppError("unauthorized", "Sign in to continue.");
    const parsed = parseRouteParams(paramsSchema, await params);
    // Model work the handler starts is a request's (before the index worker's) and is dropped while queued if the client goes away.
    return await runWithModelWork({ priority: "interactive", signal: request.signal }, () => handler(request, { principal, params: parsed }));
  } catch (error) {
    return errorResponse(error);
  }
}

/**
 * A route's path parameters through its schema. A parameter holding NUL or half of a character
 * (text the database cannot hold) is not found, like a malformed or missing one, whatever the
 * schema says: proxy.ts answers such paths before routing, and this holds without it.
 */
export function parseRouteParams<Schema extends z.ZodType>(schema: Schema, params: unknown): z.output<Schema> {
  const values = params !== null && typeof params === "object" ? Object.values(params).flat() : [];
  if (values.some((value) => typeof value === "string" && unstorableTextProblem(value) !== null)) throw new AppError("not_found", notFoundMessage);
  const parsed = schema.safeParse(params);
  if (!parsed.success) throw new AppError("not_found", notFoundMessage);
  return parsed.data;
}

// redirect() and notFound() throw special errors Next.js must see.
export function isNextControlFlow(error: unknown): boolean {
  const digest = (error as { digest?: unknown } | null)?.digest;
  return typeof digest === "string" && (digest.startsWith("NEXT_REDIRECT") || digest.startsWith("NEXT_HTTP_ERROR_FALLBACK") || digest === "NEXT_NOT_FOUND");
}
