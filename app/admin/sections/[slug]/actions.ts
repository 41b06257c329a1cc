"use server";

import { z } from "zod";
import { authorizedAction } from "@/lib/http/authorized";
import { deleteEmbedGroup, previewEmbedGroup, saveEmbedGroupAsAdmin } from "@/lib/admin/embed-group-admin";
import { setSectionEgress } from "@/lib/admin/people/set-section-egress";
import { findSectionId } from "@/lib/archive/sections";
import { setSectionDcMapping } from "@/lib/admin/section-dc-mapping";
import { enqueueReindex } from "@/lib/rag/index/index-queue";

const sectionSlug = z.string().min(1).max(64);

/** What a group would make of one record, before saving (admins only). */
export const previewEmbedGroupAction = authorizedAction(
  z.object({ sectionSlug, group: z.unknown(), recordId: z.string().max(64).optional() }),
  async (input, { principal, runtime }) => {
    const { prisma, sql } = runtime.database;
    return previewEmbedGroup(prisma, sql, principal, { sectionSlug: input.sectionSlug, group: input.group, recordId: input.recordId });
  },
);

/** Saves an embed group (validated) and re-queues the section (admins only). */
export const saveEmbedGroupAction = authorizedAction(z.object({ sectionSlug, group: z.unknown() }), async (input, { principal, runtime }) => {
  const { prisma, sql } = runtime.database;
  const saved = await saveEmbedGroupAsAdmin(prisma, sql, principal, { sectionSlug: input.sectionSlug, group: input.group });
  return { id: saved.group.id, queued: saved.queued };
});

/** Deletes an embed group and its passages (admins only). */
export const deleteEmbedGroupAction = authorizedAction(z.object({ sectionSlug, groupId: z.string().max(64) }), async (input, { principal, runtime }) => {
  const { prisma } = runtime.database;
  await deleteEmbedGroup(prisma, principal, input);
  return { deleted: true };
});

/** Sets a section's egress policy (admins only). */
export const setSectionEgressAction = authorizedAction(z.object({ sectionSlug, policy: z.string().max(20) }), async (input, { principal, runtime }) => {
  const { prisma, sql } = runtime.database;
  await setSectionEgress(prisma, principal, input);
  // Image and text vectors of external models follow the new policy at the next indexing.
  const sectionId = await findSectionId(prisma, input.sectionSlug);
  if (sectionId) await enqueueReindex(sql, { sectionId }, "egress.changed");
  return { ok: true };
});

/** Sets (or, with null, resets) the section's Dublin Core mapping for OAI-PMH (admins only). */
export const setSectionDcMappingAction = authorizedAction(z.object({ sectionSlug, mapping: z.unknown() }), async (input, { principal, runtime }) => {
  await setSectionDcMapping(runtime.database.prisma, principal, { sectionSlug: input.sectionSlug, mapping: input.mapping ?? null });
  return { ok: true };
});
