import { type NextRequest, NextResponse } from "next/server";
import { getConfig } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { isCrossSiteWrite } from "@/lib/http/cross-site";
import { errorResponse } from "@/lib/http/error-response";
import { createNonce, pageContentSecurityPolicy } from "@/lib/http/security-headers";

/**
 * Runs before every page (API routes, Next's assets and icons pass by; their headers come from
 * next.config.ts):
 * - refuses a server action sent from another site (a forged or `null` Origin) with a 403,
 *   where Next.js would answer 500 (lib/http/cross-site.ts);
 * - gives the page a Content-Security-Policy with a fresh nonce. The request carries the policy
 *   too, which is how Next.js learns the nonce and puts it on its own scripts; every page is
 *   rendered per request (the root layout is force-dynamic), so no cached page holds a stale one.
 * - sends visitors without a session cookie to sign-in with a real redirect before any page
 *   starts streaming. This is a courtesy, not the security boundary: every page, action and
 *   route handler still resolves and checks the principal itself.
 */
const sessionCookie = /^(__Secure-)?authjs\.session-token(\.\d+)?$/;
const openPaths = /^\/sign-in(\/|$)/;

export function proxy(request: NextRequest) {
  if (isCrossSiteWrite(request)) {
    return errorResponse(new AppError("forbidden", "This request came from another site, so it was not carried out. Reload the page and try again."));
  }
  const config = getConfig();
  const policy = pageContentSecurityPolicy({
    nonce: createNonce(),
    development: config.NODE_ENV === "development",
    https: request.nextUrl.protocol === "https:" || Boolean(config.AUTH_URL?.startsWith("https:")),
    oidcIssuer: config.AUTH_OIDC_ISSUER,
  });

  const hasSession = request.cookies.getAll().some((cookie) => sessionCookie.test(cookie.name));
  let response: NextResponse;
  if (hasSession || openPaths.test(request.nextUrl.pathname)) {
    const requestHeaders = new Headers(request.headers);
    requestHeaders.set("Content-Security-Policy", policy);
    response = NextResponse.next({ request: { headers: requestHeaders } });
  } else {
    const url = request.nextUrl.clone();
    const returnTo = `${request.nextUrl.pathname}${request.nextUrl.search}`;
    url.pathname = "/sign-in";
    url.search = returnTo === "/" ? "" : `?callbackUrl=${encodeURIComponent(returnTo)}`;
    response = NextResponse.redirect(url);
  }
  response.headers.set("Content-Security-Policy", policy);
  return response;
}

export const config = {
  // Pages only: Auth.js and API routes (they answer 401 JSON), Next's assets and public/'s files pass.
  // /iiif/ and /oai serve public projects to anonymous viewers and harvesters (lib/api/public-route.ts).
  matcher: ["/((?!api/|iiif/|oai|_next/|icon.svg|favicon.ico|robots.txt).*)"],
};
