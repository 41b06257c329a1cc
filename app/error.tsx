"use client";

import { useEffect } from "react";

/** Unexpected failures: the details stay in the server log (matched by the digest). */
export default function ErrorPage({ error, retry }: { error: unknown; retry: () => void }) {
  const digest = error instanceof Error ? (error as Error & { digest?: string }).digest : undefined;
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <div role="alert" className="mx-auto mt-8 max-w-lg text-center">
      <h1 className="text-2xl font-semibold">Something went wrong</h1>
      <p className="mt-3 text-stone-700">The page could not be loaded. It may work if you try again.</p>
      {digest && <p className="mt-2 font-mono text-xs text-stone-500">Reference: {digest}</p>}
      <p className="mt-6">
        <button type="button" className="btn btn-primary" onClick={() => retry()}>
          Try again
        </button>
      </p>
    </div>
  );
}
