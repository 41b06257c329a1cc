"use client";

import { type ReactNode, useState } from "react";
import { useWideScreen } from "./records-client";

/**
 * Where the facets live: a column beside the results on a wide screen (the page's grid places
 * it), a folded "Narrow the list" drawer above them on a phone, saying how many are chosen.
 */
export function FacetsPanelClient({ chosen, children }: { chosen: number; children: ReactNode }) {
  const wide = useWideScreen();
  const [unfolded, setUnfolded] = useState(false);
  if (wide) return <div className="min-w-0">{children}</div>;
  return (
    <details open={unfolded} onToggle={(event) => setUnfolded(event.currentTarget.open)} data-testid="facets-drawer">
      <summary className="btn cursor-pointer list-none">
        {unfolded ? "Hide the counts" : "Narrow the list"}
        {chosen > 0 && ` (${chosen} chosen)`}
      </summary>
      <div className="mt-3">{children}</div>
    </details>
  );
}
