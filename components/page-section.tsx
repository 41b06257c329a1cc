import type { ReactNode } from "react";

/** A titled part of a page: a section named by its h2, so screen readers list it as a region. */
export function PageSection({ id, title, className, children }: { id: string; title: ReactNode; className: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-heading`} className={className}>
      <h2 id={`${id}-heading`} className="text-xl font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}
