import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Principal } from "../../lib/acl";
import type { Database } from "../../lib/db/database";
import { AppError } from "../../lib/errors";
import { listEmbedGroups } from "../../lib/rag/config/embed-groups";
import { saveEmbedGroup } from "../../lib/rag/index/save-embed-group";
import type { Embedder } from "../../lib/rag/embed/embedder";
import { createHashEmbedder } from "../../lib/rag/embed/hash-embedder";
import { createOpenAiCompatibleEmbedder } from "../../lib/rag/embed/openai-compatible-embedder";
import { type IndexSpace } from "../../lib/rag/index/index-spaces";
import { runWorker } from "../../lib/rag/index/run-worker";
import { findSimilarRecords, similarityFacets } from "../../lib/rag/search/find-similar";
import { createHttpReranker } from "../../lib/rag/search/rerank";
import { clearResolvedSearches, resolveRecordSearch } from "../../lib/rag/search/resolve-search";
import { listRecords, listRecordsQuerySchema } from "../../lib/archive/list-records";
import { type SearchContext, maxQueryLength, searchArchive } from "../../lib/rag/search/search-archive";
import { createProject, createRecord, createSection, testIndexSpace, titleSummaryFields, readerNobodyAdmin, saveAllGroup } from "../support/factories";
import { startFakeRerankServer } from "../support/fake-rerank-server";
import { openTestDatabase, testDatabaseMode } from "../support/test-database";

/**
 * The search service end to end on a real database: access in the SQL and at the gate, the
 * same answer shape for a principal who sees nothing, limits, collapse, the group facet,
 * find-similar from stored vectors, and an external reranker that obeys egress policy.
 */
const base = createHashEmbedder({ dimension: 64 });
const counter = { calls: 0 };
const embedder: Embedder = { ...base, embed: (texts, kind) => (counter.calls++, base.embed(texts, kind)) };
const noBridge = { detect: async () => ({ language: "en", confidence: 1 }) };

let db: Database;
let space: IndexSpace;
let context: SearchContext;
let admin: Principal;
let reader: Principal;
let nobody: Principal;
let openProject: string;
let closedProject: string;
let notes: { id: string; slug: string };
let people: { id: string; slug: string };
let professionGroup: string;
const closedIds: string[] = [];
const openIds: string[] = [];
let weaver: string;

const peopleFields = [
  { key: "title", label: "Name", type: "text" as const, required: true },
  { key: "occupation", label: "Occupation", type: "text" as const },
  { key: "biography", label: "Biography", type: "longtext" as const },
];

beforeAll(async () => {
  db = await openTestDatabase();
  space = await testIndexSpace(db.sql, embedder);
  notes = await createSection(db.prisma, titleSummaryFields);
  people = await createSection(db.prisma, peopleFields);
  await db.prisma.section.update({ where: { id: notes.id }, data: { egressPolicy: "allow_external" } });
  await saveAllGroup(db.prisma, db.sql, notes.slug, ["title", "summary"]);
  for (const group of [
    { slug: "profession", label: "Profession", fields: ["occupation"] },
    { slug: "profile", label: "Profile", fields: ["title", "biography"] },
  ]) {
    await saveEmbedGroup(db.prisma, db.sql, {
      sectionSlug: people.slug,
      group: { ...group, chunking: "short", maxTokens: 128, minTokens: 1, overlap: 0 },
      requeue: false,
    });
  }
  professionGroup = (await listEmbedGroups(db.prisma, people.id)).find((group) => group.slug === "profession")!.id;

  openProject = (await createProject(db.prisma)).id;
  closedProject = (await createProject(db.prisma, { restricted: true })).id;
  // The only records about the lighthouse keeper's logbook are in the closed project.
  for (let index = 0; index < 5; index++) {
    closedIds.push(
      (
        await createRecord(db.prisma, notes, closedProject, {
          title: `Lighthouse logbook ${index}`,
          summary: `The keeper's logbook of storms and lamp oil, volume ${index}.`,
        })
      ).id,
    );
  }
  for (let index = 0; index < 12; index++) {
    openIds.push(
      (
        await createRecord(db.prisma, notes, openProject, {
          title: `Harbour note ${index}`,
          summary: `Fishing boats and nets at the harbour, the auction of sardines, note ${index}.`,
        })
      ).id,
    );
  }
  weaver = (
    await createRecord(db.prisma, people, openProject, {
      title: "Marta Puig",
      occupation: "textile weaver",
      biography: "Worked the looms of the harbour mill.",
    })
  ).id;
  await createRecord(db.prisma, people, openProject, {
    title: "Joan Serra",
    occupation: "textile weaver and dyer",
    biography: "Fisherman's son who mended nets.",
  });
  await createRecord(db.prisma, people, openProject, { title: "Pere Vidal", occupation: "harbour pilot", biography: "Guided boats past the lighthouse." });
  await createRecord(db.prisma, people, closedProject, { title: "Secret Weaver", occupation: "textile weaver", biography: "Closed biography." });
  await runWorker({ prisma: db.prisma, sql: db.sql, embedder, space, drain: true, idleMs: 10, batchSize: 32 });

  ({ reader, nobody, admin } = await readerNobodyAdmin(db.prisma, openProject));
  context = { sql: db.sql, embedder, space, prepare: noBridge };
}, 180_000);

afterAll(async () => {
  await db?.close();
});

describe(`search (${testDatabaseMode()})`, () => {
  it("finds the closed records for an admin, and for a principal without access gives zero hits in the same shape, with no count", async () => {
    for (const mode of ["hybrid", "semantic", "keyword"] as const) {
      const seen = await searchArchive(context, admin, { query: "lighthouse keeper logbook", mode, limit: 5 });
      expect(seen.hits.length, mode).toBeGreaterThan(0);
      expect(
        seen.hits.some((hit) => closedIds.includes(hit.recordId)),
        mode,
      ).toBe(true);
      for (const principal of [reader, nobody]) {
        const denied = await searchArchive(context, principal, { query: "lighthouse keeper logbook", mode, limit: 5 });
        expect(
          denied.hits.filter((hit) => closedIds.includes(hit.recordId)),
          mode,
        ).toEqual([]);
        expect(Object.keys(denied).sort()).toEqual(Object.keys(seen).sort());
        expect(JSON.stringify(denied.hits)).not.toMatch(/logbook/i);
        expect(denied).not.toHaveProperty("total");
        expect(denied).not.toHaveProperty("count");
      }
      const none = await searchArchive(context, nobody, { query: "lighthouse keeper logbook", mode, limit: 5 });
      expect(none.hits).toEqual([]);
    }
  });

  it("says which legs found a hit and scales the fused score to 0..1", async () => {
    const result = await searchArchive(context, admin, { query: "lighthouse logbook", mode: "hybrid", limit: 5 });
    const top = result.hits[0]!;
    expect(closedIds).toContain(top.recordId);
    expect(top.legs).toEqual(["meaning", "words"]);
    expect(top.score).toBeGreaterThan(0.5);
    expect(top.score).toBeLessThanOrEqual(1);
    expect(top.similarity).toBeGreaterThan(0);
    expect(top.passage.snippet.highlights.length).toBeGreaterThan(0);
    const words = await searchArchive(context, admin, { query: "lighthouse logbook", mode: "keyword", limit: 5 });
    expect(words.hits.every((hit) => hit.legs.join() === "words" && hit.similarity === null)).toBe(true);
  });

  it("collapses to one row per record, or keeps passages", async () => {
    const records = await searchArchive(context, admin, { query: "harbour note fishing boats", mode: "hybrid", limit: 20 });
    const ids = records.hits.map((hit) => hit.recordId);
    expect(new Set(ids).size).toBe(ids.length);
    const passages = await searchArchive(context, admin, { query: "harbour note fishing boats", mode: "hybrid", limit: 30, collapse: "passage" });
    const chunkIds = passages.hits.map((hit) => hit.passage.chunkId);
    expect(new Set(chunkIds).size).toBe(chunkIds.length);
    expect(new Set(passages.hits.map((hit) => hit.recordId)).size).toBeLessThan(passages.hits.length);
  });

  it("scores the words leg with a context's BM25 parameters instead of the settings", async () => {
    const request = { query: "harbour", mode: "keyword" as const, collapse: "passage" as const, limit: 50 };
    const usual = await searchArchive(context, admin, request);
    // k1 0 counts presence only: every passage with the word scores its idf, so all tie at the top.
    const presence = await searchArchive({ ...context, bm25: { k1: 0 } }, admin, request);
    expect(new Set(usual.hits.map((hit) => hit.score)).size).toBeGreaterThan(1);
    expect(presence.hits.map((hit) => hit.passage.chunkId).sort()).toEqual(usual.hits.map((hit) => hit.passage.chunkId).sort());
    expect(presence.hits.map((hit) => hit.score)).toEqual(presence.hits.map(() => 1));
  });

  it("clamps limits to 1..50 and bounds the query with a clear message", async () => {
    expect((await searchArchive(context, admin, { query: "harbour", mode: "keyword", limit: 0 })).hits).toHaveLength(1);
    const many = await searchArchive(context, admin, { query: "harbour", mode: "keyword", limit: 5000, collapse: "passage" });
    expect(many.hits.length).toBeLessThanOrEqual(50);
    await expect(searchArchive(context, admin, { query: "x".repeat(maxQueryLength + 1) })).rejects.toThrow(new RegExp(`at most ${maxQueryLength} characters`));
    await expect(searchArchive(context, admin, { query: "   " })).rejects.toMatchObject({ code: "bad_request" });
  });

  it("scopes to sections, projects and one embed group", async () => {
    const inPeople = await searchArchive(context, admin, { query: "textile weaver", sectionIds: [people.id], limit: 20 });
    expect(inPeople.hits.length).toBeGreaterThan(0);
    expect(inPeople.hits.every((hit) => hit.sectionSlug === people.slug)).toBe(true);
    const inOpen = await searchArchive(context, admin, { query: "textile weaver", projectIds: [openProject], limit: 20 });
    expect(inOpen.hits.every((hit) => hit.projectId === openProject)).toBe(true);
    const byProfession = await searchArchive(context, reader, { query: "weaver", embedGroupId: professionGroup, limit: 20, collapse: "passage" });
    expect(byProfession.hits.length).toBeGreaterThanOrEqual(2);
    expect(byProfession.hits.every((hit) => hit.passage.groupLabel === "Profession")).toBe(true);
    expect(byProfession.hits.some((hit) => hit.recordTitle === "Secret Weaver")).toBe(false);
  });

  it("reports an unreachable embedding server as unavailable, while keyword search still works", async () => {
    const down = createOpenAiCompatibleEmbedder({ baseUrl: "http://127.0.0.1:9", model: "gone", dimension: 64, timeoutMs: 2000 });
    const downSpace = { ...space, provider: down.provider, model: down.model };
    const broken: SearchContext = { ...context, embedder: down, space: downSpace };
    await expect(searchArchive(broken, admin, { query: "harbour", mode: "hybrid" })).rejects.toMatchObject({ code: "unavailable" });
    expect((await searchArchive(broken, admin, { query: "harbour", mode: "keyword" })).hits.length).toBeGreaterThan(0);
    // A model that did not build the active space is refused rather than compared.
    await expect(searchArchive({ ...context, embedder: down }, admin, { query: "harbour" })).rejects.toThrow(AppError);
    await expect(searchArchive({ ...context, space: null }, admin, { query: "harbour" })).rejects.toThrow(/Nothing has been indexed/);
  });

  it("sends an external reranker only passages of sections that allow egress, and keeps the rest in place", async () => {
    const server = await startFakeRerankServer();
    try {
      const reranked: SearchContext = { ...context, reranker: createHttpReranker({ url: server.url }), rerankDepth: 10 };
      const plain = await searchArchive(context, reader, { query: "harbour weaver", mode: "hybrid", limit: 10 });
      const result = await searchArchive(reranked, reader, { query: "harbour weaver", mode: "hybrid", limit: 10 });
      expect(server.received).toHaveLength(1);
      const sent = server.received[0]!;
      expect(sent.length).toBeGreaterThanOrEqual(2);
      // People is local_only: none of its text left; notes allow egress.
      expect(sent.some((text) => /weaver|Marta|Joan|Pere/.test(text))).toBe(false);
      expect(result.rerank).toMatchObject({ name: "http", applied: true });
      expect(result.rerank.withheld).toBeGreaterThan(0);
      const positionsOf = (hits: typeof plain.hits) => hits.map((hit) => (hit.sectionSlug === people.slug ? hit.recordId : "note"));
      expect(positionsOf(result.hits)).toEqual(positionsOf(plain.hits));
      const notesBefore = plain.hits.filter((hit) => hit.sectionSlug === notes.slug).map((hit) => hit.recordId);
      const notesAfter = result.hits.filter((hit) => hit.sectionSlug === notes.slug).map((hit) => hit.recordId);
      // The fake scores in reverse order of arrival.
      expect(notesAfter).toEqual(notesBefore.slice().reverse());
    } finally {
      await server.close();
    }
  });

  it("finds similar records from stored vectors, never the record itself, optionally by one group", async () => {
    const before = counter.calls;
    const similar = await findSimilarRecords(db.sql, reader, space, weaver, {});
    expect(counter.calls).toBe(before);
    expect(similar.length).toBeGreaterThan(0);
    expect(similar.some((item) => item.recordId === weaver)).toBe(false);
    expect(similar.some((item) => item.recordTitle === "Secret Weaver")).toBe(false);
    const byProfession = await findSimilarRecords(db.sql, reader, space, weaver, { embedGroupId: professionGroup });
    expect(byProfession[0]?.recordTitle).toBe("Joan Serra");
    expect(byProfession.every((item) => item.passage.groupLabel === "Profession")).toBe(true);
    const facets = await similarityFacets(db.sql, reader, space, weaver);
    expect(facets.map((facet) => facet.label)).toEqual(["Profession", "Profile"]);
  });

  it("treats a record the principal may not read as not found, exactly like a missing one", async () => {
    const denied = await findSimilarRecords(db.sql, nobody, space, weaver).catch((error: unknown) => error);
    const missing = await findSimilarRecords(db.sql, nobody, space, "00000000-0000-4000-8000-000000000000").catch((error: unknown) => error);
    const malformed = await findSimilarRecords(db.sql, nobody, space, "not-a-uuid").catch((error: unknown) => error);
    for (const error of [denied, missing, malformed]) {
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: "not_found", message: "Not found." });
    }
    await expect(findSimilarRecords(db.sql, reader, space, closedIds[0]!)).rejects.toMatchObject({ code: "not_found" });
    expect(await similarityFacets(db.sql, nobody, space, weaver)).toEqual([]);
  });

  it("pins ranked ids into the record list as filter and order, still scoped by access, filters and pages", async () => {
    const pinned = [closedIds[0]!, openIds[3]!, openIds[1]!, openIds[2]!];
    const query = (extra: Record<string, unknown>) => listRecordsQuerySchema.parse({ sort: "relevance", pageSize: 2, ...extra });
    const first = await listRecords(db.sql, reader, query({}), { pinnedIds: pinned });
    expect(first.total).toBe(3);
    expect(first.items.map((item) => item.id)).toEqual([openIds[3], openIds[1]]);
    const second = await listRecords(db.sql, reader, query({ page: 2 }), { pinnedIds: pinned });
    expect(second.items.map((item) => item.id)).toEqual([openIds[2]]);
    const byTitle = await listRecords(db.sql, reader, query({ sort: "title", pageSize: 10 }), { pinnedIds: pinned });
    expect(byTitle.items.map((item) => item.title)).toEqual(["Harbour note 1", "Harbour note 2", "Harbour note 3"]);
    const filtered = await listRecords(db.sql, reader, query({ text: "note 2" }), { pinnedIds: pinned });
    expect(filtered.items.map((item) => item.id)).toEqual([openIds[2]]);
    expect((await listRecords(db.sql, nobody, query({}), { pinnedIds: pinned })).total).toBe(0);
    expect((await listRecords(db.sql, reader, query({}), { pinnedIds: [] })).total).toBe(0);
  });

  it("resolves a list search once per principal, never sharing one user's hits with another", async () => {
    clearResolvedSearches();
    const request = { query: "lighthouse logbook", mode: "hybrid" as const };
    const first = await resolveRecordSearch(context, admin, request);
    expect(first.cached).toBe(false);
    expect(first.pinnedIds.some((id) => closedIds.includes(id))).toBe(true);
    const callsBefore = counter.calls;
    const again = await resolveRecordSearch(context, admin, request);
    expect(again.cached).toBe(true);
    expect(counter.calls).toBe(callsBefore);
    expect(again.pinnedIds).toEqual(first.pinnedIds);
    const other = await resolveRecordSearch(context, nobody, request);
    expect(other.cached).toBe(false);
    expect(other.pinnedIds).toEqual([]);
    const readerHits = await resolveRecordSearch(context, reader, request);
    expect(readerHits.pinnedIds.some((id) => closedIds.includes(id))).toBe(false);
  });

  it("resolves a remembered list search again once something new was indexed, so records indexed after it are not hidden", async () => {
    clearResolvedSearches();
    const request = { query: "cormorant colony", mode: "keyword" as const };
    const before = await resolveRecordSearch(context, reader, request);
    expect(before.pinnedIds).toEqual([]);
    expect((await resolveRecordSearch(context, reader, request)).cached).toBe(true);
    const added = await createRecord(db.prisma, notes, openProject, { title: "Cormorant colony", summary: "The cormorant colony on the breakwater." });
    await runWorker({ prisma: db.prisma, sql: db.sql, embedder, space, drain: true, idleMs: 10, batchSize: 32 });
    const after = await resolveRecordSearch(context, reader, request);
    expect(after.cached).toBe(false);
    expect(after.pinnedIds).toContain(added.id);
    expect((await resolveRecordSearch(context, reader, request)).cached).toBe(true);
  });
});
