import { type NextRequest, NextResponse } from "next/server";
import { getConfig } from "@/lib/config";
import { crossSiteError, isCrossSiteWrite, sessionCookieName } from "@/lib/http/cross-site";
import { errorResponse } from "@/lib/http/error-response";
import { isDataPath, isUnreadablePath, unreadablePathError } from "@/lib/http/request-path";
import { createNonce, pageContentSecurityPolicy } from "@/lib/http/security-headers";

/**
 * Runs before routing, on the raw (undecoded) path, for every page and for every path under
 * /api/, /iiif/ and /oai that holds a percent-escape (see `config`):
 * - a path that cannot be decoded as UTF-8 or holds NUL (lib/http/request-path.ts) gets the JSON
 *   400 under /api/, /iiif/ and /oai and for a page write, the not-found page (404) for a page
 *   read, where Next.js would answer a plain-text 500; any other /api/, /iiif/ or /oai request
 *   passes untouched (its route answers 401 JSON and applies the cross-site rule itself,
 *   lib/http/run-authorized.ts);
 * - refuses a page write — a server action — sent from another site (lib/http/cross-site.ts)
 *   with a 403, where Next.js would answer 500;
 * - gives the page a Content-Security-Policy with a fresh nonce. The request carries the policy
 *   too, which is how Next.js learns the nonce and puts it on its own scripts; every page is
 *   rendered per request (the root layout is force-dynamic), so no cached page holds a stale one.
 * - sends visitors without a session cookie to sign-in with a real redirect before any page
 *   starts streaming. This is a courtesy, not the security boundary: every page, action and
 *   route handler still resolves and checks the principal itself.
 */
const openPaths = /^\/sign-in(\/|$)/;

/** Where an unreadable page path is rewritten: app/ never routes a folder whose name starts with `_`, so this is the not-found page. */
export const unreadablePathPage = "/_unreadable-path";

export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  const dataPath = isDataPath(pathname);
  const unreadable = isUnreadablePath(pathname);
  if (unreadable && (dataPath || (request.method !== "GET" && request.method !== "HEAD"))) return errorResponse(unreadablePathError());
  if (dataPath) return NextResponse.next();
  if (isCrossSiteWrite(request)) return errorResponse(crossSiteError());

  const config = getConfig();
  const policy = pageContentSecurityPolicy({
    nonce: createNonce(),
    development: config.NODE_ENV === "development",
    https: request.nextUrl.protocol === "https:" || Boolean(config.AUTH_URL?.startsWith("https:")),
    oidcIssuer: config.AUTH_OIDC_ISSUER,
  });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("Content-Security-Policy", policy);

  const hasSession = request.cookies.getAll().some((cookie) => sessionCookieName.test(cookie.name));
  let response: NextResponse;
  if (unreadable) {
    // The not-found page, signed in or not: an address that cannot be read leads nowhere after sign-in either.
    const url = request.nextUrl.clone();
    url.pathname = unreadablePathPage;
    url.search = "";
    response = NextResponse.rewrite(url, { request: { headers: requestHeaders } });
  } else if (hasSession || openPaths.test(pathname)) {
    response = NextResponse.next({ request: { headers: requestHeaders } });
  } else {
    const url = request.nextUrl.clone();
    const returnTo = `${pathname}${request.nextUrl.search}`;
    url.pathname = "/sign-in";
    url.search = returnTo === "/" ? "" : `?callbackUrl=${encodeURIComponent(returnTo)}`;
    response = NextResponse.redirect(url);
  }
  response.headers.set("Content-Security-Policy", policy);
  return response;
}

export const config = {
  // Pages, and /api/, /iiif/ and /oai paths with a percent-escape (the only ones that can be
  // unreadable). Other API, IIIF and OAI requests do not come here: a request the proxy sees has
  // its body buffered (and cut at 10 MB) before the route reads it, and imports are larger.
  // Next's assets and public/'s files pass.
  matcher: ["/((?!api/|iiif/|oai|_next/|icon.svg|favicon.ico|robots.txt).*)", "/:path((?:api/|iiif/|oai).*%.*)"],
};
