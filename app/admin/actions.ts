"use server";

import { z } from "zod";
import { getDatabase } from "@/lib/db";
import { authorizedAction } from "@/lib/http/authorized";
import { deleteEmbedGroup, previewEmbedGroup, saveEmbedGroupAsAdmin } from "@/lib/admin/embed-group-admin";
import { retryFailed, startReindex } from "@/lib/admin/reindex-jobs";
import { saveObjectContext } from "@/lib/rag/objects/save-object-context";

const save = authorizedAction(z.object({ sectionSlug: z.string().min(1).max(64), context: z.unknown() }), async (input, { principal }) => {
  const { prisma, sql } = await getDatabase();
  const saved = await saveObjectContext(prisma, sql, principal, { sectionSlug: input.sectionSlug, context: input.context ?? null });
  return { queued: saved.queued, cleared: saved.context === null };
});

/** Saves (or, with null, removes) a section's object context; admins only. */
export async function saveObjectContextAction(input: { sectionSlug: string; context: unknown }) {
  return save(input);
}

const slugSchema = z.string().min(1).max(64);

const preview = authorizedAction(z.object({ sectionSlug: slugSchema, group: z.unknown(), recordId: z.string().max(64).optional() }), async (input, { principal }) => {
  const { prisma, sql } = await getDatabase();
  return previewEmbedGroup(prisma, sql, principal, { sectionSlug: input.sectionSlug, group: input.group, recordId: input.recordId });
});
/** What a group would make of one record, before saving (admins only). */
export async function previewEmbedGroupAction(input: { sectionSlug: string; group: unknown; recordId?: string }) {
  return preview(input);
}

const saveGroup = authorizedAction(z.object({ sectionSlug: slugSchema, group: z.unknown() }), async (input, { principal }) => {
  const { prisma, sql } = await getDatabase();
  const saved = await saveEmbedGroupAsAdmin(prisma, sql, principal, { sectionSlug: input.sectionSlug, group: input.group });
  return { id: saved.group.id, queued: saved.queued };
});
/** Saves an embed group (validated) and re-queues the section (admins only). */
export async function saveEmbedGroupAction(input: { sectionSlug: string; group: unknown }) {
  return saveGroup(input);
}

const removeGroup = authorizedAction(z.object({ sectionSlug: slugSchema, groupId: z.string().max(64) }), async (input, { principal }) => {
  const { prisma } = await getDatabase();
  await deleteEmbedGroup(prisma, principal, input);
  return { deleted: true };
});
/** Deletes an embed group and its passages (admins only). */
export async function deleteEmbedGroupAction(input: { sectionSlug: string; groupId: string }) {
  return removeGroup(input);
}

const reindex = authorizedAction(z.object({ sectionSlug: slugSchema.optional() }), async (input, { principal }) => {
  const { prisma, sql } = await getDatabase();
  const started = await startReindex(prisma, sql, principal, input);
  return { jobId: started.job.id, alreadyRunning: started.alreadyRunning, total: started.job.total };
});
/** Queues a section (or everything) for reindexing; a running job over the same records is returned instead. */
export async function startReindexAction(input: { sectionSlug?: string }) {
  return reindex(input);
}

const retry = authorizedAction(z.object({ sectionSlug: slugSchema.optional() }), async (input, { principal }) => {
  const { prisma, sql } = await getDatabase();
  return { retried: await retryFailed(prisma, sql, principal, input) };
});
/** Puts parked records back in line (admins only). */
export async function retryFailedAction(input: { sectionSlug?: string }) {
  return retry(input);
}
