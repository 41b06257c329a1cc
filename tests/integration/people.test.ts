import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "../../lib/acl";
import { createProjectAsAdmin } from "../../lib/admin/people/create-project";
import { createUserAsAdmin } from "../../lib/admin/people/create-user";
import { listProjectsWithMembers } from "../../lib/admin/people/list-projects-with-members";
import { listUsers } from "../../lib/admin/people/list-users";
import { resetPassword } from "../../lib/admin/people/reset-password";
import { setMembership } from "../../lib/admin/people/set-membership";
import { setSectionEgress } from "../../lib/admin/people/set-section-egress";
import { setUserActive } from "../../lib/admin/people/set-user-active";
import { setUserRole } from "../../lib/admin/people/set-user-role";
import { authenticateWithPassword } from "../../lib/auth/authenticate";
import { loadPrincipal } from "../../lib/auth/load-principal";
import type { Database } from "../../lib/db/database";
import { AppError } from "../../lib/errors";
import { createProject, createSection, createUser, principalOf } from "../support/factories";
import { openTestDatabase } from "../support/test-database";

/**
 * People and policy: only admins manage users, projects, members and egress; inputs are
 * validated with messages per field; deactivation and password resets end sessions at once;
 * every change is audited.
 */
let db: Database;
let admin: Principal;
let curator: Principal;

beforeAll(async () => {
  db = await openTestDatabase();
  admin = await principalOf(db.prisma, (await createUser(db.prisma, { role: "admin" })).id);
  curator = await principalOf(db.prisma, (await createUser(db.prisma, { role: "curator" })).id);
}, 60_000);

afterAll(async () => {
  await db?.close();
});

describe("people and policy", () => {
  it("is out of reach for anyone but an admin", async () => {
    const someone = (await createUser(db.prisma)).id;
    const project = (await createProject(db.prisma)).id;
    const attempts = [
      listUsers(db.prisma, curator),
      createUserAsAdmin(db.prisma, curator, { email: "x@example.test", name: "X", role: "admin", password: "a-long-password" }),
      setUserRole(db.prisma, curator, { userId: someone, role: "admin" }),
      resetPassword(db.prisma, curator, { userId: someone, password: "another-long-one" }),
      setUserActive(db.prisma, curator, { userId: someone, active: false }),
      listProjectsWithMembers(db.prisma, curator),
      createProjectAsAdmin(db.prisma, curator, { slug: "sneaky", name: "Sneaky" }),
      setMembership(db.prisma, curator, { projectId: project, userId: curator.userId, role: "editor" }),
      setSectionEgress(db.prisma, curator, { sectionSlug: "anything", policy: "allow_external" }),
    ];
    for (const attempt of attempts) await expect(attempt).rejects.toMatchObject({ code: "not_found" });
    expect(await db.prisma.membership.count({ where: { userId: curator.userId } })).toBe(0);
    expect(await db.prisma.user.count({ where: { email: "x@example.test" } })).toBe(0);
  });

  it("creates users with validation per field, and refuses a duplicate email", async () => {
    const bad = await createUserAsAdmin(db.prisma, admin, { email: "not-an-email", name: "", role: "king", password: "short" }).catch(
      (error: unknown) => error,
    );
    expect(bad).toBeInstanceOf(AppError);
    expect(Object.keys((bad as AppError).fieldErrors ?? {}).sort()).toEqual(["email", "name", "password", "role"]);
    const created = await createUserAsAdmin(db.prisma, admin, {
      email: " New.Person@Example.test ",
      name: "New Person",
      role: "researcher",
      password: "correct horse battery",
    });
    const user = await db.prisma.user.findUniqueOrThrow({ where: { id: created.id } });
    expect(user.email).toBe("new.person@example.test");
    await expect(
      createUserAsAdmin(db.prisma, admin, { email: "new.person@example.test", name: "Again", role: "researcher", password: "correct horse battery" }),
    ).rejects.toMatchObject({ code: "bad_request", fieldErrors: { email: ["A user with this email already exists."] } });
    const signedIn = await authenticateWithPassword(
      db.prisma,
      { email: "new.person@example.test", password: "correct horse battery", address: "127.0.0.1" },
      { maxFailures: 5, windowMinutes: 15, delaySeconds: 30 },
    );
    expect(signedIn.id).toBe(created.id);
  });

  it("deactivating a user or resetting their password ends their sessions", async () => {
    const user = await createUser(db.prisma, { role: "researcher" });
    expect(await loadPrincipal(db.prisma, user.id, 0)).not.toBeNull();
    await resetPassword(db.prisma, admin, { userId: user.id, password: "a brand new password" });
    expect(await loadPrincipal(db.prisma, user.id, 0)).toBeNull();
    expect(await loadPrincipal(db.prisma, user.id, 1)).not.toBeNull();
    await setUserActive(db.prisma, admin, { userId: user.id, active: false });
    expect(await loadPrincipal(db.prisma, user.id, 1)).toBeNull();
    expect(await loadPrincipal(db.prisma, user.id, 2)).toBeNull();
    await setUserActive(db.prisma, admin, { userId: user.id, active: true });
    expect(await loadPrincipal(db.prisma, user.id, 2)).not.toBeNull();
    await expect(setUserActive(db.prisma, admin, { userId: admin.userId, active: false })).rejects.toMatchObject({ code: "bad_request" });
    await expect(setUserRole(db.prisma, admin, { userId: admin.userId, role: "researcher" })).rejects.toMatchObject({ code: "bad_request" });
    const actions = (await db.prisma.auditEvent.findMany({ where: { targetId: user.id } })).map((event) => event.action).sort();
    expect(actions).toEqual(["user.activate", "user.deactivate", "user.password_reset"]);
  });

  it("manages projects and members, which take effect on the member's next request", async () => {
    const bad = await createProjectAsAdmin(db.prisma, admin, { slug: "No Spaces", name: "" }).catch((error: unknown) => error);
    expect(Object.keys((bad as AppError).fieldErrors ?? {}).sort()).toEqual(["name", "slug"]);
    const project = await createProjectAsAdmin(db.prisma, admin, { slug: "river-trades", name: "River trades", restricted: true });
    const member = await createUser(db.prisma, { role: "curator" });
    await setMembership(db.prisma, admin, { projectId: project.id, email: member.email, role: "reader" });
    expect((await loadPrincipal(db.prisma, member.id, 0))?.readableProjectIds).toEqual([project.id]);
    expect((await loadPrincipal(db.prisma, member.id, 0))?.editableProjectIds).toEqual([]);
    await setMembership(db.prisma, admin, { projectId: project.id, userId: member.id, role: "editor" });
    expect((await loadPrincipal(db.prisma, member.id, 0))?.editableProjectIds).toEqual([project.id]);
    const listed = (await listProjectsWithMembers(db.prisma, admin)).find((candidate) => candidate.id === project.id);
    expect(listed?.members.map((entry) => [entry.email, entry.role])).toEqual([[member.email, "editor"]]);
    await setMembership(db.prisma, admin, { projectId: project.id, userId: member.id, role: null });
    expect((await loadPrincipal(db.prisma, member.id, 0))?.readableProjectIds).toEqual([]);
    await expect(setMembership(db.prisma, admin, { projectId: project.id, email: "nobody@example.test", role: "reader" })).rejects.toMatchObject({
      code: "bad_request",
    });
    expect((await db.prisma.auditEvent.findMany({ where: { targetId: project.id } })).map((event) => event.action).sort()).toEqual([
      "membership.add",
      "membership.change",
      "membership.remove",
      "project.create",
    ]);
  });

  it("sets a section's egress policy, validated and audited", async () => {
    const section = await createSection(db.prisma);
    await expect(setSectionEgress(db.prisma, admin, { sectionSlug: section.slug, policy: "everywhere" })).rejects.toMatchObject({ code: "bad_request" });
    await setSectionEgress(db.prisma, admin, { sectionSlug: section.slug, policy: "allow_external" });
    expect((await db.prisma.section.findUniqueOrThrow({ where: { id: section.id } })).egressPolicy).toBe("allow_external");
    expect(await db.prisma.auditEvent.count({ where: { action: "section.egress", targetId: section.id } })).toBe(1);
  });
});
