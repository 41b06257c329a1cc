import { NextRequest } from "next/server";
import { AppError } from "../errors";
import { formatBytes } from "../format";
import { errorResponse } from "./error-response";

/**
 * Request bodies, bounded. Every route handler has a limit: the JSON API, MCP and every route
 * through `authorizedRoute` (the ask route among them) `maxJsonBodyBytes` unless the route names
 * a larger one (imports: lib/http/import-upload.ts), Auth.js `maxSignInBodyBytes`. A declared Content-Length over the limit is refused before anything is
 * read; a body without one (chunked) is read only until it passes the limit.
 */
export const maxJsonBodyBytes = 256 * 1024;
export const maxSignInBodyBytes = 16 * 1024;

export function bodyTooLarge(maxBytes: number): AppError {
  const limit = maxBytes >= 1024 * 1024 ? formatBytes(maxBytes) : `${maxBytes / 1024} KiB`;
  return new AppError("payload_too_large", `The request body can be at most ${limit}.`);
}

/** Refuses a request that declares a body over `maxBytes`, unread. */
export function refuseDeclaredBody(request: Request, maxBytes: number): void {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw bodyTooLarge(maxBytes);
}

/** The body as text, refused (413) as soon as it is over `maxBytes`. */
export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  // As Request.text() decodes: UTF-8, a leading byte-order mark dropped.
  return new TextDecoder().decode(await readBodyBytes(request, maxBytes));
}

/** Whether a Content-Type names JSON: `application/json` or a `+json` type, with any parameters. */
export function isJsonContentType(value: string | null): boolean {
  const type = (value ?? "").split(";")[0]!.trim().toLowerCase();
  return type === "application/json" || /^application\/[a-z0-9.!#$&^_-]+\+json$/.test(type);
}

/**
 * Refuses (415) a body a JSON route is sent as anything else — text/plain, a form: those are the
 * types a page on another site may send without asking first (no CORS preflight), so a session
 * route that expects JSON takes JSON only. `what` names the body in the message.
 */
export function requireJsonContentType(request: Request, what: string): void {
  if (!isJsonContentType(request.headers.get("content-type"))) {
    throw new AppError("unsupported_media_type", `Send ${what} as JSON, with the header Content-Type: application/json.`);
  }
}

/** A JSON body (415 unless sent as JSON), read bounded like `readBodyText` and parsed (400 if it is not JSON). */
export async function readJsonBody(request: Request, maxBytes: number, what: string): Promise<unknown> {
  requireJsonContentType(request, what);
  const text = await readBodyText(request, maxBytes);
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("bad_request", `Send ${what} as JSON.`);
  }
}

/**
 * A multipart or urlencoded form body, read bounded (413 past `maxBytes`) before it is parsed:
 * `request.formData()` alone would read a body sent without a length to its end.
 */
export async function readFormData(request: Request, maxBytes: number): Promise<FormData> {
  const bytes = await readBodyBytes(request, maxBytes);
  try {
    return await new Response(bytes, { headers: { "content-type": request.headers.get("content-type") ?? "" } }).formData();
  } catch {
    throw new AppError("bad_request", "Send the input as a form (multipart/form-data).");
  }
}

/** The body's bytes, refused (413) as soon as they are over `maxBytes`. */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  refuseDeclaredBody(request, maxBytes);
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received += value.byteLength;
      if (received > maxBytes) {
        await reader.cancel();
        throw bodyTooLarge(maxBytes);
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  return new Uint8Array(Buffer.concat(chunks));
}

/**
 * A route handler whose body is read here, bounded, before the handler sees it (for handlers
 * that read bodies themselves, such as Auth.js's): over `maxBytes` is a 413.
 */
export function withBodyLimit(maxBytes: number, handler: (request: NextRequest) => Promise<Response>): (request: NextRequest) => Promise<Response> {
  return async (request) => {
    let body: string;
    try {
      body = await readBodyText(request, maxBytes);
    } catch (error) {
      return errorResponse(error);
    }
    return handler(new NextRequest(request, { body }));
  };
}
