"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { canKeepGoldenSets } from "@/lib/acl";
import { deleteGoldenSet, runGoldenSet, saveGoldenSet } from "@/lib/admin/golden-sets";
import { findSectionId } from "@/lib/archive/sections";
import { notFound as notFoundError } from "@/lib/errors";
import { authorizedAction } from "@/lib/http/authorized";
import { maxQueryLength } from "@/lib/query-length";
import { searchArchive } from "@/lib/rag/search/search-archive";

const create = authorizedAction(z.object({ name: z.string().max(200), sectionSlug: z.string().max(64).optional() }), async (input, { principal, runtime }) => {
  const { prisma } = runtime.database;
  const saved = await saveGoldenSet(prisma, principal, { set: { name: input.name, sectionSlug: input.sectionSlug || undefined, questions: [] } });
  redirect(`/golden/${saved.id}`);
});
export async function createGoldenSetAction(input: { name: string; sectionSlug?: string }) {
  return create(input);
}

const save = authorizedAction(z.object({ id: z.string().max(64), set: z.unknown() }), async (input, { principal, runtime }) => {
  const { prisma } = runtime.database;
  return saveGoldenSet(prisma, principal, input);
});
export async function saveGoldenSetAction(input: { id: string; set: unknown }) {
  return save(input);
}

const remove = authorizedAction(z.object({ id: z.string().max(64) }), async (input, { principal, runtime }) => {
  const { prisma } = runtime.database;
  await deleteGoldenSet(prisma, principal, input.id);
  redirect("/golden");
});
export async function deleteGoldenSetAction(input: { id: string }) {
  return remove(input);
}

const run = authorizedAction(z.object({ id: z.string().max(64), mode: z.string().max(20) }), async (input, { principal, runtime }) => {
  const { prisma } = runtime.database;
  const result = await runGoldenSet(prisma, await runtime.search(), principal, input);
  return { runId: result.runId };
});
export async function runGoldenSetAction(input: { id: string; mode: string }) {
  return run(input);
}

const candidates = authorizedAction(
  z.object({ query: z.string().max(maxQueryLength), sectionSlug: z.string().max(64).optional() }),
  async (input, { principal, runtime }) => {
    if (!canKeepGoldenSets(principal)) throw notFoundError();
    const context = await runtime.search();
    const { prisma } = runtime.database;
    const sectionId = input.sectionSlug ? await findSectionId(prisma, input.sectionSlug) : null;
    const found = await searchArchive(context, principal, {
      query: input.query,
      mode: context.space ? "hybrid" : "keyword",
      limit: 10,
      collapse: "record",
      sectionIds: sectionId ? [sectionId] : undefined,
    });
    return found.hits.map((hit) => ({ recordId: hit.recordId, title: hit.recordTitle, section: hit.sectionName }));
  },
);
/** Records that might answer a question (the keeper's own access), to tick as expected. */
export async function findCandidatesAction(input: { query: string; sectionSlug?: string }) {
  return candidates(input);
}
