import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "../../lib/acl";
import { resetPassword } from "../../lib/admin/people/reset-password";
import { setMembership } from "../../lib/admin/people/set-membership";
import { setUserActive } from "../../lib/admin/people/set-user-active";
import { authenticateApiToken, createApiToken, hashToken, listApiTokens, revokeApiToken } from "../../lib/auth/api-tokens";
import type { Database } from "../../lib/db/database";
import { AppError } from "../../lib/errors";
import { createProject, createUser, principalOf } from "../support/factories";
import { openTestDatabase } from "../support/test-database";

/**
 * Personal API tokens (issue 8, first step): shown once and stored hashed; a token acts as its
 * user with the user's current permissions; expired, revoked, malformed and unknown tokens are
 * all refused alike; deactivation and password resets end every token.
 */
let db: Database;
let admin: Principal;
let owner: Principal;
let other: Principal;
let projectId: string;

beforeAll(async () => {
  db = await openTestDatabase();
  admin = await principalOf(db.prisma, (await createUser(db.prisma, { role: "admin" })).id);
  const ownerUser = await createUser(db.prisma, { role: "researcher" });
  projectId = (await createProject(db.prisma)).id;
  owner = await principalOf(db.prisma, ownerUser.id);
  other = await principalOf(db.prisma, (await createUser(db.prisma)).id);
}, 60_000);

afterAll(async () => {
  await db?.close();
});

describe("personal API tokens", () => {
  it("are shown once, stored hashed, validated, and act with the user's current permissions", async () => {
    const invalid = await createApiToken(db.prisma, owner, { name: "", expiresInDays: 400 }).catch((error: unknown) => error);
    expect(Object.keys((invalid as AppError).fieldErrors ?? {}).sort()).toEqual(["expiresInDays", "name"]);
    const { token, summary } = await createApiToken(db.prisma, owner, { name: "Zotero plugin", expiresInDays: 30 });
    expect(token).toMatch(/^mnemo_[A-Za-z0-9_-]{43}$/);
    const stored = await db.prisma.apiToken.findUniqueOrThrow({ where: { id: summary.id } });
    expect(stored.tokenHash).toBe(hashToken(token));
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(JSON.stringify(await listApiTokens(db.prisma, owner))).not.toContain(stored.tokenHash);
    expect(await listApiTokens(db.prisma, other)).toEqual([]);

    expect((await authenticateApiToken(db.prisma, `Bearer ${token}`))?.readableProjectIds).toEqual([]);
    // Through the people admin, as an admin adds a member: the token's next call reads the new sets (lib/auth/load-principal.ts).
    await setMembership(db.prisma, admin, { projectId, userId: owner.userId, role: "reader" });
    expect((await authenticateApiToken(db.prisma, `Bearer ${token}`))?.readableProjectIds).toEqual([projectId]);
  });

  it("refuse expired, revoked, malformed and unknown tokens alike", async () => {
    const { token, summary } = await createApiToken(db.prisma, owner, { name: "Short-lived", expiresInDays: 1 });
    expect(await authenticateApiToken(db.prisma, token)).not.toBeNull();
    await db.prisma.apiToken.update({ where: { id: summary.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await authenticateApiToken(db.prisma, token)).toBeNull();

    const second = await createApiToken(db.prisma, owner, { name: "Revoked", expiresInDays: 5 });
    await expect(revokeApiToken(db.prisma, other, second.summary.id)).rejects.toMatchObject({ code: "not_found" });
    expect(await authenticateApiToken(db.prisma, second.token)).not.toBeNull();
    await revokeApiToken(db.prisma, owner, second.summary.id);
    expect(await authenticateApiToken(db.prisma, second.token)).toBeNull();
    await expect(revokeApiToken(db.prisma, owner, second.summary.id)).rejects.toMatchObject({ code: "not_found" });

    for (const bad of [undefined, "", "Bearer", "mnemo_short", `${second.token}x`, "x".repeat(5000), "'; DROP TABLE api_tokens; --"]) {
      expect(await authenticateApiToken(db.prisma, bad)).toBeNull();
    }
    expect(await db.prisma.auditEvent.count({ where: { action: "token.revoke", targetId: second.summary.id } })).toBe(1);
  });

  it("die with a password reset or a deactivation", async () => {
    const user = await createUser(db.prisma);
    const principal = await principalOf(db.prisma, user.id);
    const first = await createApiToken(db.prisma, principal, { name: "Before reset", expiresInDays: 10 });
    await resetPassword(db.prisma, admin, { userId: user.id, password: "a brand new password" });
    expect(await authenticateApiToken(db.prisma, first.token)).toBeNull();
    const refreshed = await principalOf(db.prisma, user.id).catch(() => null);
    const fresh = await createApiToken(db.prisma, refreshed ?? principal, { name: "After reset", expiresInDays: 10 });
    expect(await authenticateApiToken(db.prisma, fresh.token)).not.toBeNull();
    await setUserActive(db.prisma, admin, { userId: user.id, active: false });
    expect(await authenticateApiToken(db.prisma, fresh.token)).toBeNull();
  });
});
