import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Principal, publicReader, withPublicProjects } from "../../lib/acl";
import { setProjectPublic } from "../../lib/admin/people/set-project-public";
import { listPublicProjects, publicProjectIds } from "../../lib/archive/public-projects";
import { mediaResponse } from "../../lib/archive/serve-media";
import type { Database } from "../../lib/db/database";
import { addMember, createProject, createRecord, createSection, createUser, principalOf, storeTestImage, temporaryStorageDir } from "../support/factories";
import { appErrorOf } from "../support/app-error-of";
import { openTestDatabase } from "../support/test-database";

/**
 * Projects an admin marks public: only an admin may mark them, a restricted project never
 * becomes public, the change is audited, and the public reader (no session, no token) reads the
 * media of public projects' records and nothing else — a record of any other project is the
 * same "not found" as a missing one, and stops being served the moment the project is unpublished.
 */
let db: Database;
let storageDir: string;
let admin: Principal;
let curator: Principal;
let projects: { open: { id: string; slug: string }; other: { id: string; slug: string }; locked: { id: string; slug: string } };
let media: { open: string; other: string };
const missingId = "00000000-0000-4000-8000-000000000000";

beforeAll(async () => {
  db = await openTestDatabase();
  storageDir = temporaryStorageDir();
  const { prisma } = db;
  projects = { open: await createProject(prisma), other: await createProject(prisma), locked: await createProject(prisma, { restricted: true }) };
  const section = await createSection(prisma);
  media = { open: (await storeTestImage(prisma, projects.open.id, storageDir)).id, other: (await storeTestImage(prisma, projects.other.id, storageDir)).id };
  await createRecord(prisma, section, projects.open.id, { title: "Open letter", photo: media.open });
  await createRecord(prisma, section, projects.other.id, { title: "Members' letter", photo: media.other });
  admin = await principalOf(prisma, (await createUser(prisma, { role: "admin" })).id);
  const curatorUser = await createUser(prisma, { role: "curator" });
  await addMember(prisma, curatorUser.id, projects.open.id, "editor");
  curator = await principalOf(prisma, curatorUser.id);
});

afterAll(async () => {
  await db.close();
});

const request = () => ({ range: null, method: "GET" as const, storageDir });

describe("public projects", () => {
  it("are marked by admins only, never when restricted, and each change is audited", async () => {
    expect((await appErrorOf(setProjectPublic(db.prisma, curator, { projectSlug: projects.open.slug, isPublic: true }))).code).toBe("not_found");
    expect((await appErrorOf(setProjectPublic(db.prisma, admin, { projectSlug: projects.locked.slug, isPublic: true }))).code).toBe("bad_request");
    expect((await appErrorOf(setProjectPublic(db.prisma, admin, { projectSlug: "no-such-project", isPublic: true }))).code).toBe("not_found");
    expect((await appErrorOf(setProjectPublic(db.prisma, admin, { projectSlug: projects.open.slug, isPublic: "yes" }))).code).toBe("bad_request");
    expect(await publicProjectIds(db.prisma)).toEqual([]);

    const before = new Date();
    await setProjectPublic(db.prisma, admin, { projectSlug: projects.open.slug, isPublic: true });
    expect(await publicProjectIds(db.prisma)).toEqual([projects.open.id]);
    const [listed] = await listPublicProjects(db.prisma);
    expect(listed?.slug).toBe(projects.open.slug);
    expect(listed!.publicSince.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
    const events = await db.prisma.auditEvent.findMany({ where: { targetId: projects.open.id, action: { startsWith: "project." } } });
    expect(events.map((event) => event.action)).toEqual(["project.publish"]);
  });

  it("serve their records' media to the public reader, and nothing of another project", async () => {
    const reader = publicReader(await publicProjectIds(db.prisma));
    const served = await mediaResponse(db.prisma, reader, { ...request(), id: media.open });
    expect(served.status).toBe(200);
    expect((await served.arrayBuffer()).byteLength).toBeGreaterThan(0);
    const denied = await appErrorOf(mediaResponse(db.prisma, reader, { ...request(), id: media.other }));
    const missing = await appErrorOf(mediaResponse(db.prisma, reader, { ...request(), id: missingId }));
    expect(denied).toEqual(missing);
    expect(denied.code).toBe("not_found");
    // A member of no project, signed in, reads the public records too, and no more.
    const nobody = withPublicProjects(await principalOf(db.prisma, (await createUser(db.prisma)).id), await publicProjectIds(db.prisma));
    expect((await mediaResponse(db.prisma, nobody, { ...request(), id: media.open })).status).toBe(200);
    expect(await appErrorOf(mediaResponse(db.prisma, nobody, { ...request(), id: media.other }))).toEqual(missing);
  });

  it("stop being served when unpublished", async () => {
    await setProjectPublic(db.prisma, admin, { projectSlug: projects.open.slug, isPublic: false });
    const reader = publicReader(await publicProjectIds(db.prisma));
    expect(reader.readableProjectIds).toEqual([]);
    const missing = await appErrorOf(mediaResponse(db.prisma, reader, { ...request(), id: missingId }));
    expect(await appErrorOf(mediaResponse(db.prisma, reader, { ...request(), id: media.open }))).toEqual(missing);
    const events = await db.prisma.auditEvent.findMany({ where: { targetId: projects.open.id, action: { startsWith: "project." } }, orderBy: { at: "asc" } });
    expect(events.map((event) => event.action)).toEqual(["project.publish", "project.unpublish"]);
  });
});
