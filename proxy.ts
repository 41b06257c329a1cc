import { type NextRequest, NextResponse } from "next/server";

/**
 * Sends visitors without a session cookie to sign-in with a real redirect before any page
 * starts streaming. This is a courtesy, not the security boundary: every page, action and
 * route handler still resolves and checks the principal itself.
 */
const sessionCookie = /^(__Secure-)?authjs\.session-token(\.\d+)?$/;

export function proxy(request: NextRequest) {
  const hasSession = request.cookies.getAll().some((cookie) => sessionCookie.test(cookie.name));
  if (hasSession) return NextResponse.next();
  const url = request.nextUrl.clone();
  const returnTo = `${request.nextUrl.pathname}${request.nextUrl.search}`;
  url.pathname = "/sign-in";
  url.search = returnTo === "/" ? "" : `?callbackUrl=${encodeURIComponent(returnTo)}`;
  return NextResponse.redirect(url);
}

export const config = {
  // Pages only: sign-in itself, Auth.js, API routes (they answer 401 JSON) and assets pass.
  matcher: ["/((?!sign-in|api/|_next/|icon.svg|favicon.ico).*)"],
};
