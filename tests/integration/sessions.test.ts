import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listAuditLog } from "../../lib/admin/audit-log";
import { loadSessionPrincipal, revokeSession, sessionLifetimeSeconds, type SessionClaims } from "../../lib/auth/sessions";
import type { Database } from "../../lib/db/database";
import { createUser, principalOf } from "../support/factories";
import { openTestDatabase, testDatabaseMode } from "../support/test-database";

let db: Database;

beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(async () => {
  await db.close();
});

const nowSeconds = () => Math.floor(Date.now() / 1000);

function claimsFor(userId: string, overrides: Partial<SessionClaims> = {}): SessionClaims {
  return { userId, sessionVersion: 0, sessionId: randomUUID(), signedInAt: nowSeconds() - 60, ...overrides };
}

describe(`browser sessions (${testDatabaseMode()})`, () => {
  it("signing out ends that session and only that one", async () => {
    const user = await createUser(db.prisma);
    const signedOut = claimsFor(user.id);
    const other = claimsFor(user.id);
    expect(await loadSessionPrincipal(db.prisma, signedOut)).toMatchObject({ userId: user.id });

    await revokeSession(db.prisma, signedOut);
    // The same cookie, replayed, no longer stands for anyone; the other browser goes on.
    expect(await loadSessionPrincipal(db.prisma, signedOut)).toBeNull();
    expect(await loadSessionPrincipal(db.prisma, other)).toMatchObject({ userId: user.id });
    // The sign-out is in the audit log, among the sign-ins.
    const admin = await principalOf(db.prisma, (await createUser(db.prisma, { role: "admin" })).id);
    const log = await listAuditLog(db.sql, admin, { kind: "sign-ins", actor: user.email });
    expect(log.entries.map((entry) => entry.action)).toEqual(["sign-out"]);

    // Signing out twice (two tabs) is harmless.
    await revokeSession(db.prisma, signedOut);
    expect(await db.prisma.revokedSession.count({ where: { sessionId: signedOut.sessionId } })).toBe(1);
  });

  it("keeps a revocation as long as the session could live, and then clears it", async () => {
    const user = await createUser(db.prisma);
    const claims = claimsFor(user.id);
    await revokeSession(db.prisma, claims);
    const row = await db.prisma.revokedSession.findUniqueOrThrow({ where: { sessionId: claims.sessionId } });
    expect(row.expiresAt.getTime()).toBe((claims.signedInAt + sessionLifetimeSeconds) * 1000);

    // Once the lifetime is over the session is refused by its age, and the next sign-out clears the row.
    const afterLifetime = new Date(row.expiresAt.getTime() + 1000);
    expect(await loadSessionPrincipal(db.prisma, claims, afterLifetime)).toBeNull();
    await revokeSession(db.prisma, claimsFor(user.id), afterLifetime);
    expect(await db.prisma.revokedSession.count({ where: { sessionId: claims.sessionId } })).toBe(0);
  });

  it("refuses sessions past their lifetime, from the future, without an id, or of an older session version", async () => {
    const user = await createUser(db.prisma);
    expect(await loadSessionPrincipal(db.prisma, claimsFor(user.id, { signedInAt: nowSeconds() - sessionLifetimeSeconds - 1 }))).toBeNull();
    expect(await loadSessionPrincipal(db.prisma, claimsFor(user.id, { signedInAt: nowSeconds() + 3600 }))).toBeNull();
    // A cookie issued before sessions had ids cannot be revoked, so it is not accepted.
    expect(await loadSessionPrincipal(db.prisma, { userId: user.id, sessionVersion: 0, sessionId: "", signedInAt: 0 })).toBeNull();
    expect(await loadSessionPrincipal(db.prisma, { userId: user.id, sessionVersion: 0 })).toBeNull();
    expect(await loadSessionPrincipal(db.prisma, null)).toBeNull();
    await db.prisma.user.update({ where: { id: user.id }, data: { sessionVersion: 1 } });
    expect(await loadSessionPrincipal(db.prisma, claimsFor(user.id))).toBeNull();
    expect(await loadSessionPrincipal(db.prisma, claimsFor(user.id, { sessionVersion: 1 }))).toMatchObject({ userId: user.id });
  });
});
