import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getConfig } from "@/lib/config";
import { getPrincipal } from "@/lib/auth/get-principal";
import { signInWithOidc } from "./actions";
import { safeCallbackUrl } from "./callback-url";
import { SignInClient } from "./sign-in-client";

export const metadata: Metadata = { title: "Sign in" };

// Auth.js sends OIDC failures back here as ?error=<type>.
function describeAuthError(type: string | undefined): string | undefined {
  if (!type) return undefined;
  if (type === "AccessDenied") return "This account may not sign in to Mnemo. Ask an administrator for access.";
  if (type === "CredentialsSignin") return "Incorrect email or password.";
  return "Sign-in did not complete. Please try again.";
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  const callbackUrl = safeCallbackUrl(typeof query.callbackUrl === "string" ? query.callbackUrl : undefined);
  if (await getPrincipal()) redirect(callbackUrl);

  const config = getConfig();
  const oidcName = config.AUTH_OIDC_ISSUER ? config.AUTH_OIDC_NAME : null;
  return (
    <div className="mx-auto mt-8 max-w-sm">
      <h1 className="text-2xl font-semibold">Sign in</h1>
      <p className="mt-1 text-sm text-stone-600">Use the account your archive administrator gave you.</p>
      <div className="mt-6 rounded-lg border border-stone-200 bg-white p-6 shadow-xs">
        <SignInClient callbackUrl={callbackUrl} initialError={describeAuthError(typeof query.error === "string" ? query.error : undefined)} />
        {oidcName && (
          <form action={signInWithOidc} className="mt-4 border-t border-stone-200 pt-4">
            <input type="hidden" name="callbackUrl" value={callbackUrl} />
            <button type="submit" className="btn w-full">
              Sign in with {oidcName}
            </button>
          </form>
        )}
      </div>
    </div>
  );
}
