"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { signOut } from "@/lib/auth/auth";
import { getSessionClaims } from "@/lib/auth/get-principal";
import { revokeSession } from "@/lib/auth/sessions";
import { authorizedAction } from "@/lib/http/authorized";

// The session is revoked on the server before its cookie is cleared, so a copy of the cookie
// stops working too; the user's other sessions go on.
const signOutSignedIn = authorizedAction(z.undefined(), async (_input, { runtime }) => {
  const claims = await getSessionClaims();
  if (claims) await revokeSession(runtime.database.prisma, claims);
  await signOut({ redirectTo: "/sign-in" });
});

export async function signOutAction(): Promise<void> {
  // signOut redirects (thrown through the wrapper); an error means the session had already ended.
  await signOutSignedIn(undefined);
  redirect("/sign-in");
}
