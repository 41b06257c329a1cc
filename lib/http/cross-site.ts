import { AppError } from "../errors";

/**
 * The one cross-site rule. A request that changes something (anything but GET, HEAD and OPTIONS)
 * and is authenticated by the session cookie must come from the app's own pages. It is applied
 * in two places, so no write forgets it: `proxy.ts` for every page (server actions, with or
 * without a session: a forged sign-in is refused too) and `runAuthorizedRoute` for every route
 * handler that resolves a session (`authorizedRoute`, `publicRoute`), when the request carries
 * the session cookie. The bearer-token API (`/api/v1`, `/api/mcp`) never reads the cookie and
 * has its CORS rules (lib/api/cors.ts); Auth.js checks its own CSRF token under `/api/auth`.
 *
 * - An `Origin` decides: its host must be the first X-Forwarded-Host, else Host (Next.js's own
 *   comparison for server actions). `null` (sandboxed frames, some redirects), a value that is not
 *   a URL, another port or a sibling subdomain is cross-site.
 * - Without an Origin, `Sec-Fetch-Site` decides: `cross-site` and `same-site` are refused,
 *   `same-origin` and `none` (the person's own navigation) pass.
 * - Without either, the request passes. Browsers send an Origin with every method but GET and
 *   HEAD (the Fetch standard asks it), so such a request comes from a program (curl, a script),
 *   which holds only the cookies its own user gave it — no victim's browser to ride on — or from
 *   a browser too old for both, where the SameSite=Lax cookie still stays off cross-site POSTs.
 */
export function isCrossSiteWrite(request: { method: string; headers: Headers }): boolean {
  if (request.method === "GET" || request.method === "HEAD" || request.method === "OPTIONS") return false;
  const origin = request.headers.get("origin");
  if (origin === null) {
    const site = request.headers.get("sec-fetch-site")?.trim().toLowerCase();
    return site === "cross-site" || site === "same-site";
  }
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return true;
  }
  const host = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim() || request.headers.get("host");
  return !host || originHost !== host;
}

/** Auth.js's session cookie (`__Secure-` over https; `.0`, `.1`… when it is split in chunks). */
export const sessionCookieName = /^(__Secure-)?authjs\.session-token(\.\d+)?$/;

/** Whether the request carries the session cookie (the Cookie header read as browsers send it). */
export function hasSessionCookie(headers: Headers): boolean {
  const cookie = headers.get("cookie");
  if (!cookie) return false;
  return cookie.split(";").some((pair) => sessionCookieName.test(pair.split("=", 1)[0]!.trim()));
}

export function crossSiteError(): AppError {
  return new AppError("forbidden", "This request came from another site, so it was not carried out. Reload the page and try again.");
}

/** The rule for route handlers: a cross-site write that carries the session cookie is refused (403). */
export function refuseCrossSiteCookieWrite(request: { method: string; headers: Headers }): void {
  if (hasSessionCookie(request.headers) && isCrossSiteWrite(request)) throw crossSiteError();
}
