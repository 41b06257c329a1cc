import { AppError } from "../errors";

/**
 * Paths no route can take. A segment whose percent-escapes are not UTF-8 (`%FF`, an encoded
 * surrogate such as `%ED%A0%80`) makes Next.js's own parameter decoding throw before any route
 * runs — a plain-text 500 — and a NUL (`%00`) or an unpaired surrogate reaches the handlers as
 * text PostgreSQL refuses. `proxy.ts` sees the raw, undecoded path before routing and answers
 * such a path itself: 400 with the JSON error under /api/, /iiif/ and /oai, the not-found page
 * elsewhere. The route wrapper (`runAuthorizedRoute`) refuses such parameters again as not found,
 * for a server run without the proxy.
 */
export function isUnreadablePath(rawPathname: string): boolean {
  for (const segment of rawPathname.split("/")) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return true;
    }
    if (decoded.includes("\u0000") || !decoded.isWellFormed()) return true;
  }
  return false;
}

/** Where a path belongs to the routes that answer JSON (or XML) rather than pages: the paths the proxy's page matcher leaves out. */
export function isDataPath(pathname: string): boolean {
  return /^\/(?:api\/|iiif\/|oai)/.test(pathname);
}

export function unreadablePathError(): AppError {
  return new AppError("bad_request", "This address cannot be read: part of it is not valid UTF-8 text or holds a NUL character. Check the link.");
}
