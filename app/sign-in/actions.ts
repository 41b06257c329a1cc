"use server";

import { AuthError, type CredentialsSignin } from "next-auth";
import { signIn } from "@/lib/auth/auth";
import { safeCallbackUrl } from "./callback-url";

export interface SignInState {
  error?: string;
  /** Sent back so the form keeps the address after a failed attempt. */
  email?: string;
}

/*
 * The only actions that do not go through authorizedAction: signing in is what creates the
 * principal, so there is none to check yet. Input is limited to credentials and a same-site
 * callback path; Auth.js validates the credentials and rate-limits failed attempts.
 */

export async function signInWithPassword(_previous: SignInState, formData: FormData): Promise<SignInState> {
  const email = String(formData.get("email") ?? "").slice(0, 254);
  try {
    await signIn("credentials", {
      email,
      password: String(formData.get("password") ?? ""),
      redirectTo: safeCallbackUrl(formData.get("callbackUrl")),
    });
    return {};
  } catch (error) {
    if (error instanceof AuthError) {
      if (error.type === "CredentialsSignin" && (error as CredentialsSignin).code === "rate_limited") {
        return { error: "Too many failed sign-in attempts. Try again later.", email };
      }
      return { error: "Incorrect email or password.", email };
    }
    // The redirect after a successful sign-in is thrown; Next.js must see it.
    throw error;
  }
}

export async function signInWithOidc(formData: FormData): Promise<void> {
  await signIn("oidc", { redirectTo: safeCallbackUrl(formData.get("callbackUrl")) });
}
