import "server-only";
import { cache } from "react";
import { redirect } from "next/navigation";
import type { Principal } from "../acl";
import { getPrisma } from "../db";
import { auth } from "./auth";
import { loadSessionPrincipal, sessionClaimsSchema, type SessionClaims } from "./sessions";

/** What this request's session cookie says (user, version, session id), or null. Memoised per request. */
export const getSessionClaims = cache(async (): Promise<SessionClaims | null> => {
  const parsed = sessionClaimsSchema.safeParse(await auth());
  return parsed.success ? parsed.data : null;
});

/** The signed-in principal for this request, or null. Memoised per request. */
export const getPrincipal = cache(async (): Promise<Principal | null> => {
  const claims = await getSessionClaims();
  if (!claims) return null;
  return loadSessionPrincipal(await getPrisma(), claims);
});

/** For pages: the principal, or a redirect to sign-in that comes back here afterwards. */
export async function requirePrincipal(returnTo = "/records"): Promise<Principal> {
  const principal = await getPrincipal();
  if (!principal) redirect(`/sign-in?callbackUrl=${encodeURIComponent(returnTo)}`);
  return principal;
}
