"use server";

import { z } from "zod";
import { getDatabase } from "@/lib/db";
import { authorizedAction } from "@/lib/http/authorized";
import { setAskThresholds } from "@/lib/admin/ask-thresholds";
import { calibrateSpaceFusion, resetSpaceFusion } from "@/lib/admin/fusion-calibration";
import { activateSpace, compareSpaces, registerCandidateSpace, rollbackSpace } from "@/lib/admin/model-switch";
import { deleteEmbedGroup, previewEmbedGroup, saveEmbedGroupAsAdmin } from "@/lib/admin/embed-group-admin";
import { createProjectAsAdmin } from "@/lib/admin/people/create-project";
import { createUserAsAdmin } from "@/lib/admin/people/create-user";
import { resetPassword } from "@/lib/admin/people/reset-password";
import { setMembership } from "@/lib/admin/people/set-membership";
import { setSectionEgress } from "@/lib/admin/people/set-section-egress";
import { setUserActive } from "@/lib/admin/people/set-user-active";
import { setUserRole } from "@/lib/admin/people/set-user-role";
import { retryFailed, startReindex } from "@/lib/admin/reindex-jobs";
import { enqueueReindex } from "@/lib/rag/index/index-queue";
import { saveObjectContext } from "@/lib/rag/objects/save-object-context";
import { rrfKFromEnv } from "@/lib/rag/search/search-context";

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

const people = {
  createUser: authorizedAction(z.object({ email: z.string().max(200), name: z.string().max(200), role: z.string().max(20), password: z.string().max(200) }), async (input, { principal }) => {
    const { prisma } = await getDatabase();
    return createUserAsAdmin(prisma, principal, input);
  }),
  setRole: authorizedAction(z.object({ userId: z.string().max(64), role: z.string().max(20) }), async (input, { principal }) => {
    const { prisma } = await getDatabase();
    await setUserRole(prisma, principal, input);
    return { ok: true };
  }),
  resetPassword: authorizedAction(z.object({ userId: z.string().max(64), password: z.string().max(200) }), async (input, { principal }) => {
    const { prisma } = await getDatabase();
    await resetPassword(prisma, principal, input);
    return { ok: true };
  }),
  setActive: authorizedAction(z.object({ userId: z.string().max(64), active: z.boolean() }), async (input, { principal }) => {
    const { prisma } = await getDatabase();
    await setUserActive(prisma, principal, input);
    return { ok: true };
  }),
  createProject: authorizedAction(z.object({ slug: z.string().max(64), name: z.string().max(200), description: z.string().max(2000), restricted: z.boolean() }), async (input, { principal }) => {
    const { prisma } = await getDatabase();
    return createProjectAsAdmin(prisma, principal, input);
  }),
  setMembership: authorizedAction(
    z.object({ projectId: z.string().max(64), email: z.string().max(200).optional(), userId: z.string().max(64).optional(), role: z.enum(["reader", "editor"]).nullable() }),
    async (input, { principal }) => {
      const { prisma } = await getDatabase();
      await setMembership(prisma, principal, input);
      return { ok: true };
    },
  ),
  setEgress: authorizedAction(z.object({ sectionSlug: slugSchema, policy: z.string().max(20) }), async (input, { principal }) => {
    const { prisma, sql } = await getDatabase();
    await setSectionEgress(prisma, principal, input);
    // Image and text vectors of external models follow the new policy at the next indexing.
    const section = await prisma.section.findUnique({ where: { slug: input.sectionSlug }, select: { id: true } });
    if (section) await enqueueReindex(sql, { sectionId: section.id }, "egress.changed");
    return { ok: true };
  }),
};

export async function createUserAction(input: { email: string; name: string; role: string; password: string }) {
  return people.createUser(input);
}
export async function setUserRoleAction(input: { userId: string; role: string }) {
  return people.setRole(input);
}
export async function resetPasswordAction(input: { userId: string; password: string }) {
  return people.resetPassword(input);
}
export async function setUserActiveAction(input: { userId: string; active: boolean }) {
  return people.setActive(input);
}
export async function createProjectAction(input: { slug: string; name: string; description: string; restricted: boolean }) {
  return people.createProject(input);
}
export async function setMembershipAction(input: { projectId: string; email?: string; userId?: string; role: "reader" | "editor" | null }) {
  return people.setMembership(input);
}
export async function setSectionEgressAction(input: { sectionSlug: string; policy: string }) {
  return people.setEgress(input);
}

const thresholds = authorizedAction(z.object({ minSimilarity: z.number(), strongSimilarity: z.number(), minTermCoverage: z.number() }), async (input, { principal }) => {
  const { sql } = await getDatabase();
  return setAskThresholds(sql, principal, input);
});
/** Sets the Q&A evidence thresholds (admins only); they override MNEMO_ASK_* at once. */
export async function setAskThresholdsAction(input: { minSimilarity: number; strongSimilarity: number; minTermCoverage: number }) {
  return thresholds(input);
}

const spaces = {
  register: authorizedAction(z.object({ config: z.unknown() }), async (input, { principal }) => {
    const { sql } = await getDatabase();
    return registerCandidateSpace(sql, principal, input.config);
  }),
  compare: authorizedAction(z.object({ goldenSetId: z.string().max(64), candidateId: z.string().max(64), mode: z.string().max(20) }), async (input, { principal }) => {
    const { prisma, sql } = await getDatabase();
    return compareSpaces(prisma, sql, principal, input);
  }),
  activate: authorizedAction(z.object({ spaceId: z.string().max(64) }), async (input, { principal }) => {
    const { sql } = await getDatabase();
    await activateSpace(sql, principal, input.spaceId);
    return { ok: true };
  }),
  rollback: authorizedAction(z.object({}).optional(), async (_input, { principal }) => {
    const { sql } = await getDatabase();
    return rollbackSpace(sql, principal);
  }),
  calibrate: authorizedAction(z.object({ spaceId: z.string().max(64), goldenSetId: z.string().max(64).optional() }), async (input, { principal }) => {
    const { prisma, sql } = await getDatabase();
    return calibrateSpaceFusion(prisma, sql, principal, { spaceId: input.spaceId, goldenSetId: input.goldenSetId, rrfK: rrfKFromEnv(process.env) });
  }),
  resetFusion: authorizedAction(z.object({ spaceId: z.string().max(64) }), async (input, { principal }) => {
    const { sql } = await getDatabase();
    await resetSpaceFusion(sql, principal, input);
    return { ok: true };
  }),
};
/** Measures hybrid fusion weights of a space on the golden sets and stores them (admins only). */
export async function calibrateFusionAction(input: { spaceId: string; goldenSetId?: string }) {
  return spaces.calibrate(input);
}
/** Returns a space to equal fusion weights (admins only). */
export async function resetFusionAction(input: { spaceId: string }) {
  return spaces.resetFusion(input);
}
export async function registerSpaceAction(input: { config: unknown }) {
  return spaces.register(input);
}
export async function compareSpacesAction(input: { goldenSetId: string; candidateId: string; mode: string }) {
  return spaces.compare(input);
}
export async function activateSpaceAction(input: { spaceId: string }) {
  return spaces.activate(input);
}
export async function rollbackSpaceAction() {
  return spaces.rollback(undefined);
}
