import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Principal } from "../../lib/acl";
import type { Database } from "../../lib/db/database";
import type { SqlExecutor } from "../../lib/db/sql-executor";
import { searchSettings } from "../../lib/rag/config/settings";
import { createHashEmbedder } from "../../lib/rag/embed/hash-embedder";
import { type IndexSpace } from "../../lib/rag/index/index-spaces";
import { runWorker } from "../../lib/rag/index/run-worker";
import { denseLeg, keywordLeg } from "../../lib/rag/search/retrieve-passages";
import { searchArchive } from "../../lib/rag/search/search-archive";
import { createProject, createRecord, testIndexSpace, createQuotingSections, readerNobodyAdmin } from "../support/factories";
import { openTestDatabase, testDatabaseMode } from "../support/test-database";

/**
 * Both retrieval legs scope passages in the SQL: a principal gets nothing of a project they
 * cannot read (nor passages that quote one), and still a full page when they see only a sliver.
 */
const embedder = createHashEmbedder({ dimension: 64 });
let db: Database;
let space: IndexSpace;
let smallReader: Principal;
let nobody: Principal;
let admin: Principal;
let openProject: string;
let closedProject: string;
let section: { id: string; slug: string };

beforeAll(async () => {
  db = await openTestDatabase();
  space = await testIndexSpace(db.sql, embedder);
  const { sources, section: quoting } = await createQuotingSections(db.prisma, db.sql);
  section = quoting;
  openProject = (await createProject(db.prisma)).id;
  closedProject = (await createProject(db.prisma, { restricted: true })).id;
  // 120 closed records about the mill, 6 open ones: the reader sees about 5% of the passages.
  for (let index = 0; index < 120; index++) {
    await createRecord(db.prisma, section, closedProject, {
      title: `Closed mill record ${index}`,
      summary: `The flour mill by the river, ledger ${index}, secret zanzibar.`,
    });
  }
  const closedSource = await createRecord(db.prisma, sources, closedProject, { title: "Closed source", summary: "Zanzibar quill testimony about the mill." });
  for (let index = 0; index < 6; index++) {
    await createRecord(db.prisma, section, openProject, { title: `Open mill record ${index}`, summary: `The flour mill by the river, open note ${index}.` });
  }
  // An open record that quotes the closed one through a relation path.
  await createRecord(db.prisma, section, openProject, { title: "Open record quoting a closed one", summary: "About the mill.", source: closedSource.id });
  await runWorker({ prisma: db.prisma, sql: db.sql, embedder, space, drain: true, idleMs: 10, batchSize: 32 });
  ({ reader: smallReader, nobody, admin } = await readerNobodyAdmin(db.prisma, openProject));
}, 120_000);

afterAll(async () => {
  await db.close();
});

describe(`retrieval legs (${testDatabaseMode()})`, () => {
  it("gives a reader of a small project a full page of only their passages, by meaning", async () => {
    const [query] = await embedder.embed(["flour mill by the river"], "query");
    const hits = await denseLeg(db.sql, smallReader, query ?? [], { space, limit: 6 });
    expect(hits).toHaveLength(6);
    expect(hits.every((hit) => hit.projectId === openProject && hit.contributingProjectIds.every((id) => id === openProject))).toBe(true);
    const adminHits = await denseLeg(db.sql, admin, query ?? [], { space, limit: 50 });
    expect(adminHits.some((hit) => hit.projectId === closedProject)).toBe(true);
    expect(await denseLeg(db.sql, nobody, query ?? [], { space, limit: 6 })).toEqual([]);
  });

  it("walks the graph deeper than the page and still returns the page: its size, nearest first, only what the reader may read", async () => {
    const [query] = await embedder.embed(["flour mill by the river"], "query");
    const page = await denseLeg(db.sql, admin, query ?? [], { space, limit: 8 });
    const walked = await denseLeg(db.sql, admin, query ?? [], { space, limit: 8, walk: 100 });
    expect(walked).toHaveLength(8);
    expect(walked.map((hit) => hit.score)).toEqual([...walked.map((hit) => hit.score)].sort((a, b) => b - a));
    // On a hundred-odd passages the graph is exact either way: the same page.
    expect(walked.map((hit) => hit.chunkId)).toEqual(page.map((hit) => hit.chunkId));
    const small = await denseLeg(db.sql, smallReader, query ?? [], { space, limit: 6, walk: 50_000 });
    expect(small).toHaveLength(6);
    expect(small.every((hit) => hit.projectId === openProject)).toBe(true);
    expect(await denseLeg(db.sql, nobody, query ?? [], { space, limit: 6, walk: 500 })).toEqual([]);
  });

  it("serves a walk through the search itself (MNEMO_DENSE_WALK): the same page, still only what the reader may read", async () => {
    const request = { query: "flour mill by the river", mode: "semantic" as const, limit: 5, collapse: "passage" as const };
    const ids = (result: Awaited<ReturnType<typeof searchArchive>>) => result.hits.map((hit) => hit.passage.chunkId);
    // What the meaning leg asked of the graph: its beam, and the walk among its statement's parameters.
    const seen: { settings: string[]; params: unknown[] } = { settings: [], params: [] };
    const recording = (sql: SqlExecutor): SqlExecutor => ({
      query: (text, params) => {
        seen.params.push(...(params ?? []));
        return sql.query(text, params);
      },
      exec: (text) => {
        seen.settings.push(text);
        return sql.exec(text);
      },
      transaction: (work) => sql.transaction((tx) => work(recording(tx))),
    });
    const beam = await searchArchive({ sql: recording(db.sql), embedder, space, denseWalk: null }, admin, request);
    expect(seen.settings.join(" ")).toContain(`hnsw.ef_search = ${searchSettings.denseEfSearch.value};`);
    expect(seen.params).not.toContain(300);
    seen.settings = [];
    const walked = await searchArchive({ sql: recording(db.sql), embedder, space, denseWalk: 300 }, admin, request);
    expect(seen.settings.join(" ")).toContain(`hnsw.ef_search = ${searchSettings.denseWalkEfSearch.value};`);
    expect(seen.params).toContain(300);
    expect(ids(walked)).toHaveLength(5);
    expect(ids(walked)).toEqual(ids(beam));
    const reader = await searchArchive({ sql: db.sql, embedder, space, denseWalk: 300 }, smallReader, request);
    expect(reader.hits.length).toBeGreaterThan(0);
    expect(reader.hits.every((hit) => hit.projectId === openProject)).toBe(true);
    expect((await searchArchive({ sql: db.sql, embedder, space, denseWalk: 300 }, nobody, request)).hits).toEqual([]);
  });

  it("finds words across accents and stems, and never a passage that quotes a closed project", async () => {
    const hits = await keywordLeg(db.sql, smallReader, "zanzibar", { space, limit: 20 });
    expect(hits).toEqual([]);
    const adminHits = await keywordLeg(db.sql, admin, "zanzíbar", { space, limit: 200 });
    expect(adminHits.length).toBe(121);
    const quoting = adminHits.filter((hit) => hit.projectId === openProject);
    expect(quoting).toHaveLength(1);
    expect(quoting[0]?.contributingProjectIds.sort()).toEqual([openProject, closedProject].sort());
    const mills = await keywordLeg(db.sql, smallReader, "mills", { space, limit: 50 });
    // Six open records (title and summary passages), and the one quoting a closed record by its own
    // summary alone ("About the mill."): the quoted text is a passage of its own, closed.
    expect(new Set(mills.map((hit) => hit.recordId)).size).toBe(7);
    expect(mills.map((hit) => hit.chunkId)).not.toContain(quoting[0]?.chunkId);
    expect(mills.every((hit) => hit.contributingProjectIds.every((id) => id === openProject))).toBe(true);
    expect(await keywordLeg(db.sql, nobody, "mill", { space, limit: 50 })).toEqual([]);
  });

  it("restricts to a section and refuses a malformed space id", async () => {
    const [query] = await embedder.embed(["mill"], "query");
    expect(await denseLeg(db.sql, admin, query ?? [], { space, limit: 5, sectionIds: ["no-such-section"] })).toEqual([]);
    await expect(denseLeg(db.sql, admin, query ?? [], { space: { id: "x' OR '1'='1", dimension: 64 }, limit: 5 })).rejects.toThrow(/unexpected index space id/);
  });
});
