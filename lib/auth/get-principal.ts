import "server-only";
import { cache } from "react";
import { redirect } from "next/navigation";
import type { Principal } from "../acl";
import { getPrisma } from "../db";
import { auth } from "./auth";
import { loadPrincipal } from "./load-principal";

/** The signed-in principal for this request, or null. Memoised per request. */
export const getPrincipal = cache(async (): Promise<Principal | null> => {
  const session = (await auth()) as { userId?: string; sessionVersion?: number } | null;
  if (!session?.userId) return null;
  return loadPrincipal(await getPrisma(), session.userId, session.sessionVersion ?? -1);
});

/** For pages: the principal, or a redirect to sign-in that comes back here afterwards. */
export async function requirePrincipal(returnTo = "/records"): Promise<Principal> {
  const principal = await getPrincipal();
  if (!principal) redirect(`/sign-in?callbackUrl=${encodeURIComponent(returnTo)}`);
  return principal;
}
