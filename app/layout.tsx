import type { Metadata } from "next";
import { type ReactNode, Suspense } from "react";
import { AppHeader } from "@/components/app-header";
import { FocusAfterNavigationClient } from "@/components/focus-after-navigation-client";
import { QueryProviderClient } from "@/components/query-provider-client";
import { SystemNotice } from "@/components/system-notice";
import { isAdmin } from "@/lib/acl";
import { getPrincipal } from "@/lib/auth/get-principal";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Mnemo", template: "%s · Mnemo" },
  description: "A research workbench for archives.",
  // Static assets live in public/ (served as they are, past proxy.ts).
  icons: { icon: { url: "/icon.svg", type: "image/svg+xml", sizes: "any" } },
};

// Every page depends on who is signed in; nothing is prerendered for everyone.
export const dynamic = "force-dynamic";

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Administrators see what the installation lacks on every page (everyone else on the search page).
  const principal = await getPrincipal();
  return (
    <html lang="en">
      <body className="min-h-screen">
        <QueryProviderClient>
          <a
            href="#main-content"
            className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-3 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:text-sm focus:shadow"
          >
            Skip to content
          </a>
          <AppHeader />
          <main id="main-content" tabIndex={-1} className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 focus:outline-none">
            {principal && isAdmin(principal) && (
              <Suspense fallback={null}>
                <SystemNotice principal={principal} />
              </Suspense>
            )}
            {children}
          </main>
          <FocusAfterNavigationClient />
        </QueryProviderClient>
      </body>
    </html>
  );
}
