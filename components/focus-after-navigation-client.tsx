"use client";

import { usePathname } from "next/navigation";
import { useEffect, useRef } from "react";

/**
 * After a client-side navigation, a keyboard user's focus is often on an element the new page no
 * longer has (the sign-in button, a result link), so it falls to the document body and the next
 * Tab starts from wherever that element used to be. When that happens, focus moves to the main
 * content, as after the skip link. Focus that is still somewhere (the ask panel, which stays open
 * across pages) is left alone.
 */
export function FocusAfterNavigationClient() {
  const pathname = usePathname();
  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    const active = document.activeElement;
    if (active === null || active === document.body) document.getElementById("main-content")?.focus({ preventScroll: true });
  }, [pathname]);
  return null;
}
