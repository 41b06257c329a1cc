"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";

/**
 * Client-side data goes through TanStack Query: one client per browser tab (made once per
 * mount, so a server render never shares a cache between users). A query is refetched when
 * something invalidates it or its own interval asks, not behind the user's back on window
 * focus, and a failed read is not retried silently: each caller says what a failure shows.
 */
export function QueryProviderClient({ children }: { children: ReactNode }) {
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } }));
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
