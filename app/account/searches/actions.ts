"use server";

import { z } from "zod";
import { authorizedAction } from "@/lib/http/authorized";
import { createSavedSearch, deleteSavedSearch, renameSavedSearch } from "@/lib/rag/search/saved-searches";

// The forms' entrances to the services the JSON API (/api/saved-searches) also calls; the
// services validate names and params and scope every row to its user.
const save = authorizedAction(
  z.object({ name: z.string().max(1000), params: z.record(z.string().max(64), z.string().max(2000)) }),
  async (input, { principal, runtime }) => {
    const saved = await createSavedSearch(runtime.database.prisma, principal, input);
    return { id: saved.id, name: saved.name };
  },
);
/** Saves the record list as it stands (its URL parameters; the page is not kept) under a name. */
export async function saveSearchAction(input: { name: string; params: Record<string, string> }) {
  return save(input);
}

const rename = authorizedAction(z.object({ id: z.string().max(64), name: z.string().max(1000) }), async (input, { principal, runtime }) => {
  const saved = await renameSavedSearch(runtime.database.prisma, principal, input.id, { name: input.name });
  return { name: saved.name };
});
/** Renames one of your own saved searches. */
export async function renameSavedSearchAction(input: { id: string; name: string }) {
  return rename(input);
}

const remove = authorizedAction(z.object({ id: z.string().max(64) }), async (input, { principal, runtime }) => {
  await deleteSavedSearch(runtime.database.prisma, principal, input.id);
  return { deleted: true };
});
/** Deletes one of your own saved searches. */
export async function deleteSavedSearchAction(input: { id: string }) {
  return remove(input);
}
