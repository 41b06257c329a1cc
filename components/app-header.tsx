import "server-only";
import Link from "next/link";
import { canEditSomeProject } from "@/lib/acl";
import { getPrincipal } from "@/lib/auth/get-principal";
import { NavLinkClient } from "./nav-link-client";

const roleLabels = { admin: "Administrator", curator: "Curator", researcher: "Researcher" } as const;

/**
 * The shell's header. It only shows who is signed in: every page still checks the principal
 * itself, because a layout is not a security boundary.
 */
export async function AppHeader() {
  const principal = await getPrincipal();
  return (
    <header className="border-b border-stone-200 bg-white">
      <div className="mx-auto flex w-full max-w-6xl flex-wrap items-center gap-x-8 gap-y-2 px-4 py-3 sm:px-6">
        <Link href={principal ? "/records" : "/sign-in"} className="font-serif text-xl font-semibold tracking-wide text-stone-900">
          Mnemo
        </Link>
        {principal && (
          <>
            <nav aria-label="Main" className="flex items-center gap-1">
              <NavLinkClient href="/records">Records</NavLinkClient>
              <NavLinkClient href="/objects">Objects</NavLinkClient>
              <NavLinkClient href="/review">Proposals</NavLinkClient>
              {canEditSomeProject(principal) && <NavLinkClient href="/import">Import</NavLinkClient>}
              {(principal.role === "admin" || (principal.role === "curator" && principal.editableProjectIds.length > 0)) && (
                <NavLinkClient href="/golden">Golden sets</NavLinkClient>
              )}
              {principal.role === "admin" && <NavLinkClient href="/admin">Admin</NavLinkClient>}
            </nav>
            <div className="ml-auto flex items-center gap-4 text-sm">
              <span className="text-stone-700">
                <span className="font-medium text-stone-900">{principal.name}</span>
                <span className="text-stone-500"> · {roleLabels[principal.role]}</span>
              </span>
              <Link href="/account/searches" className="link">
                Saved searches
              </Link>
              <Link href="/account/tokens" className="link">
                API tokens
              </Link>
              <Link href="/sign-out" className="link">
                Sign out
              </Link>
            </div>
          </>
        )}
      </div>
    </header>
  );
}
