import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setMembership } from "../../lib/admin/people/set-membership";
import { setSectionEgress } from "../../lib/admin/people/set-section-egress";
import { listSectionsCached } from "../../lib/archive/sections";
import { authenticateApiToken, createApiToken } from "../../lib/auth/api-tokens";
import { forgetProjectSets } from "../../lib/auth/load-principal";
import { loadSessionPrincipal, type SessionClaims } from "../../lib/auth/sessions";
import type { Database } from "../../lib/db/database";
import { addMember, createProject, createSection, createUser, principalOf } from "../support/factories";
import { openTestDatabase, testDatabaseMode } from "../support/test-database";

/**
 * The per-process caches of a request's principal and of the sections (lib/expiring-cache.ts):
 * keyed so that no principal is ever answered with another's project sets, and forgotten at once
 * by the edits this process makes.
 */
let db: Database;

beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(async () => {
  await db.close();
});

function claimsFor(userId: string): SessionClaims {
  return { userId, sessionVersion: 0, sessionId: randomUUID(), signedInAt: Math.floor(Date.now() / 1000) - 60 };
}

describe(`per-process caches of principals and sections (${testDatabaseMode()})`, () => {
  it("never answers one user with another's project sets, by session or by token", async () => {
    const [first, second] = [await createProject(db.prisma, { restricted: true }), await createProject(db.prisma, { restricted: true })];
    const [userA, userB, userC] = [await createUser(db.prisma), await createUser(db.prisma), await createUser(db.prisma)];
    await addMember(db.prisma, userA.id, first.id, "editor");
    await addMember(db.prisma, userB.id, second.id);
    const tokenOfB = (await createApiToken(db.prisma, await principalOf(db.prisma, userB.id), { name: "B's token", expiresInDays: 30 })).token;
    // A's sets are cached first; then B, C (no memberships) and B's token each get their own.
    for (let round = 0; round < 2; round++) {
      const a = await loadSessionPrincipal(db.prisma, claimsFor(userA.id));
      const b = await loadSessionPrincipal(db.prisma, claimsFor(userB.id));
      const c = await loadSessionPrincipal(db.prisma, claimsFor(userC.id));
      const bByToken = await authenticateApiToken(db.prisma, tokenOfB);
      expect(a).toMatchObject({ userId: userA.id, readableProjectIds: [first.id], editableProjectIds: [first.id] });
      expect(b).toMatchObject({ userId: userB.id, readableProjectIds: [second.id], editableProjectIds: [] });
      expect(c).toMatchObject({ userId: userC.id, readableProjectIds: [], editableProjectIds: [] });
      expect(bByToken).toMatchObject({ userId: userB.id, readableProjectIds: [second.id], editableProjectIds: [] });
    }
  });

  it("applies a membership removed or changed through the people admin at once, though the sets were just cached", async () => {
    const admin = await principalOf(db.prisma, (await createUser(db.prisma, { role: "admin" })).id);
    const project = await createProject(db.prisma, { restricted: true });
    const user = await createUser(db.prisma, { role: "curator" });
    await addMember(db.prisma, user.id, project.id, "editor");
    expect(await loadSessionPrincipal(db.prisma, claimsFor(user.id))).toMatchObject({ readableProjectIds: [project.id], editableProjectIds: [project.id] });

    await setMembership(db.prisma, admin, { projectId: project.id, userId: user.id, role: "reader" });
    expect(await loadSessionPrincipal(db.prisma, claimsFor(user.id))).toMatchObject({ readableProjectIds: [project.id], editableProjectIds: [] });
    await setMembership(db.prisma, admin, { projectId: project.id, userId: user.id, role: null });
    expect(await loadSessionPrincipal(db.prisma, claimsFor(user.id))).toMatchObject({ readableProjectIds: [], editableProjectIds: [] });
  });

  it("is a cache: a change written behind the app's back shows when the entry is forgotten (another process: when it expires)", async () => {
    const project = await createProject(db.prisma, { restricted: true });
    const user = await createUser(db.prisma);
    expect(await loadSessionPrincipal(db.prisma, claimsFor(user.id))).toMatchObject({ readableProjectIds: [] });
    await addMember(db.prisma, user.id, project.id);
    // What another process would still serve for up to MNEMO_PRINCIPAL_CACHE_MS (default 5 s)…
    expect(await loadSessionPrincipal(db.prisma, claimsFor(user.id))).toMatchObject({ readableProjectIds: [] });
    // …while background work and the deactivation check read the database every time.
    expect((await principalOf(db.prisma, user.id)).readableProjectIds).toEqual([project.id]);
    await db.prisma.user.update({ where: { id: user.id }, data: { active: false } });
    expect(await loadSessionPrincipal(db.prisma, claimsFor(user.id))).toBeNull();
    await db.prisma.user.update({ where: { id: user.id }, data: { active: true } });
    forgetProjectSets(db.prisma, user.id);
    expect(await loadSessionPrincipal(db.prisma, claimsFor(user.id))).toMatchObject({ readableProjectIds: [project.id] });
  });

  it("shows a section's egress change made through the admin at once, and a new section at once", async () => {
    const admin = await principalOf(db.prisma, (await createUser(db.prisma, { role: "admin" })).id);
    const section = await createSection(db.prisma);
    const policyOf = async (slug: string) => (await listSectionsCached(db.prisma)).find((item) => item.slug === slug)?.egressPolicy;
    expect(await policyOf(section.slug)).toBe("local_only");
    await setSectionEgress(db.prisma, admin, { sectionSlug: section.slug, policy: "allow_external" });
    expect(await policyOf(section.slug)).toBe("allow_external");
    // A caller changing its copy changes nothing for the next.
    (await listSectionsCached(db.prisma)).forEach((item) => item.fields.splice(0));
    expect((await listSectionsCached(db.prisma)).find((item) => item.slug === section.slug)?.fields.length).toBeGreaterThan(0);
  });
});
