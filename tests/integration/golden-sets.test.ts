import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Principal, systemPrincipal } from "../../lib/acl";
import { readAskThresholdOverrides, scoreDistribution, setAskThresholds } from "../../lib/admin/ask-thresholds";
import { deleteGoldenSet, getGoldenSet, listGoldenSets, runGoldenSet, saveGoldenSet } from "../../lib/admin/golden-sets";
import type { Database } from "../../lib/db/database";
import { CHUNKER_VERSION } from "../../lib/rag/chunk";
import { saveEmbedGroup } from "../../lib/rag/config/embed-groups";
import { createHashEmbedder } from "../../lib/rag/embed/hash-embedder";
import { ensureIndexSpace, type IndexSpace } from "../../lib/rag/index/index-spaces";
import { runWorker } from "../../lib/rag/index/run-worker";
import { passThroughReranker } from "../../lib/rag/search/rerank";
import type { SearchContext } from "../../lib/rag/search/search-archive";
import { addMember, createProject, createRecord, createSection, createUser, principalOf } from "../support/factories";
import { openTestDatabase } from "../support/test-database";

/**
 * Golden sets: kept by admins and curators (researchers: not found), validated, run with the
 * runner's access — recall@k, nDCG@10, MRR and the misses — and never naming a record the
 * runner cannot read.
 */
let db: Database;
let space: IndexSpace;
let search: SearchContext;
let admin: Principal;
let curator: Principal;
let researcher: Principal;
let sectionSlug: string;
const ids: Record<string, string> = {};
const embedder = createHashEmbedder({ dimension: 64 });

beforeAll(async () => {
  db = await openTestDatabase();
  space = await ensureIndexSpace(db.sql, { provider: embedder.provider, model: embedder.model, dimension: embedder.dimension, chunkerVersion: CHUNKER_VERSION });
  search = { sql: db.sql, embedder, reranker: passThroughReranker, space };
  const open = await createProject(db.prisma);
  const restricted = await createProject(db.prisma, { restricted: true });
  admin = await principalOf(db.prisma, (await createUser(db.prisma, { role: "admin" })).id);
  const curatorUser = await createUser(db.prisma, { role: "curator" });
  await addMember(db.prisma, curatorUser.id, open.id, "editor");
  curator = await principalOf(db.prisma, curatorUser.id);
  const researcherUser = await createUser(db.prisma);
  await addMember(db.prisma, researcherUser.id, open.id);
  researcher = await principalOf(db.prisma, researcherUser.id);
  const section = await createSection(db.prisma);
  sectionSlug = section.slug;
  await saveEmbedGroup(db.prisma, db.sql, { sectionSlug, group: { slug: "all", label: "All", fields: ["title", "summary"], chunking: "short", maxTokens: 128, minTokens: 1, overlap: 0, languages: [] }, requeue: false });
  ids.nets = (await createRecord(db.prisma, section, open.id, { title: "Net menders", summary: "Mending nets on the quay every morning." }, systemPrincipal)).id;
  ids.salt = (await createRecord(db.prisma, section, open.id, { title: "Salt fish", summary: "Barrels of salted cod for the winter." }, systemPrincipal)).id;
  ids.bells = (await createRecord(db.prisma, section, open.id, { title: "Bells", summary: "The church bells were carried away." }, systemPrincipal)).id;
  ids.secret = (await createRecord(db.prisma, section, restricted.id, { title: "Sealed ledger of nets", summary: "Confidential nets accounts." }, systemPrincipal)).id;
  await runWorker({ prisma: db.prisma, sql: db.sql, embedder, space, drain: true, idleMs: 10, batchSize: 8 });
}, 120_000);

afterAll(async () => {
  await db?.close();
});

describe("golden sets", () => {
  it("are not found for researchers", async () => {
    const attempts = [
      listGoldenSets(db.prisma, researcher),
      getGoldenSet(db.prisma, researcher, "00000000-0000-4000-8000-000000000000"),
      saveGoldenSet(db.prisma, researcher, { set: { name: "x", questions: [] } }),
      runGoldenSet(db.prisma, search, researcher, { id: "00000000-0000-4000-8000-000000000000" }),
      deleteGoldenSet(db.prisma, researcher, "00000000-0000-4000-8000-000000000000"),
    ];
    for (const attempt of attempts) await expect(attempt).rejects.toMatchObject({ code: "not_found" });
  });

  it("validate questions and refuse expected records the keeper cannot read", async () => {
    const empty = await saveGoldenSet(db.prisma, curator, { set: { name: "", questions: [{ question: "", expected: [] }] } }).catch((error: unknown) => error);
    expect(Object.keys((empty as { fieldErrors?: object }).fieldErrors ?? {}).sort()).toEqual(["name", "questions.0.expected", "questions.0.question"]);
    await expect(saveGoldenSet(db.prisma, curator, { set: { name: "Leak", sectionSlug, questions: [{ question: "nets", expected: [ids.secret] }] } })).rejects.toMatchObject({
      code: "bad_request",
      fieldErrors: { "questions.0.expected": ["An expected record does not exist."] },
    });
  });

  it("run with recall@k, nDCG@10, MRR and the misses listed", async () => {
    const saved = await saveGoldenSet(db.prisma, curator, {
      set: {
        name: "Harbour",
        sectionSlug,
        questions: [
          { question: "mending nets", expected: [ids.nets] },
          { question: "salted cod barrels", expected: [ids.salt, ids.bells] },
        ],
      },
    });
    const run = await runGoldenSet(db.prisma, search, curator, { id: saved.id, mode: "keyword" });
    expect(run.metrics.questions).toBe(2);
    const [nets, salt] = run.results;
    expect(nets).toMatchObject({ recall: 1, reciprocalRank: 1, ndcg: 1 });
    expect(salt?.recall).toBe(0.5);
    expect(salt?.missed).toEqual([{ recordId: ids.bells, title: "Bells" }]);
    expect(run.metrics.recallAtK).toBeCloseTo(0.75, 10);
    expect(run.metrics.mrr10).toBeCloseTo(1, 10);
    const listed = (await listGoldenSets(db.prisma, curator)).find((set) => set.id === saved.id);
    expect(listed?.lastRun?.metrics.recallAtK).toBeCloseTo(0.75, 10);
  });

  it("never names a record the runner cannot read, and counts it apart", async () => {
    const saved = await saveGoldenSet(db.prisma, admin, { set: { name: "With a sealed record", questions: [{ question: "nets", expected: [ids.nets, ids.secret] }] } });
    const asCurator = await runGoldenSet(db.prisma, search, curator, { id: saved.id, mode: "keyword" });
    expect(asCurator.metrics.unreadableExpected).toBe(1);
    expect(JSON.stringify(asCurator)).not.toContain(ids.secret);
    expect(JSON.stringify(asCurator)).not.toContain("Sealed ledger");
    const viewed = await getGoldenSet(db.prisma, curator, saved.id);
    expect(viewed.questions[0]?.hiddenExpected).toBe(1);
    expect(JSON.stringify(viewed)).not.toContain(ids.secret);
    // The curator edits the set: the sealed record they cannot see stays in it.
    await saveGoldenSet(db.prisma, curator, { id: saved.id, set: { name: "Renamed", questions: [{ question: "nets", expected: [ids.nets] }] } });
    const stored = await db.prisma.goldenSet.findUniqueOrThrow({ where: { id: saved.id } });
    expect((stored.questions as { expected: string[] }[])[0]?.expected.sort()).toEqual([ids.nets, ids.secret].sort());
    const asAdmin = await runGoldenSet(db.prisma, search, admin, { id: saved.id, mode: "keyword" });
    expect(asAdmin.metrics.unreadableExpected).toBe(0);
    await deleteGoldenSet(db.prisma, curator, saved.id);
    await expect(getGoldenSet(db.prisma, admin, saved.id)).rejects.toMatchObject({ code: "not_found" });
  });

  it("give admins the score distribution of relevant and irrelevant passages, and the thresholds they set apply", async () => {
    const saved = await saveGoldenSet(db.prisma, admin, {
      set: { name: "Thresholds", sectionSlug, questions: [{ question: "mending nets on the quay", expected: [ids.nets] }, { question: "salted cod", expected: [ids.salt] }] },
    });
    await expect(scoreDistribution(search, curator, { goldenSetId: saved.id })).rejects.toMatchObject({ code: "not_found" });
    const distribution = await scoreDistribution(search, admin, { goldenSetId: saved.id });
    expect(distribution.questions).toBe(2);
    const relevant = distribution.relevant.reduce((sum, count) => sum + count, 0);
    const irrelevant = distribution.irrelevant.reduce((sum, count) => sum + count, 0);
    expect(relevant).toBeGreaterThanOrEqual(2);
    expect(irrelevant).toBeGreaterThan(0);
    expect(distribution.thresholds[0]).toMatchObject({ at: 0, relevantKept: 1 });

    await expect(setAskThresholds(db.sql, curator, { minSimilarity: 0.2, strongSimilarity: 0.4, minTermCoverage: 0.3 })).rejects.toMatchObject({ code: "not_found" });
    await expect(setAskThresholds(db.sql, admin, { minSimilarity: 0.6, strongSimilarity: 0.4, minTermCoverage: 0.3 })).rejects.toMatchObject({
      code: "bad_request",
      fieldErrors: { strongSimilarity: ["The strong threshold must not be below the minimum."] },
    });
    expect(await readAskThresholdOverrides(db.sql)).toEqual({});
    await setAskThresholds(db.sql, admin, { minSimilarity: 0.25, strongSimilarity: 0.45, minTermCoverage: 0.3 });
    expect(await readAskThresholdOverrides(db.sql)).toEqual({ minSimilarity: 0.25, strongSimilarity: 0.45, minTermCoverage: 0.3 });
    expect(await db.prisma.auditEvent.count({ where: { action: "settings.ask_thresholds" } })).toBe(1);
  });
});
