"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { signOut } from "@/lib/auth/auth";
import { authorizedAction } from "@/lib/http/authorized";

const signOutSignedIn = authorizedAction(z.undefined(), () => signOut({ redirectTo: "/sign-in" }));

export async function signOutAction(): Promise<void> {
  // signOut redirects (thrown through the wrapper); an error means the session had already ended.
  await signOutSignedIn(undefined);
  redirect("/sign-in");
}
