import "server-only";
import type { Principal } from "../acl";
import { getConfig } from "../config";
import type { PrismaClient } from "../db/generated/client";
import { type ExpiringCache, createExpiringCache } from "../expiring-cache";

interface ProjectSets {
  readableProjectIds: string[];
  editableProjectIds: string[];
}

// On globalThis: one cache per process, whichever chunk of a bundle a caller sits in.
const cacheKey = Symbol.for("mnemo.projectSets");
const holder = globalThis as { [cacheKey]?: ExpiringCache<ProjectSets> };

/**
 * Each user's project sets (memberships), reused by this process's requests for
 * MNEMO_PRINCIPAL_CACHE_MS (default 5 s), keyed by the user's id only: a request can reach only
 * its own user's entry. The user row (active, role, session version) is still read on every
 * request, so a deactivation, a role change or a sign-out everywhere applies at once on every
 * process. A membership change through this process (people admin, a restored backup) forgets
 * the entry at once; another process applies it within the cache time (docs/architecture.md).
 */
export const projectSetCache = (holder[cacheKey] ??= createExpiringCache<ProjectSets>({
  ttlMs: () => getConfig().MNEMO_PRINCIPAL_CACHE_MS ?? 5000,
  copy: (sets) => ({ readableProjectIds: [...sets.readableProjectIds], editableProjectIds: [...sets.editableProjectIds] }),
}));

/** A membership of this user changed (or may have): the next request reads their project sets again. */
export function forgetProjectSets(prisma: PrismaClient, userId?: string): void {
  projectSetCache.forget(prisma, userId);
}

async function readProjectSets(prisma: PrismaClient, userId: string): Promise<ProjectSets> {
  const memberships = await prisma.membership.findMany({ where: { userId }, select: { projectId: true, role: true } });
  return {
    readableProjectIds: memberships.map((membership) => membership.projectId),
    editableProjectIds: memberships.filter((membership) => membership.role === "editor").map((membership) => membership.projectId),
  };
}

/**
 * Resolves a signed-in user into a Principal from the database, so role and membership
 * changes apply on the next request. Null when the user is gone, deactivated, or the session
 * predates a sessionVersion bump (sign-out everywhere, password reset). Requests pass
 * `{ cached: true }` to reuse the user's project sets for a few seconds (above); background work
 * (an import job's importer) and tests read them fresh.
 */
export async function loadPrincipal(
  prisma: PrismaClient,
  userId: string,
  sessionVersion: number,
  options: { cached?: boolean } = {},
): Promise<Principal | null> {
  const [user, sets] = await Promise.all([
    prisma.user.findUnique({ where: { id: userId }, select: { id: true, email: true, name: true, role: true, active: true, sessionVersion: true } }),
    options.cached ? projectSetCache.get(prisma, userId, () => readProjectSets(prisma, userId)) : readProjectSets(prisma, userId),
  ]);
  if (!user || !user.active || user.sessionVersion !== sessionVersion) return null;
  return { userId: user.id, email: user.email, name: user.name, role: user.role, ...sets };
}
