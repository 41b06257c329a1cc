import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { randomUUID } from "node:crypto";
import type { Principal } from "../../lib/acl";
import { saveRecord } from "../../lib/archive/save-record";
import type { Database } from "../../lib/db/database";
import { AppError } from "../../lib/errors";
import { openSavedSearchResponse, savedSearchResponse, savedSearchRouteParamsSchema, savedSearchesResponse } from "../../lib/http/saved-search-responses";
import { runAuthorizedRoute } from "../../lib/http/run-authorized";
import { createHashEmbedder } from "../../lib/rag/embed/hash-embedder";
import type { IndexSpace } from "../../lib/rag/index/index-spaces";
import { runWorker } from "../../lib/rag/index/run-worker";
import type { RecordListViewDeps } from "../../lib/rag/search/record-list-view";
import { clearResolvedSearches } from "../../lib/rag/search/resolve-search";
import {
  type SavedSearchSummary,
  countNewSinceLastVisit,
  createSavedSearch,
  deleteSavedSearch,
  getSavedSearch,
  listSavedSearches,
  listSavedSearchesWithNews,
  maxSavedSearchesPerUser,
  newSinceLastVisitCap,
  openSavedSearch,
  renameSavedSearch,
} from "../../lib/rag/search/saved-searches";
import {
  addMember,
  createProject,
  createRecord,
  createSection,
  createUser,
  principalOf,
  saveAllGroup,
  testIndexSpace,
  titleSummaryFields,
} from "../support/factories";
import { englishOnly } from "../support/service-runtime";
import { openTestDatabase, testDatabaseMode } from "../support/test-database";

/**
 * Saved searches (lib/rag/search/saved-searches.ts): a user's named list state, theirs alone
 * (anyone else — an admin too — gets the same 404 as for a missing id), and "new since last
 * visit": readable matching records created, or moved into a readable project, after the last
 * visit — never one the user cannot read now — reset by opening the search.
 */
const embedder = createHashEmbedder({ dimension: 64 });
const origin = "http://mnemo.test";

let db: Database;
let space: IndexSpace;
let deps: RecordListViewDeps;
let section: { id: string; slug: string };
let openProject: string;
let otherOpenProject: string;
let restrictedProject: string;
let reader: Principal;
let stranger: Principal;
let admin: Principal;
let nobody: Principal;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function expectRefused(run: () => Promise<unknown>, status: number, message?: RegExp): Promise<AppError> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(status);
    if (message) expect((error as AppError).message).toMatch(message);
    return error as AppError;
  }
  throw new Error("expected a refusal");
}

async function newCount(principal: Principal, saved: SavedSearchSummary): Promise<number | null> {
  clearResolvedSearches();
  const fresh = await getSavedSearch(db.prisma, principal, saved.id);
  return (await countNewSinceLastVisit(deps, principal, fresh)).newSinceLastVisit?.count ?? null;
}

/** A record of the list's section in a project, saved by the admin (who may edit everywhere). */
function addRecord(projectId: string, title: string, summary = "An ordinary entry.") {
  return createRecord(db.prisma, section, projectId, { title, summary }, admin);
}

async function moveRecord(id: string, projectId: string): Promise<void> {
  const record = await db.prisma.record.findUniqueOrThrow({ where: { id } });
  await saveRecord(db.prisma, admin, { id, version: record.version, sectionSlug: section.slug, projectId, values: record.values as Record<string, unknown> });
}

const index = () => runWorker({ prisma: db.prisma, sql: db.sql, embedder, space, drain: true, idleMs: 10, batchSize: 32 });

/** The route handlers as their routes run them, with `principal` signed in. */
const routes = {
  collection: (principal: Principal | null, method: string, body?: unknown) =>
    runAuthorizedRoute(
      z.unknown(),
      (request, context) => savedSearchesResponse(deps, context.principal, request),
      async () => principal,
      new Request(`${origin}/api/saved-searches`, {
        method,
        ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
      }),
      {},
    ),
  one: (principal: Principal | null, method: string, id: string, body?: unknown) =>
    runAuthorizedRoute(
      savedSearchRouteParamsSchema,
      (request, context) => savedSearchResponse(deps, context.principal, request, context.params.id),
      async () => principal,
      new Request(`${origin}/api/saved-searches/${encodeURIComponent(id)}`, {
        method,
        ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
      }),
      { id },
    ),
  open: (principal: Principal | null, id: string) =>
    runAuthorizedRoute(
      savedSearchRouteParamsSchema,
      (_request, context) => openSavedSearchResponse(deps, context.principal, context.params.id),
      async () => principal,
      new Request(`${origin}/account/searches/${encodeURIComponent(id)}/open`),
      { id },
    ),
};

beforeAll(async () => {
  db = await openTestDatabase();
  space = await testIndexSpace(db.sql, embedder);
  section = await createSection(db.prisma, titleSummaryFields);
  await saveAllGroup(db.prisma, db.sql, section.slug, ["title", "summary"]);
  openProject = (await createProject(db.prisma)).id;
  otherOpenProject = (await createProject(db.prisma)).id;
  restrictedProject = (await createProject(db.prisma, { restricted: true })).id;
  admin = await principalOf(db.prisma, (await createUser(db.prisma, { role: "admin" })).id);
  const readerUser = await createUser(db.prisma);
  await addMember(db.prisma, readerUser.id, openProject);
  await addMember(db.prisma, readerUser.id, otherOpenProject);
  reader = await principalOf(db.prisma, readerUser.id);
  const strangerUser = await createUser(db.prisma);
  await addMember(db.prisma, strangerUser.id, openProject);
  stranger = await principalOf(db.prisma, strangerUser.id);
  nobody = await principalOf(db.prisma, (await createUser(db.prisma)).id);
  deps = { prisma: db.prisma, sql: db.sql, searchContext: async () => ({ sql: db.sql, embedder, space, prepare: englishOnly }) };
  for (let number = 0; number < 3; number++) await addRecord(openProject, `Old ledger ${number}`);
  await addRecord(restrictedProject, "Old sealed ledger");
  await index();
}, 180_000);

afterAll(async () => {
  await db?.close();
});

describe(`saved searches (${testDatabaseMode()})`, () => {
  it("saves, lists, renames and deletes a user's own searches, params normalised and the page never kept", async () => {
    const saved = await createSavedSearch(db.prisma, reader, {
      name: "  Ledgers, newest  ",
      params: { section: section.slug, sort: "-date", page: "4", pageSize: "50", q: "  " },
    });
    expect(saved.name).toBe("Ledgers, newest");
    expect(saved.params).toEqual({ section: section.slug, sort: "-date" });
    expect(saved.href).toBe(`/records?section=${section.slug}&sort=-date`);
    expect((await listSavedSearches(db.prisma, reader)).map((item) => item.id)).toContain(saved.id);

    const renamed = await renameSavedSearch(db.prisma, reader, saved.id, { name: "Ledgers by date" });
    expect(renamed.name).toBe("Ledgers by date");
    expect((await getSavedSearch(db.prisma, reader, saved.id)).name).toBe("Ledgers by date");
    // Renaming to its own name (another case) is not a duplicate of itself.
    expect((await renameSavedSearch(db.prisma, reader, saved.id, { name: "LEDGERS BY DATE" })).name).toBe("LEDGERS BY DATE");

    await deleteSavedSearch(db.prisma, reader, saved.id);
    await expectRefused(() => getSavedSearch(db.prisma, reader, saved.id), 404);
    await expectRefused(() => deleteSavedSearch(db.prisma, reader, saved.id), 404);
  });

  it("refuses a duplicate name per user with a clear message, but another user may use it", async () => {
    const first = await createSavedSearch(db.prisma, reader, { name: "Strikes", params: { q: "strike" } });
    const duplicate = await expectRefused(
      () => createSavedSearch(db.prisma, reader, { name: "strikes ", params: {} }),
      409,
      /already have a saved search with this name/,
    );
    expect(duplicate.fieldErrors?.name?.[0]).toMatch(/choose another/);
    const second = await createSavedSearch(db.prisma, reader, { name: "Strikes 2", params: {} });
    await expectRefused(() => renameSavedSearch(db.prisma, reader, second.id, { name: "STRIKES" }), 409, /already have a saved search with this name/);
    const theirs = await createSavedSearch(db.prisma, stranger, { name: "Strikes", params: {} });
    expect(theirs.name).toBe("Strikes");
    for (const id of [first.id, second.id]) await deleteSavedSearch(db.prisma, reader, id);
    await deleteSavedSearch(db.prisma, stranger, theirs.id);
  });

  it("validates names, params and ids, writing nothing", async () => {
    const before = await db.prisma.savedSearch.count();
    await expectRefused(() => createSavedSearch(db.prisma, reader, { name: "   ", params: {} }), 400, /Name the search/);
    await expectRefused(() => createSavedSearch(db.prisma, reader, { params: {} }), 400, /Name the search/);
    await expectRefused(() => createSavedSearch(db.prisma, reader, { name: "x".repeat(121), params: {} }), 400, /at most 120 characters/);
    expect((await createSavedSearch(db.prisma, reader, { name: "y".repeat(120), params: {} })).name).toHaveLength(120);
    await db.prisma.savedSearch.deleteMany({ where: { name: "y".repeat(120) } });
    const nul = await expectRefused(() => createSavedSearch(db.prisma, reader, { name: "bad\u0000name", params: {} }), 400);
    expect(nul.fieldErrors?.name?.[0]).toMatch(/NUL/);
    await expectRefused(() => createSavedSearch(db.prisma, reader, { name: "half \uD800", params: {} }), 400);
    await expectRefused(() => createSavedSearch(db.prisma, reader, { name: "Years", params: { from: "2000", to: "1900" } }), 400, /cannot be saved/);
    await expectRefused(() => createSavedSearch(db.prisma, reader, { name: "Params", params: "q=mine" }), 400);
    await expectRefused(() => createSavedSearch(db.prisma, reader, "not an object"), 400);
    for (const id of ["", "not-a-uuid", "'; DROP TABLE saved_searches; --", `${randomUUID()}x`]) {
      await expectRefused(() => getSavedSearch(db.prisma, reader, id), 404);
      await expectRefused(() => renameSavedSearch(db.prisma, reader, id, { name: "x" }), 404);
      await expectRefused(() => deleteSavedSearch(db.prisma, reader, id), 404);
      await expectRefused(() => openSavedSearch(db.prisma, reader, id), 404);
    }
    expect(await db.prisma.savedSearch.count()).toBe(before);
  });

  it("keeps at most the per-user limit", async () => {
    const user = await principalOf(db.prisma, (await createUser(db.prisma)).id);
    await db.prisma.savedSearch.createMany({
      data: Array.from({ length: maxSavedSearchesPerUser }, (_, number) => ({ userId: user.userId, name: `Search ${number}` })),
    });
    await expectRefused(() => createSavedSearch(db.prisma, user, { name: "One more", params: {} }), 409, /delete one first/);
  });

  it("is its user's alone: another user, an admin too, gets the same 404 as for a missing id", async () => {
    const saved = await createSavedSearch(db.prisma, reader, { name: "Mine only", params: { q: "ledger" } });
    const missing = randomUUID();
    for (const other of [stranger, admin, nobody]) {
      expect((await listSavedSearches(db.prisma, other)).map((item) => item.id)).not.toContain(saved.id);
      for (const id of [saved.id, missing]) {
        await expectRefused(() => getSavedSearch(db.prisma, other, id), 404, /^Not found\.$/);
        await expectRefused(() => renameSavedSearch(db.prisma, other, id, { name: "Taken over" }), 404, /^Not found\.$/);
        await expectRefused(() => openSavedSearch(db.prisma, other, id), 404, /^Not found\.$/);
        await expectRefused(() => deleteSavedSearch(db.prisma, other, id), 404, /^Not found\.$/);
      }
      // Through the routes: byte for byte what a missing id gets.
      for (const [method, body] of [["GET"], ["PATCH", { name: "Taken over" }], ["DELETE"]] as const) {
        const theirs = await routes.one(other, method, saved.id, body);
        const absent = await routes.one(other, method, missing, body);
        expect(theirs.status).toBe(404);
        expect(await theirs.text()).toBe(await absent.text());
      }
      const opened = await routes.open(other, saved.id);
      expect(opened.status).toBe(404);
      expect(await opened.text()).toBe(await (await routes.open(other, missing)).text());
      const listed = await routes.collection(other, "GET");
      expect(await listed.text()).not.toContain(saved.id);
    }
    const unchanged = await getSavedSearch(db.prisma, reader, saved.id);
    expect(unchanged.name).toBe("Mine only");
    expect(unchanged.lastVisitedAt).toEqual(saved.lastVisitedAt);
    await deleteSavedSearch(db.prisma, reader, saved.id);
  });

  it("counts readable matching records added since the last visit, never restricted ones, and opening resets the count", async () => {
    const bySection = await createSavedSearch(db.prisma, reader, { name: "New in the section", params: { section: section.slug } });
    const byWords = await createSavedSearch(db.prisma, reader, { name: "Lighthouse", params: { q: "lighthouse", mode: "keyword", section: section.slug } });
    const adminsOwn = await createSavedSearch(db.prisma, admin, { name: "Everything in the section", params: { section: section.slug } });
    const nobodysOwn = await createSavedSearch(db.prisma, nobody, { name: "Nothing to read", params: { section: section.slug } });
    expect(await newCount(reader, bySection)).toBe(0);
    expect(await newCount(reader, byWords)).toBe(0);
    await sleep(20);

    const open = await addRecord(openProject, "Lighthouse keeper's log", "The lighthouse lamp was lit at dusk.");
    const plain = await addRecord(otherOpenProject, "Harbour dues");
    const sealed = await addRecord(restrictedProject, "Sealed lighthouse report", "The lighthouse inquiry, closed.");
    await index();

    expect(await newCount(reader, bySection)).toBe(2);
    // The text query runs through the list's own search: only the record with the word.
    expect(await newCount(reader, byWords)).toBe(1);
    // The admin reads the restricted project: the same kind of search counts it there.
    expect(await newCount(admin, adminsOwn)).toBe(3);
    // A user who may read nothing counts nothing, whatever arrived.
    expect(await newCount(nobody, nobodysOwn)).toBe(0);

    // Moved into a project the reader cannot read: out of every count at once (no reindex needed).
    await moveRecord(open.id, restrictedProject);
    expect(await newCount(reader, bySection)).toBe(1);
    expect(await newCount(reader, byWords)).toBe(0);
    // Moved from the restricted project into a readable one: new to the reader, though created long ago.
    const old = await db.prisma.record.findFirstOrThrow({ where: { title: "Old sealed ledger" } });
    await moveRecord(old.id, openProject);
    await moveRecord(sealed.id, otherOpenProject);
    await index();
    expect(await newCount(reader, bySection)).toBe(3);
    expect(await newCount(reader, byWords)).toBe(1);
    expect(await newCount(nobody, nobodysOwn)).toBe(0);

    // The list, as the page and the API show it.
    const listed = await listSavedSearchesWithNews(deps, reader);
    expect(listed.find((item) => item.id === bySection.id)?.newSinceLastVisit).toEqual({ count: 3, capped: false });
    const api = (await (await routes.collection(reader, "GET")).json()) as { savedSearches: { id: string; newSinceLastVisit: { count: number } }[] };
    expect(api.savedSearches.find((item) => item.id === byWords.id)?.newSinceLastVisit.count).toBe(1);

    // Opening records the visit and redirects to the list; the count starts again.
    await sleep(20);
    const opened = await routes.open(reader, bySection.id);
    expect(opened.status).toBe(303);
    expect(opened.headers.get("location")).toBe(`/records?section=${section.slug}`);
    expect(await newCount(reader, bySection)).toBe(0);
    expect(await newCount(reader, byWords)).toBe(1);
    expect(await openSavedSearch(db.prisma, reader, byWords.id)).toBe(`/records?q=lighthouse&mode=keyword&section=${section.slug}`);
    expect(await newCount(reader, byWords)).toBe(0);
    await sleep(20);
    await addRecord(openProject, "A later lighthouse note", "Lighthouse again.");
    await index();
    expect(await newCount(reader, byWords)).toBe(1);
    expect(plain.id).toBeDefined();
  });

  it("counts the records of a project the user joined since the last visit, and none once the membership ends", async () => {
    const user = await createUser(db.prisma);
    await addMember(db.prisma, user.id, openProject);
    const before = await principalOf(db.prisma, user.id);
    const saved = await createSavedSearch(db.prisma, before, { name: "The section", params: { section: section.slug } });
    expect(await newCount(before, saved)).toBe(0);
    await sleep(20);
    // Joining a restricted project: its old records are new to this user, though created long ago.
    await addMember(db.prisma, user.id, restrictedProject);
    const joined = await principalOf(db.prisma, user.id);
    const inRestricted = await db.prisma.record.count({ where: { projectId: restrictedProject, sectionId: section.id } });
    expect(inRestricted).toBeGreaterThan(0);
    expect(await newCount(joined, saved)).toBe(inRestricted);
    // Leaving again: the project's records are unreadable, so out of the count.
    await db.prisma.membership.delete({ where: { userId_projectId: { userId: user.id, projectId: restrictedProject } } });
    expect(await newCount(await principalOf(db.prisma, user.id), saved)).toBe(0);
    // Opening resets it, as for any arrival.
    await addMember(db.prisma, user.id, restrictedProject);
    const rejoined = await principalOf(db.prisma, user.id);
    expect(await newCount(rejoined, saved)).toBe(inRestricted);
    await openSavedSearch(db.prisma, rejoined, saved.id);
    expect(await newCount(rejoined, saved)).toBe(0);
  });

  it("caps the count and says when it cannot count", async () => {
    const user = await createUser(db.prisma);
    const project = (await createProject(db.prisma)).id;
    await addMember(db.prisma, user.id, project);
    const principal = await principalOf(db.prisma, user.id);
    const saved = await createSavedSearch(db.prisma, principal, { name: "Busy project", params: { project } });
    await db.prisma.savedSearch.update({ where: { id: saved.id }, data: { lastVisitedAt: new Date(Date.now() - 60_000) } });
    await db.prisma.record.createMany({
      data: Array.from({ length: newSinceLastVisitCap + 5 }, (_, number) => ({
        sectionId: section.id,
        projectId: project,
        title: `Bulk ${number}`,
        values: { title: `Bulk ${number}` },
      })),
    });
    const [listed] = await listSavedSearchesWithNews(deps, principal);
    expect(listed?.newSinceLastVisit).toEqual({ count: newSinceLastVisitCap, capped: true });

    // A saved section that no longer exists: no count, and why.
    await db.prisma.savedSearch.update({ where: { id: saved.id }, data: { params: { section: "gone-section" } } });
    const [broken] = await listSavedSearchesWithNews(deps, principal);
    expect(broken?.newSinceLastVisit).toBeNull();
    expect(broken?.problem).toMatch(/no section called "gone-section"/);
  });

  it("answers the JSON API: create, list, rename, delete, and refuses without a session", async () => {
    const created = await routes.collection(reader, "POST", { name: "From the API", params: { q: "ledger", mode: "hybrid", page: "2" } });
    expect(created.status).toBe(201);
    const { savedSearch } = (await created.json()) as { savedSearch: { id: string; params: Record<string, string>; href: string } };
    expect(savedSearch.params).toEqual({ q: "ledger" });
    expect(savedSearch.href).toBe("/records?q=ledger");

    const duplicate = await routes.collection(reader, "POST", { name: "from the api" });
    expect(duplicate.status).toBe(409);
    const invalid = await routes.collection(reader, "POST", { name: "" });
    expect(invalid.status).toBe(400);

    const renamed = await routes.one(reader, "PATCH", savedSearch.id, { name: "Renamed by the API" });
    expect(renamed.status).toBe(200);
    expect(((await renamed.json()) as { savedSearch: { name: string } }).savedSearch.name).toBe("Renamed by the API");
    expect((await routes.one(reader, "GET", savedSearch.id)).status).toBe(200);
    expect((await routes.one(reader, "DELETE", savedSearch.id)).status).toBe(204);
    expect((await routes.one(reader, "GET", savedSearch.id)).status).toBe(404);

    expect((await routes.collection(null, "GET")).status).toBe(401);
    expect((await routes.collection(null, "POST", { name: "x" })).status).toBe(401);
    expect((await routes.open(null, savedSearch.id)).status).toBe(401);
  });
});
