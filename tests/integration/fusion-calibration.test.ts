import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Principal, systemPrincipal } from "../../lib/acl";
import { calibrateSpaceFusion, resetSpaceFusion } from "../../lib/admin/fusion-calibration";
import { saveGoldenSet } from "../../lib/admin/golden-sets";
import { listSpaceOverview } from "../../lib/admin/model-switch";
import type { Database } from "../../lib/db/database";
import { saveEmbedGroup } from "../../lib/rag/index/save-embed-group";
import { createHashEmbedder } from "../../lib/rag/embed/hash-embedder";
import { activateIndexSpace, getActiveIndexSpace, type IndexSpace, saveFusionCalibration } from "../../lib/rag/index/index-spaces";
import { runWorker } from "../../lib/rag/index/run-worker";
import { passThroughReranker } from "../../lib/rag/search/rerank";
import { type SearchContext, searchArchive } from "../../lib/rag/search/search-archive";
import { createProject, createRecord, createSection, createUser, memberPrincipal, principalOf, testIndexSpace } from "../support/factories";
import { openTestDatabase } from "../support/test-database";

/**
 * Calibrated fusion: an admin measures an index space's fusion weights on the golden sets; the
 * space keeps them and hybrid search follows them (words only at share 0, meaning only at 1).
 * Researchers and curators: not found.
 */
let db: Database;
let space: IndexSpace;
let admin: Principal;
let curator: Principal;
let researcher: Principal;
const embedder = createHashEmbedder({ dimension: 64 });
const topics = [
  ["Net menders", "Women mending sardine nets on the quay every morning with wooden needles."],
  ["Salt fish", "Barrels of salted cod kept for the winter in the cellar of the harbour master."],
  ["Church bells", "The church bells were lowered and carried to the new village on a lorry."],
  ["Mine closure", "The shaft closed in June and the miners locked themselves in for weeks."],
  ["Drought", "In the dry summer the reservoir fell and the roofs of the old village appeared."],
  ["Fish auction", "The auctioneer called prices at dawn until an electric board replaced him."],
  ["Boatbuilder", "The last wooden fishing boat was finished in the yard by the old carpenter."],
  ["Dredger", "The dredger pulled amphorae and a cannon out of the harbour mud."],
  ["Emigration", "She went to England to work in a textile mill and sent money home."],
  ["Forge", "The blacksmith's forge stood by the river where a coin was found in the mud."],
  ["Harvest", "The last harvest before the flood was gathered in a hurry by the whole family."],
  ["Lamp room", "Brass tags on a board showed which miners were still underground."],
] as const;
const queries = [
  "women repairing nets at the port",
  "salted cod barrels",
  "bells moved on a truck",
  "miners locked in the shaft",
  "reservoir dry roofs appear",
  "auction of fish replaced by a board",
  "last wooden boat built",
  "what the dredger found in the harbour",
  "working in an English mill",
  "coin found near the forge",
  "harvest before the flood",
  "tags showing who was underground",
];
const ids: string[] = [];

beforeAll(async () => {
  db = await openTestDatabase();
  space = await testIndexSpace(db.sql, embedder);
  await activateIndexSpace(db.sql, space.id);
  // As an admin would register it: the test embedder, 64 dimensions.
  await db.sql.query(`UPDATE index_spaces SET config = $2::jsonb WHERE id = $1`, [space.id, JSON.stringify({ provider: "hash", dimension: 64 })]);
  const open = await createProject(db.prisma);
  admin = await principalOf(db.prisma, (await createUser(db.prisma, { role: "admin" })).id);
  curator = await memberPrincipal(db.prisma, open.id, { role: "curator", membership: "editor" });
  researcher = await memberPrincipal(db.prisma, open.id);
  const section = await createSection(db.prisma);
  await saveEmbedGroup(db.prisma, db.sql, {
    sectionSlug: section.slug,
    group: { slug: "all", label: "All", fields: ["title", "summary"], chunking: "short", maxTokens: 128, minTokens: 1, overlap: 0, languages: [] },
    requeue: false,
  });
  for (const [title, summary] of topics) ids.push((await createRecord(db.prisma, section, open.id, { title, summary }, systemPrincipal)).id);
  await runWorker({ prisma: db.prisma, sql: db.sql, embedder, space, drain: true, idleMs: 10, batchSize: 8 });
}, 120_000);

afterAll(async () => {
  await db?.close();
});

async function context(): Promise<SearchContext> {
  return { sql: db.sql, embedder, reranker: passThroughReranker, space: await getActiveIndexSpace(db.sql) };
}

const ranking = async (query: string, mode: "hybrid" | "semantic" | "keyword") =>
  (await searchArchive(await context(), admin, { query, mode, limit: 10, collapse: "record" })).hits.map((hit) => hit.recordId);

describe("fusion calibration", () => {
  it("is not found for curators and researchers, and asks for enough golden questions", async () => {
    for (const principal of [curator, researcher]) {
      await expect(calibrateSpaceFusion(db.prisma, db.sql, principal, { spaceId: space.id })).rejects.toMatchObject({ code: "not_found" });
      await expect(resetSpaceFusion(db.sql, principal, { spaceId: space.id })).rejects.toMatchObject({ code: "not_found" });
    }
    await expect(calibrateSpaceFusion(db.prisma, db.sql, admin, { spaceId: "00000000-0000-4000-8000-000000000000" })).rejects.toMatchObject({
      code: "not_found",
    });
    await saveGoldenSet(db.prisma, admin, {
      set: { name: "Three questions", questions: queries.slice(0, 3).map((question, index) => ({ question, expected: [ids[index]!] })) },
    });
    await expect(calibrateSpaceFusion(db.prisma, db.sql, admin, { spaceId: space.id })).rejects.toMatchObject({
      code: "bad_request",
      message: expect.stringContaining("there are 3 with an expected record, and it needs at least 10"),
    });
  });

  it("measures the legs on the golden sets, stores the weights on the space, and audits it", async () => {
    await saveGoldenSet(db.prisma, admin, {
      set: { name: "Nine more", questions: queries.slice(3).map((question, index) => ({ question, expected: [ids[index + 3]!] })) },
    });
    const calibration = await calibrateSpaceFusion(db.prisma, db.sql, admin, { spaceId: space.id });
    const all = calibration.figures.all!;
    expect(all.queries).toBe(12);
    expect(all.calibrated).toBeGreaterThanOrEqual(Math.max(all.keyword, all.semantic) - 1e-9);
    expect(all.calibrated).toBeGreaterThanOrEqual(all.equal - 1e-9);
    // The curve the share was chosen from is kept for the spaces page: hybrid at every share tried.
    const curve = calibration.shareFigures?.all ?? [];
    expect(curve.map((point) => point.share)).toEqual(Array.from({ length: 21 }, (_, index) => Math.round(index * 50) / 1000));
    expect(curve.find((point) => point.share === calibration.meaningShare.all)?.hybrid).toBe(all.calibrated);
    expect(calibration.source).toContain("“Nine more”");
    const stored = (await listSpaceOverview(db.sql, admin)).find((entry) => entry.id === space.id);
    expect(stored?.fusion).toEqual(calibration);
    const [event] = await db.sql.query<{ action: string }>(`SELECT action FROM audit_events WHERE target_id = $1 ORDER BY at DESC LIMIT 1`, [space.id]);
    expect(event?.action).toBe("index-space.calibrate-fusion");
    await resetSpaceFusion(db.sql, admin, { spaceId: space.id });
    expect((await getActiveIndexSpace(db.sql))?.fusion).toBeNull();
  });

  it("reads a share measured for the former rank fusion as unmeasured, so the space is measured again", async () => {
    const rankFusionShare = { meaningShare: { all: 0.05 }, figures: {}, source: "rank fusion", measuredAt: new Date().toISOString() };
    await db.sql.query(`UPDATE index_spaces SET fusion = $2::jsonb WHERE id = $1`, [space.id, JSON.stringify(rankFusionShare)]);
    expect((await getActiveIndexSpace(db.sql))?.fusion).toBeNull();
    await db.sql.query(`UPDATE index_spaces SET fusion = $2::jsonb WHERE id = $1`, [space.id, JSON.stringify({ ...rankFusionShare, method: "scores" })]);
    expect((await getActiveIndexSpace(db.sql))?.fusion?.meaningShare.all).toBe(0.05);
    await saveFusionCalibration(db.sql, space.id, null);
  });

  it("hybrid search follows the stored share: words only at 0, meaning only at 1", async () => {
    const query = "nets mended on the quay and the harbour master's barrels";
    const words = await ranking(query, "keyword");
    const meaning = await ranking(query, "semantic");
    expect(words).not.toEqual(meaning.slice(0, words.length)); // the legs disagree, so the share matters
    const fusion = (share: number) => ({
      method: "scores" as const,
      meaningShare: { all: share },
      figures: {},
      source: "test",
      measuredAt: new Date().toISOString(),
    });
    await saveFusionCalibration(db.sql, space.id, fusion(0));
    expect((await ranking(query, "hybrid")).slice(0, words.length)).toEqual(words);
    await saveFusionCalibration(db.sql, space.id, fusion(1));
    expect(await ranking(query, "hybrid")).toEqual(meaning);
    await saveFusionCalibration(db.sql, space.id, null);
  });

  it("the words leg follows the stored length normalisation: a long passage saying it often wins at b 0, a short one at b 1", async () => {
    const section = await db.prisma.section.findFirstOrThrow({ where: { embedGroups: { some: { slug: "all" } } } });
    const project = await db.prisma.project.findFirstOrThrow();
    const short = await createRecord(db.prisma, section, project.id, { title: "Lighthouse", summary: "The lighthouse." }, systemPrincipal);
    const long = await createRecord(
      db.prisma,
      section,
      project.id,
      {
        title: "Coast notes",
        summary:
          "The lighthouse stood on the rocks above the bay, and every night the keeper climbed the stairs to light the lighthouse lamp. In winter storms the lighthouse shook, " +
          "the fishermen watched its beam from their boats, the children counted the flashes of the lighthouse from the harbour wall, and the families of the village slept.",
      },
      systemPrincipal,
    );
    await runWorker({ prisma: db.prisma, sql: db.sql, embedder, space, drain: true, idleMs: 10, batchSize: 8 });
    const measured = (b: number) => ({
      method: "scores" as const,
      meaningShare: { all: 0.5 },
      figures: {},
      lengthNormalisation: { all: b },
      source: "test",
      measuredAt: new Date().toISOString(),
    });
    await saveFusionCalibration(db.sql, space.id, measured(0));
    expect((await ranking("lighthouse", "keyword")).slice(0, 2)).toEqual([long.id, short.id]);
    await saveFusionCalibration(db.sql, space.id, measured(1));
    expect((await ranking("lighthouse", "keyword")).slice(0, 2)).toEqual([short.id, long.id]);
    expect((await listSpaceOverview(db.sql, admin)).find((entry) => entry.id === space.id)?.fusion?.lengthNormalisation).toEqual({ all: 1 });
    await saveFusionCalibration(db.sql, space.id, null);
  });

  it("the words leg follows the stored share of a record's second passage: two passages that mention it beat one that repeats it at 1, not at 0", async () => {
    const section = await db.prisma.section.findFirstOrThrow({ where: { embedGroups: { some: { slug: "all" } } } });
    const project = await db.prisma.project.findFirstOrThrow();
    const filler = (topic: string) =>
      `The ${topic} were recorded by the village council over many years, with the names of the families, the dates of each season, the boats that came and went, ` +
      `the weather of every month, the prices paid at the market and the quarrels settled in the square, so that the archive keeps a full account of daily life. `;
    const once = await createRecord(
      db.prisma,
      section,
      project.id,
      { title: "Winter log", summary: "The breakwater held against the winter sea, and the boats in the harbour were safe." },
      systemPrincipal,
    );
    const twice = await createRecord(
      db.prisma,
      section,
      project.id,
      {
        title: "Quay notes",
        summary: `${filler("tides")}The breakwater was built in stone. ${filler("fisheries")}${filler("storms")}${filler("harvests")}The breakwater was mended. ${filler("markets")}`,
      },
      systemPrincipal,
    );
    await runWorker({ prisma: db.prisma, sql: db.sql, embedder, space, drain: true, idleMs: 10, batchSize: 8 });
    const [counted] = await db.sql.query<{ passages: number }>(
      `SELECT count(*)::int AS passages FROM chunks WHERE record_id = $1 AND index_space_id = $2 AND search_vector @@ to_tsquery('english', 'breakwater')`,
      [twice.id, space.id],
    );
    expect(counted?.passages).toBeGreaterThanOrEqual(2);
    const measured = (secondPassage: number) => ({
      method: "scores" as const,
      meaningShare: { all: 0.5 },
      figures: {},
      secondPassage,
      source: "test",
      measuredAt: new Date().toISOString(),
    });
    await saveFusionCalibration(db.sql, space.id, measured(1));
    expect((await ranking("breakwater", "keyword")).slice(0, 2)).toEqual([twice.id, once.id]);
    await saveFusionCalibration(db.sql, space.id, measured(0));
    expect((await ranking("breakwater", "keyword")).slice(0, 2)).toEqual([once.id, twice.id]);
    expect((await listSpaceOverview(db.sql, admin)).find((entry) => entry.id === space.id)?.fusion?.secondPassage).toBe(0);
    await saveFusionCalibration(db.sql, space.id, null);
  });
});
