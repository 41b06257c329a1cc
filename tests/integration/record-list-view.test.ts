import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "../../lib/acl";
import type { Database } from "../../lib/db/database";
import { CHUNKER_VERSION } from "../../lib/rag/chunk";
import { createHashEmbedder } from "../../lib/rag/embed/hash-embedder";
import { ensureIndexSpace } from "../../lib/rag/index/index-spaces";
import { runWorker } from "../../lib/rag/index/run-worker";
import { saveEmbedGroup } from "../../lib/rag/index/save-embed-group";
import { type RecordListViewDeps, loadRecordListView } from "../../lib/rag/search/record-list-view";
import { clearResolvedSearches } from "../../lib/rag/search/resolve-search";
import type { SearchContext } from "../../lib/rag/search/search-archive";
import { addMember, createProject, createRecord, createSection, createUser, principalOf } from "../support/factories";
import { openTestDatabase, testDatabaseMode } from "../support/test-database";

/**
 * The record list page's service (lib/rag/search/record-list-view.ts): the filters, a search
 * pinned into the list, and index coverage, all scoped to what the principal may read — a
 * principal who may read nothing gets an empty list and no counts of other people's records.
 */
const embedder = createHashEmbedder({ dimension: 64 });
const noBridge = { detect: async () => ({ language: "en", confidence: 1 }) };

let db: Database;
let deps: RecordListViewDeps;
let searchContexts = 0;
let reader: Principal;
let nobody: Principal;
let section: { id: string; slug: string };
const openIds: string[] = [];
const closedIds: string[] = [];

beforeAll(async () => {
  db = await openTestDatabase();
  const space = await ensureIndexSpace(db.sql, {
    provider: embedder.provider,
    model: embedder.model,
    dimension: embedder.dimension,
    chunkerVersion: CHUNKER_VERSION,
  });
  section = await createSection(db.prisma, [
    { key: "title", label: "Title", type: "text", required: true, listed: true },
    { key: "summary", label: "Summary", type: "longtext" },
  ]);
  await saveEmbedGroup(db.prisma, db.sql, {
    sectionSlug: section.slug,
    group: { slug: "all", label: "All", fields: ["title", "summary"], chunking: "short", maxTokens: 128, minTokens: 1, overlap: 0 },
    requeue: false,
  });
  const openProject = (await createProject(db.prisma)).id;
  const closedProject = (await createProject(db.prisma, { restricted: true })).id;
  for (let index = 0; index < 4; index++) {
    openIds.push(
      (
        await createRecord(db.prisma, section, openProject, {
          title: `Harbour ledger ${index}`,
          summary: `Sardine auction ledger of the harbour, page ${index}.`,
        })
      ).id,
    );
  }
  for (let index = 0; index < 3; index++) {
    closedIds.push(
      (
        await createRecord(db.prisma, section, closedProject, {
          title: `Closed harbour ledger ${index}`,
          summary: `Sealed sardine auction ledger, page ${index}.`,
        })
      ).id,
    );
  }
  await runWorker({ prisma: db.prisma, sql: db.sql, embedder, space, drain: true, idleMs: 10, batchSize: 32 });
  const context: SearchContext = { sql: db.sql, embedder, space, prepare: noBridge };
  deps = { prisma: db.prisma, sql: db.sql, searchContext: async () => (searchContexts++, context) };

  const readerUser = await createUser(db.prisma);
  await addMember(db.prisma, readerUser.id, openProject);
  reader = await principalOf(db.prisma, readerUser.id);
  nobody = await principalOf(db.prisma, (await createUser(db.prisma)).id);
}, 180_000);

afterAll(async () => {
  await db?.close();
});

describe(`record list view (${testDatabaseMode()})`, () => {
  it("gives a principal who may read nothing an empty list and search, with no coverage counts", async () => {
    clearResolvedSearches();
    const browse = await loadRecordListView(deps, nobody, { section: section.slug });
    expect(browse.projects).toEqual([]);
    expect(browse.result).toMatchObject({ items: [], total: 0 });
    expect(browse.coverage).toBeUndefined();
    expect(browse.problem).toBeUndefined();

    for (const mode of ["hybrid", "keyword"] as const) {
      const searched = await loadRecordListView(deps, nobody, { q: "sardine auction ledger", mode });
      expect(searched.search?.result.hits, mode).toEqual([]);
      expect(searched.result, mode).toMatchObject({ items: [], total: 0 });
      // Coverage counts readable records only: none, not the archive's.
      expect(searched.coverage, mode).toEqual({ records: 0, indexed: 0 });
      expect(JSON.stringify(searched), mode).not.toMatch(/ledger \d/i);
    }
  });

  it("shows a researcher only the records of projects they may read, listed and searched", async () => {
    clearResolvedSearches();
    const browse = await loadRecordListView(deps, reader, { section: section.slug, sort: "title" });
    expect(browse.section?.slug).toBe(section.slug);
    expect(browse.result?.items.map((item) => item.id).sort()).toEqual([...openIds].sort());
    expect(browse.coverage).toBeUndefined();

    for (const mode of ["hybrid", "keyword"] as const) {
      const searched = await loadRecordListView(deps, reader, { q: "sardine auction ledger", mode, section: section.slug });
      expect(searched.mode).toBe(mode);
      const hitIds = searched.search!.result.hits.map((hit) => hit.recordId);
      expect(hitIds.length, mode).toBeGreaterThan(0);
      expect(
        hitIds.every((id) => openIds.includes(id)),
        mode,
      ).toBe(true);
      expect(
        searched.result!.items.every((item) => openIds.includes(item.id)),
        mode,
      ).toBe(true);
      expect(
        searched.result!.items.some((item) => closedIds.includes(item.id)),
        mode,
      ).toBe(false);
      expect(searched.coverage, mode).toEqual({ records: openIds.length, indexed: openIds.length });
    }
  });

  it("names a filter problem and lists nothing, and asks for a search context only to search", async () => {
    const before = searchContexts;
    const bad = await loadRecordListView(deps, reader, { from: "2000", to: "1900", q: "ledger" });
    expect(bad.problem).toBe("The start year must not be after the end year.");
    expect(bad.result).toBeUndefined();
    const noField = await loadRecordListView(deps, reader, { section: section.slug, field: "nonexistent" });
    expect(noField.section?.slug).toBe(section.slug);
    expect(noField.problem).toMatch(/has no searchable field called "nonexistent"/);
    const unknownSection = await loadRecordListView(deps, reader, { section: "no-such-section" });
    expect(unknownSection.problem).toMatch(/There is no section called "no-such-section"/);
    expect(unknownSection.result).toBeUndefined();
    expect(searchContexts).toBe(before);
  });
});
