import "server-only";
import { notFound } from "next/navigation";
import { isAdmin } from "@/lib/acl";
import { authorizedPage } from "@/lib/http/authorized";

/** A page under Administration: signed in (or sent to sign in, back to `returnTo`), and anyone but an admin gets the not-found page. */
export async function authorizedAdminPage(returnTo: string) {
  const context = await authorizedPage(returnTo);
  if (!isAdmin(context.principal)) notFound();
  return context;
}
