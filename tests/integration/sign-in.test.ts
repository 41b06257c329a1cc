import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticateWithPassword } from "../../lib/auth/authenticate";
import { loadPrincipal } from "../../lib/auth/load-principal";
import type { Database } from "../../lib/db/database";
import { AppError } from "../../lib/errors";
import { addMember, createProject, createUser } from "../support/factories";
import { openTestDatabase, testDatabaseMode } from "../support/test-database";

let db: Database;
const limits = { maxFailures: 3, windowMinutes: 15 };

beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(async () => {
  await db.close();
});

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "ok";
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
}

describe(`password sign-in (${testDatabaseMode()})`, () => {
  it("accepts the right password (argon2id) and audits the sign-in", async () => {
    const user = await createUser(db.prisma, { role: "curator", password: "correct horse" });
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    const signedIn = await authenticateWithPassword(db.prisma, { email: user.email.toUpperCase(), password: "correct horse", address: "10.0.0.1" }, limits);
    expect(signedIn).toMatchObject({ id: user.id, role: "curator" });
    expect(await db.prisma.auditEvent.count({ where: { actorId: user.id, action: "user.sign_in" } })).toBe(1);
  });

  it("gives a wrong password and an unknown account the same answer", async () => {
    const user = await createUser(db.prisma, { password: "secret one" });
    expect(await codeOf(authenticateWithPassword(db.prisma, { email: user.email, password: "nope", address: "10.0.0.2" }, limits))).toBe("unauthorized");
    expect(await codeOf(authenticateWithPassword(db.prisma, { email: "ghost@example.test", password: "nope", address: "10.0.0.2" }, limits))).toBe("unauthorized");
  });

  it("rate-limits an account after repeated failures, even from new addresses and with the right password", async () => {
    const user = await createUser(db.prisma, { password: "right password" });
    for (let attempt = 0; attempt < limits.maxFailures; attempt++) {
      expect(await codeOf(authenticateWithPassword(db.prisma, { email: user.email, password: `wrong ${attempt}`, address: `10.1.0.${attempt}` }, limits))).toBe("unauthorized");
    }
    expect(await codeOf(authenticateWithPassword(db.prisma, { email: user.email, password: "right password", address: "10.1.9.9" }, limits))).toBe("rate_limited");
  });

  it("rate-limits an address that tries many accounts", async () => {
    const address = "10.2.0.1";
    for (let attempt = 0; attempt < limits.maxFailures * 4; attempt++) {
      await codeOf(authenticateWithPassword(db.prisma, { email: `spray${attempt}@example.test`, password: "x", address }, limits));
    }
    const user = await createUser(db.prisma, { password: "fine" });
    expect(await codeOf(authenticateWithPassword(db.prisma, { email: user.email, password: "fine", address }, limits))).toBe("rate_limited");
    expect(await codeOf(authenticateWithPassword(db.prisma, { email: user.email, password: "fine", address: "10.2.0.2" }, limits))).toBe("ok");
  });

  it("refuses deactivated users and sessions older than a session-version bump", async () => {
    const user = await createUser(db.prisma, { password: "pw" });
    const project = await createProject(db.prisma);
    await addMember(db.prisma, user.id, project.id, "editor");
    expect(await loadPrincipal(db.prisma, user.id, 0)).toMatchObject({ readableProjectIds: [project.id], editableProjectIds: [project.id] });
    await db.prisma.user.update({ where: { id: user.id }, data: { sessionVersion: 1 } });
    expect(await loadPrincipal(db.prisma, user.id, 0)).toBeNull();
    await db.prisma.user.update({ where: { id: user.id }, data: { active: false } });
    expect(await loadPrincipal(db.prisma, user.id, 1)).toBeNull();
    expect(await codeOf(authenticateWithPassword(db.prisma, { email: user.email, password: "pw", address: "10.3.0.1" }, limits))).toBe("unauthorized");
  });
});
