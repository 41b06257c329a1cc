import type { z } from "zod";

/**
 * The one error type services throw. Route handlers and server actions map it to a status and
 * a message a person can act on; anything else is logged and shown as a generic failure.
 */
export const statusByCode = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  /** An API token without the scope an operation needs (write, for an import): never depends on the target. */
  insufficient_scope: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  range_not_satisfiable: 416,
  rate_limited: 429,
  internal: 500,
  /** A valid request for something the server does not offer (a IIIF rotation or format it does not render). */
  not_implemented: 501,
  unavailable: 503,
} as const;

export type AppErrorCode = keyof typeof statusByCode;

export type FieldErrors = Record<string, string[]>;

export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly fieldErrors?: FieldErrors;
  readonly retryAfterSeconds?: number;
  /** Extra response headers for HTTP callers, e.g. Content-Range on a 416. */
  readonly headers?: Record<string, string>;

  constructor(
    code: AppErrorCode,
    message: string,
    options: { fieldErrors?: FieldErrors; retryAfterSeconds?: number; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.fieldErrors = options.fieldErrors;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.headers = options.headers;
  }

  get status(): number {
    return statusByCode[this.code];
  }
}

/** The message every unreadable and every missing record gets: the two must not differ. */
export const notFoundMessage = "Not found.";

export function notFound(): AppError {
  return new AppError("not_found", notFoundMessage);
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/**
 * The client went away (an aborted fetch or stream, its AbortSignal's reason) or the model work
 * it queued was dropped for that reason (ModelJobCancelledError, lib/rag/embed/model-pool.ts):
 * nobody reads the answer, and nothing went wrong on the server. Known by name, so this module
 * needs nothing from the layers above.
 */
export function isCancellation(error: unknown): boolean {
  if (!(error instanceof Error) && !(typeof DOMException !== "undefined" && error instanceof DOMException)) return false;
  const { name } = error as { name: string };
  return name === "AbortError" || name === "ModelJobCancelledError" || name === "ResponseAborted";
}

/** Says a cancellation in the log as what it is: one line at info level, never "unexpected error". */
export function logCancellation(what: string, cause?: unknown): void {
  const detail = cause instanceof Error ? ` (${cause.name})` : "";
  console.info(`[mnemo] ${what} cancelled: the client went away${detail}`);
}

/** A plain, serialisable description of any error, safe to send to a client. */
export function describeError(error: unknown): {
  code: AppErrorCode;
  message: string;
  fieldErrors?: FieldErrors;
} {
  if (isCancellation(error)) {
    logCancellation("a request", error);
    return { code: "unavailable", message: "The request was cancelled." };
  }
  if (isAppError(error)) {
    return { code: error.code, message: error.message, fieldErrors: error.fieldErrors };
  }
  console.error("[mnemo] unexpected error", error);
  return { code: "internal", message: "Something went wrong on the server. Please try again." };
}

/** Zod issues as field errors: each message under its dotted path, "_form" for the whole input. */
export function zodFieldErrors(issues: readonly { path: PropertyKey[]; message: string }[]): FieldErrors {
  const fieldErrors: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join(".") || "_form";
    (fieldErrors[key] ??= []).push(issue.message);
  }
  return fieldErrors;
}

/**
 * Validates input at a service's boundary: the parsed value, or a bad_request AppError whose
 * message is every issue's message and whose field errors name the fields (`fieldErrors: false`
 * leaves them out; `message` words the message from the issues instead).
 */
export function parseInput<T extends z.ZodType>(
  schema: T,
  input: unknown,
  options: { fieldErrors?: boolean; message?: (issues: z.core.$ZodIssue[]) => string } = {},
): z.output<T> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const { issues } = parsed.error;
  const message = options.message ? options.message(issues) : issues.map((issue) => issue.message).join(" ");
  throw new AppError("bad_request", message, options.fieldErrors === false ? {} : { fieldErrors: zodFieldErrors(issues) });
}
