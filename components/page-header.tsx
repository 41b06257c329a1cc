import Link from "next/link";
import type { ReactNode } from "react";

interface PageHeaderProps {
  /** Where the page belongs, shown as a breadcrumb above the title. */
  back?: { href: string; label: ReactNode };
  title: ReactNode;
  /** What the page is for, in a sentence or two under the title. */
  children?: ReactNode;
}

/** A page's title block: the breadcrumb back (when the page belongs somewhere), its one h1 and what it is for. */
export function PageHeader({ back, title, children }: PageHeaderProps) {
  return (
    <>
      {back && (
        <nav aria-label="Breadcrumb" className="text-sm text-stone-500">
          <Link href={back.href} className="link">
            {back.label}
          </Link>
        </nav>
      )}
      <h1 className={`${back ? "mt-2 " : ""}text-3xl font-semibold`}>{title}</h1>
      {children && <p className="mt-1 max-w-3xl text-sm text-stone-600">{children}</p>}
    </>
  );
}

/** The header of a page under Administration, which its breadcrumb leads back to. */
export function AdminPageHeader(props: Omit<PageHeaderProps, "back">) {
  return <PageHeader back={{ href: "/admin", label: "Administration" }} {...props} />;
}
