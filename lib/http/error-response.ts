import { AppError, describeError, statusByCode } from "../errors";

/** Any error as the JSON body `{error: {code, message, fieldErrors?}}` with its status and headers. */
export function errorResponse(error: unknown): Response {
  const described = describeError(error);
  const headers: Record<string, string> = { "content-type": "application/json", "cache-control": "no-store" };
  if (error instanceof AppError) {
    Object.assign(headers, error.headers);
    if (error.retryAfterSeconds) headers["retry-after"] = String(error.retryAfterSeconds);
  }
  return new Response(JSON.stringify({ error: described }), { status: statusByCode[described.code], headers });
}
