import type { Metadata } from "next";
import Link from "next/link";
import { getPrincipal } from "@/lib/auth/get-principal";
import { signOutAction } from "./actions";

export const metadata: Metadata = { title: "Sign out" };

export default async function SignOutPage() {
  const principal = await getPrincipal();
  return (
    <div className="mx-auto mt-8 max-w-sm">
      <h1 className="text-2xl font-semibold">Sign out</h1>
      {principal ? (
        <form action={signOutAction} className="mt-6 rounded-lg border border-stone-200 bg-white p-6 shadow-xs">
          <p className="text-sm text-stone-700">
            You are signed in as <span className="font-medium text-stone-900">{principal.email}</span>.
          </p>
          <button type="submit" className="btn btn-primary mt-4 w-full">
            Sign out
          </button>
        </form>
      ) : (
        <p className="mt-4 text-sm text-stone-700">
          You are signed out.{" "}
          <Link href="/sign-in" className="link">
            Sign in
          </Link>
        </p>
      )}
    </div>
  );
}
