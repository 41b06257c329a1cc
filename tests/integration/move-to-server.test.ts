import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Principal, systemPrincipal } from "../../lib/acl";
import { saveRecord } from "../../lib/archive/save-record";
import { installationBackupKey } from "../../lib/admin/backup/backup-key";
import { createApiToken } from "../../lib/auth/api-tokens";
import { openDatabase, type Database } from "../../lib/db/database";
import { servePGlite } from "../../lib/db/serve-pglite";
import { createHashEmbedder } from "../../lib/rag/embed/hash-embedder";
import type { IndexSpace } from "../../lib/rag/index/index-spaces";
import { runWorker } from "../../lib/rag/index/run-worker";
import { createSavedSearch } from "../../lib/rag/search/saved-searches";
import { type SearchContext, searchArchive } from "../../lib/rag/search/search-archive";
import { killHard, startScript, waitFor } from "../support/child-processes";
import { addMember, createProject, createRecord, createSection, createUser, principalOf, saveAllGroup, testIndexSpace } from "../support/factories";
import { freePort, serveTestDatabase, testDatabaseMode, type ServedDatabase } from "../support/test-database";

/**
 * `npm run move-to-server`: an embedded installation (a PGlite data directory with users, a
 * restricted project, linked records, indexed passages, a token, a saved search and an audit
 * trail and a backup signing key) moved by the real command into an empty server database — in the suite's server mode a
 * real PostgreSQL, otherwise PGlite served over the wire — then compared: every table's count and
 * checksum, the same search results for the same reader, nothing new for someone outside the
 * restricted project, the source unchanged. And its refusals: a target that is not empty, a
 * server without pgvector, a directory that is not a Mnemo database; and a copy killed half way,
 * which leaves the target empty and is simply run again.
 */
const embedder = createHashEmbedder({ dimension: 64 });
const noBridge = { detect: async () => ({ language: "en", confidence: 1 }) };
const scratch = mkdtempSync(join(tmpdir(), "mnemo-move-"));
const sourceDir = join(scratch, "data");
const served: ServedDatabase[] = [];
let sourceSpace: IndexSpace;
let readerId: string;
let outsiderId: string;
let restrictedTitle: string;
let backupKeyId: string;

const queries: { query: string; mode: "keyword" | "hybrid" }[] = [
  { query: "lighthouse keeper storms", mode: "keyword" },
  { query: "sardine auction harbour", mode: "hybrid" },
  { query: "sealed mine correspondence", mode: "keyword" },
];

/** Each table's rows, hashed in a fixed order: equal before and after means the source was not written. */
async function fingerprint(db: Database): Promise<Record<string, string>> {
  const tables = await db.sql.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`);
  const result: Record<string, string> = {};
  for (const { name } of tables) {
    const [row] = await db.sql.query<{ hash: string | null }>(
      `SELECT md5(string_agg(h, '' ORDER BY h)) AS hash FROM (SELECT md5(t::text) AS h FROM "${name}" t) rows`,
    );
    result[name] = row?.hash ?? "empty";
  }
  return result;
}

/**
 * Per query, the records found and their scores. Records and scores, not their order: pgvector's
 * native build and PGlite's WebAssembly one sum a cosine's float products differently (scores agree
 * to about 1e-7), so two nearly tied records may swap between engines; the move itself changes no
 * stored value (the checksums say so).
 */
async function ranked(db: Database, space: IndexSpace, principal: Principal): Promise<Record<string, number>[]> {
  const context: SearchContext = { sql: db.sql, embedder, space, prepare: noBridge };
  const results: Record<string, number>[] = [];
  for (const { query, mode } of queries) {
    const found = await searchArchive(context, principal, { query, mode, limit: 20 });
    results.push(Object.fromEntries(found.hits.map((hit) => [`${hit.recordId} ${hit.recordTitle}`, hit.score])));
  }
  return results;
}

function expectSameResults(actual: Record<string, number>[], expected: Record<string, number>[]) {
  expect(actual.map((hits) => Object.keys(hits).sort())).toEqual(expected.map((hits) => Object.keys(hits).sort()));
  actual.forEach((hits, query) => {
    for (const [record, score] of Object.entries(hits)) expect(score).toBeCloseTo(expected[query]![record]!, 5);
  });
}

/** An empty server database for one move. */
async function emptyTarget(): Promise<ServedDatabase> {
  const target = await serveTestDatabase({ maxConnections: 6 });
  served.push(target);
  return target;
}

function move(url: string, extra: string[] = [], from = sourceDir) {
  return startScript("scripts/move-to-server.ts", ["--from", from, "--to", url, ...extra], { DATABASE_URL: "", MNEMO_STORAGE_DIR: undefined });
}

beforeAll(async () => {
  const source = await openDatabase({ dataDir: join(sourceDir, "pgdata") });
  try {
    const { prisma } = source;
    sourceSpace = await testIndexSpace(source.sql, embedder);
    const open = await createProject(prisma);
    const restricted = await createProject(prisma, { restricted: true });
    const section = await createSection(prisma);
    await saveAllGroup(prisma, source.sql, section.slug, ["title", "summary"]);
    const keeper = await createRecord(prisma, section, open.id, { title: "Marta Puig, lighthouse keeper", summary: "Kept the lamp through the storms." });
    const logbook = await createRecord(prisma, section, open.id, { title: "Logbook of storms", summary: "Every storm the keeper saw.", related: [keeper.id] });
    // A second version, so the record's history has more than its first save to carry.
    await saveRecord(prisma, systemPrincipal, {
      id: logbook.id,
      version: 1,
      sectionSlug: section.slug,
      projectId: open.id,
      values: { title: "Logbook of storms", summary: "Every storm the keeper saw, and the oil.", related: [keeper.id] },
    });
    for (let index = 0; index < 12; index++) {
      await createRecord(prisma, section, open.id, { title: `Harbour note ${index}`, summary: `The sardine auction at the harbour, note ${index}.` });
    }
    restrictedTitle = "Sealed mine correspondence";
    await createRecord(prisma, section, restricted.id, { title: restrictedTitle, summary: "Letters about the mine's closure, sealed.", related: [keeper.id] });
    const reader = await createUser(prisma, { password: "a long enough secret" });
    await addMember(prisma, reader.id, open.id);
    await addMember(prisma, reader.id, restricted.id);
    readerId = reader.id;
    const outsider = await createUser(prisma);
    await addMember(prisma, outsider.id, open.id);
    outsiderId = outsider.id;
    const readerPrincipal = await principalOf(prisma, reader.id);
    await createApiToken(prisma, readerPrincipal, { name: "agent", expiresInDays: 30 });
    await createSavedSearch(prisma, readerPrincipal, { name: "Storms", params: { q: "storms", mode: "keyword" } });
    await runWorker({ prisma, sql: source.sql, embedder, space: sourceSpace, drain: true, idleMs: 10, batchSize: 8 });
    backupKeyId = (await installationBackupKey(prisma)).key.id;
  } finally {
    await source.close();
  }
}, 180_000);

afterAll(async () => {
  for (const target of served) await target.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe(`npm run move-to-server (${testDatabaseMode()})`, () => {
  let target: ServedDatabase;

  it("copies every table into an empty server, verified, and search answers there as it did here", async () => {
    const source = await openDatabase({ dataDir: join(sourceDir, "pgdata"), migrateOnOpen: false });
    let before: Record<string, string>;
    let expected: Record<string, number>[];
    let outsiderBefore: Record<string, number>[];
    try {
      before = await fingerprint(source);
      expected = await ranked(source, sourceSpace, await principalOf(source.prisma, readerId));
      outsiderBefore = await ranked(source, sourceSpace, await principalOf(source.prisma, outsiderId));
    } finally {
      await source.close();
    }
    const titles = (results: Record<string, number>[]) => results.flatMap((hits) => Object.keys(hits));
    expect(titles(expected).some((hit) => hit.includes(restrictedTitle))).toBe(true);
    expect(titles(outsiderBefore).some((hit) => hit.includes(restrictedTitle))).toBe(false);

    target = await emptyTarget();
    const run = move(target.url, ["--batch-rows", "7"]);
    expect(await run.exited, run.errors()).toBe(0);
    const output = run.lines.join("\n");
    expect(output).toMatch(/Moved [\d,]+ rows in \d+ tables in [\d.]+ s; every count and checksum equal\./);
    expect(output).toMatch(/\| chunks \| (\d+) \| \1 \| (\d+:\d+) \| \2 \| equal \|/);
    expect(output).toContain(`Media files were not copied: they are in ${join(sourceDir, "media")}`);
    // Each index space's HNSW index exists on the server too.
    const indexes = await target.database.sql.query<{ name: string }>(`SELECT indexname AS name FROM pg_indexes WHERE indexdef LIKE '%USING hnsw%'`);
    expect(indexes.length).toBeGreaterThanOrEqual(1);

    // The same space (its id, model and calibration came along), the same readers.
    expectSameResults(await ranked(target.database, sourceSpace, await principalOf(target.database.prisma, readerId)), expected);
    expectSameResults(await ranked(target.database, sourceSpace, await principalOf(target.database.prisma, outsiderId)), outsiderBefore);
    expect(await target.database.prisma.apiToken.count()).toBe(1);
    expect(await target.database.prisma.savedSearch.count()).toBe(1);
    expect(await target.database.prisma.auditEvent.count()).toBeGreaterThan(0);
    // Record history came along as it was (copied with triggers off: no version kept twice or anew).
    expect(output).toMatch(/\| record_versions \| 16 \| 16 \| (\d+:\d+) \| \1 \| equal \|/);
    const logbook = await target.database.prisma.record.findFirstOrThrow({ where: { title: "Logbook of storms" } });
    expect(
      (await target.database.prisma.recordVersion.findMany({ where: { recordId: logbook.id }, orderBy: { version: "asc" } })).map((version) => [
        version.version,
        version.via,
      ]),
    ).toEqual([
      [1, "form"],
      [2, "form"],
    ]);
    // The key that signs project backups came along (a missing one would be made anew, another id).
    expect((await installationBackupKey(target.database.prisma)).key.id).toBe(backupKeyId);

    const after = await openDatabase({ dataDir: join(sourceDir, "pgdata"), migrateOnOpen: false });
    try {
      expect(await fingerprint(after)).toEqual(before);
    } finally {
      await after.close();
    }
  }, 240_000);

  it("refuses a target that is not empty, naming a table with rows, and writes nothing", async () => {
    const rows = await target.database.prisma.user.count();
    const run = move(target.url);
    expect(await run.exited).toBe(2);
    expect(run.errors()).toMatch(/The target database is not empty: table \w+ has rows/);
    expect(await target.database.prisma.user.count()).toBe(rows);
  }, 120_000);

  it("refuses a server without pgvector in words, before writing anything", async () => {
    const bare = await PGlite.create({ extensions: { unaccent, pg_trgm } });
    const port = await freePort();
    const server = await servePGlite(bare, { port, maxConnections: 4 });
    try {
      const run = move(`postgresql://postgres:postgres@127.0.0.1:${port}/postgres`);
      expect(await run.exited).toBe(2);
      expect(run.errors()).toMatch(/no pgvector extension/);
      const tables = await bare.query<{ count: number }>(`SELECT count(*)::int AS count FROM pg_tables WHERE schemaname = 'public'`);
      expect(tables.rows[0]?.count).toBe(0);
    } finally {
      await server.stop();
      await bare.close();
    }
  }, 120_000);

  it("refuses a directory that holds no Mnemo database", async () => {
    const empty = await emptyTarget();
    const notMnemo = join(scratch, "not-mnemo");
    mkdirSync(notMnemo, { recursive: true });
    const other = await PGlite.create({ dataDir: join(notMnemo, "pgdata") });
    await other.close();
    const run = move(empty.url, [], notMnemo);
    expect(await run.exited).toBe(2);
    expect(run.errors()).toMatch(/not a Mnemo database/);
    const nothing = move(empty.url, [], join(scratch, "nowhere"));
    expect(await nothing.exited).toBe(2);
    expect(nothing.errors()).toMatch(/holds no embedded database/);
  }, 120_000);

  it("killed half way leaves the target empty, and the same command then completes", async () => {
    const fresh = await emptyTarget();
    // One row per batch: the copy takes long enough to be killed inside it.
    const first = move(fresh.url, ["--batch-rows", "1"]);
    await waitFor("a table copied", () => first.lines.some((line) => / rows copied/.test(line)), 120_000, 20);
    await killHard(first);
    expect(first.lines.some((line) => line.startsWith("Moved "))).toBe(false);
    // The dead connection's transaction is rolled back: no table holds a row.
    await waitFor(
      "the killed copy's transaction to end",
      async () => (await fresh.database.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM users`))[0]?.n === 0,
      30_000,
      100,
    );
    const again = move(fresh.url);
    expect(await again.exited, again.errors()).toBe(0);
    expect(again.lines.join("\n")).toMatch(/every count and checksum equal/);
  }, 240_000);
});
