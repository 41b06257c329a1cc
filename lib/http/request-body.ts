import { NextRequest } from "next/server";
import { AppError } from "../errors";
import { errorResponse } from "./error-response";

/**
 * Request bodies, bounded. Every route handler has a limit: the JSON API, MCP and every route
 * through `authorizedRoute` (the ask route among them) `maxJsonBodyBytes`, Auth.js
 * `maxSignInBodyBytes`. A declared Content-Length over the limit is refused before anything is
 * read; a body without one (chunked) is read only until it passes the limit.
 */
export const maxJsonBodyBytes = 256 * 1024;
export const maxSignInBodyBytes = 16 * 1024;

export function bodyTooLarge(maxBytes: number): AppError {
  return new AppError("payload_too_large", `The request body can be at most ${maxBytes / 1024} KiB.`);
}

/** Refuses a request that declares a body over `maxBytes`, unread. */
export function refuseDeclaredBody(request: Request, maxBytes: number): void {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw bodyTooLarge(maxBytes);
}

/** The body as text, refused (413) as soon as it is over `maxBytes`. */
export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  refuseDeclaredBody(request, maxBytes);
  if (!request.body) return "";
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
  // As Request.text() decodes: UTF-8, a leading byte-order mark dropped.
  return new TextDecoder().decode(Buffer.concat(chunks));
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
