import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Principal, systemPrincipal } from "../../lib/acl";
import { scoreDistribution, setAskThresholds } from "../../lib/admin/ask-thresholds";
import { readAskThresholdOverrides } from "../../lib/rag/ask/ask-settings";
import { deleteGoldenSet, getGoldenSet, listGoldenSets, runGoldenSet, saveGoldenSet } from "../../lib/admin/golden-sets";
import type { Database } from "../../lib/db/database";
import { describeError } from "../../lib/errors";
import { saveEmbedGroup } from "../../lib/rag/index/save-embed-group";
import { createHashEmbedder } from "../../lib/rag/embed/hash-embedder";
import { type IndexSpace } from "../../lib/rag/index/index-spaces";
import { runWorker } from "../../lib/rag/index/run-worker";
import { passThroughReranker } from "../../lib/rag/search/rerank";
import type { SearchContext } from "../../lib/rag/search/search-archive";
import { createProject, createRecord, createSection, createUser, memberPrincipal, principalOf, testIndexSpace } from "../support/factories";
import { openTestDatabase } from "../support/test-database";

/**
 * Golden sets: kept by admins and curators (researchers: not found), each set its owner's (admins
 * see all; anyone else finds another's set exactly as a missing one), validated, run with the
 * runner's access — recall@k, nDCG@10, MRR and the misses — and shown under the viewer's access
 * every time: a record the viewer cannot read is never named, linked or counted.
 */
let db: Database;
let space: IndexSpace;
let search: SearchContext;
let admin: Principal;
let curator: Principal;
let otherCurator: Principal;
let researcher: Principal;
let sectionSlug: string;
const ids: Record<string, string> = {};
let restrictedProjectId: string;
const missingSetId = "00000000-0000-4000-8000-00000000beef";

/** A view with what differs between two sets of the same questions (ids, names, times) taken out. */
function comparable(view: Awaited<ReturnType<typeof getGoldenSet>>) {
  return { questions: view.questions, runs: view.runs.map((run) => ({ mode: run.mode, metrics: run.metrics, results: run.results })) };
}
const embedder = createHashEmbedder({ dimension: 64 });

beforeAll(async () => {
  db = await openTestDatabase();
  space = await testIndexSpace(db.sql, embedder);
  search = { sql: db.sql, embedder, reranker: passThroughReranker, space };
  const open = await createProject(db.prisma);
  const restricted = await createProject(db.prisma, { restricted: true });
  admin = await principalOf(db.prisma, (await createUser(db.prisma, { role: "admin" })).id);
  curator = await memberPrincipal(db.prisma, open.id, { role: "curator", membership: "editor" });
  otherCurator = await memberPrincipal(db.prisma, open.id, { role: "curator", membership: "editor" });
  researcher = await memberPrincipal(db.prisma, open.id);
  const section = await createSection(db.prisma);
  sectionSlug = section.slug;
  await saveEmbedGroup(db.prisma, db.sql, {
    sectionSlug,
    group: { slug: "all", label: "All", fields: ["title", "summary"], chunking: "short", maxTokens: 128, minTokens: 1, overlap: 0, languages: [] },
    requeue: false,
  });
  ids.nets = (
    await createRecord(db.prisma, section, open.id, { title: "Net menders", summary: "Mending nets on the quay every morning." }, systemPrincipal)
  ).id;
  ids.salt = (await createRecord(db.prisma, section, open.id, { title: "Salt fish", summary: "Barrels of salted cod for the winter." }, systemPrincipal)).id;
  ids.bells = (await createRecord(db.prisma, section, open.id, { title: "Bells", summary: "The church bells were carried away." }, systemPrincipal)).id;
  ids.secret = (
    await createRecord(db.prisma, section, restricted.id, { title: "Sealed ledger of nets", summary: "Confidential nets accounts." }, systemPrincipal)
  ).id;
  ids.secondSecret = (
    await createRecord(
      db.prisma,
      section,
      restricted.id,
      { title: "Sealed register of nets", summary: "Confidential nets accounts, second book." },
      systemPrincipal,
    )
  ).id;
  ids.lantern = (
    await createRecord(db.prisma, section, open.id, { title: "Lantern maker", summary: "Lanterns soldered for the lighthouse keepers." }, systemPrincipal)
  ).id;
  restrictedProjectId = restricted.id;
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
    await expect(
      saveGoldenSet(db.prisma, curator, { set: { name: "Leak", sectionSlug, questions: [{ question: "nets", expected: [ids.secret] }] } }),
    ).rejects.toMatchObject({
      code: "bad_request",
      fieldErrors: { "questions.0.expected": ["An expected record does not exist."] },
    });
  });

  it("store a record named twice in one question once, on create and on save alike", async () => {
    const storedExpected = async (id: string) =>
      ((await db.prisma.goldenSet.findUniqueOrThrow({ where: { id } })).questions as { expected: string[] }[]).map((question) => question.expected);
    const created = await saveGoldenSet(db.prisma, curator, {
      set: { name: "Twice", sectionSlug, questions: [{ question: "mending nets", expected: [ids.nets, ids.nets] }] },
    });
    expect(await storedExpected(created.id)).toEqual([[ids.nets]]);
    await saveGoldenSet(db.prisma, curator, {
      id: created.id,
      set: { name: "Twice", sectionSlug, questions: [{ question: "mending nets", expected: [ids.nets, ids.salt, ids.nets] }] },
    });
    expect(await storedExpected(created.id)).toEqual([[ids.nets, ids.salt]]);
    const run = await runGoldenSet(db.prisma, search, curator, { id: created.id, mode: "keyword" });
    const [only] = run.results;
    expect([...(only?.found ?? []), ...(only?.missed ?? [])].map((item) => item.recordId).sort()).toEqual([ids.nets, ids.salt].sort());
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

  it("never name a record the runner cannot read, and keep it through its owner's edit", async () => {
    const saved = await saveGoldenSet(db.prisma, curator, { set: { name: "With a sealed record", questions: [{ question: "nets", expected: [ids.nets] }] } });
    // An admin adds a record the curator cannot read to the curator's set.
    await saveGoldenSet(db.prisma, admin, {
      id: saved.id,
      set: { name: "With a sealed record", questions: [{ question: "nets", expected: [ids.nets, ids.secret] }] },
    });
    const asCurator = await runGoldenSet(db.prisma, search, curator, { id: saved.id, mode: "keyword" });
    expect(JSON.stringify(asCurator)).not.toContain(ids.secret);
    expect(JSON.stringify(asCurator)).not.toContain("Sealed ledger");
    const viewed = await getGoldenSet(db.prisma, curator, saved.id);
    expect(viewed.questions[0]?.unreadableExpected).toBe(true);
    expect(JSON.stringify(viewed)).not.toContain(ids.secret);
    // The owner edits the set: the sealed record they cannot see stays in it.
    await saveGoldenSet(db.prisma, curator, { id: saved.id, set: { name: "Renamed", questions: [{ question: "nets", expected: [ids.nets] }] } });
    const stored = await db.prisma.goldenSet.findUniqueOrThrow({ where: { id: saved.id } });
    expect([...((stored.questions as { expected: string[] }[])[0]?.expected ?? [])].sort()).toEqual([ids.nets, ids.secret].sort());
    // Removing the question would drop it without the owner seeing what: refused, nothing changes.
    await expect(saveGoldenSet(db.prisma, curator, { id: saved.id, set: { name: "Renamed", questions: [] } })).rejects.toMatchObject({ code: "bad_request" });
    const unchanged = await db.prisma.goldenSet.findUniqueOrThrow({ where: { id: saved.id } });
    expect(unchanged.questions).toEqual(stored.questions);
    const asAdmin = await runGoldenSet(db.prisma, search, admin, { id: saved.id, mode: "keyword" });
    expect(asAdmin.results[0]?.unreadableExpected).toBe(false);
    await deleteGoldenSet(db.prisma, curator, saved.id);
    await expect(getGoldenSet(db.prisma, admin, saved.id)).rejects.toMatchObject({ code: "not_found" });
  });

  it("belong to their owner: another keeper finds an admin's set exactly like a missing one and cannot change or run it", async () => {
    const adminSet = await saveGoldenSet(db.prisma, admin, {
      set: { name: "Mine closure questions", questions: [{ question: "confidential nets accounts", expected: [ids.secret, ids.nets] }] },
    });
    await runGoldenSet(db.prisma, search, admin, { id: adminSet.id, mode: "keyword" });
    const attempts: [string, (id: string) => Promise<unknown>][] = [
      ["view", (id) => getGoldenSet(db.prisma, curator, id)],
      ["edit", (id) => saveGoldenSet(db.prisma, curator, { id, set: { name: "Taken over", questions: [{ question: "nets", expected: [ids.nets] }] } })],
      ["delete", (id) => deleteGoldenSet(db.prisma, curator, id)],
      ["run", (id) => runGoldenSet(db.prisma, search, curator, { id, mode: "keyword" })],
    ];
    for (const [label, attempt] of attempts) {
      const denied = await attempt(adminSet.id).then(() => null, describeError);
      const missing = await attempt(missingSetId).then(() => null, describeError);
      expect(denied, label).toMatchObject({ code: "not_found" });
      expect(denied, label).toEqual(missing);
    }
    const listed = JSON.stringify(await listGoldenSets(db.prisma, curator));
    expect(listed).not.toContain(adminSet.id);
    expect(listed).not.toContain("Mine closure questions");
    expect(listed).not.toContain("confidential nets accounts");

    const stored = await db.prisma.goldenSet.findUniqueOrThrow({ where: { id: adminSet.id }, include: { runs: true } });
    expect(stored.name).toBe("Mine closure questions");
    expect((stored.questions as { expected: string[] }[])[0]?.expected.sort()).toEqual([ids.secret, ids.nets].sort());
    expect(stored.runs).toHaveLength(1);
    const asAdmin = await getGoldenSet(db.prisma, admin, adminSet.id);
    expect(asAdmin.questions[0]?.expected.map((item) => item.title).sort()).toEqual(["Net menders", "Sealed ledger of nets"]);
  });

  it("are seen by their owner and by admins, and by no other keeper", async () => {
    const own = await saveGoldenSet(db.prisma, curator, {
      set: { name: "Curator's own", sectionSlug, questions: [{ question: "salted cod", expected: [ids.salt] }] },
    });
    const mine = await getGoldenSet(db.prisma, curator, own.id);
    expect(mine.questions).toEqual([{ question: "salted cod", expected: [{ recordId: ids.salt, title: "Salt fish" }], unreadableExpected: false }]);
    expect((await listGoldenSets(db.prisma, curator)).map((set) => set.id)).toContain(own.id);
    expect((await listGoldenSets(db.prisma, admin)).map((set) => set.id)).toContain(own.id);
    expect((await getGoldenSet(db.prisma, admin, own.id)).name).toBe("Curator's own");
    expect((await listGoldenSets(db.prisma, otherCurator)).map((set) => set.id)).not.toContain(own.id);
    await expect(getGoldenSet(db.prisma, otherCurator, own.id)).rejects.toMatchObject({ code: "not_found" });
    // An admin may keep anyone's set: the owner stays the owner.
    await saveGoldenSet(db.prisma, admin, {
      id: own.id,
      set: { name: "Curator's own, renamed", sectionSlug, questions: [{ question: "salted cod", expected: [ids.salt] }] },
    });
    expect((await getGoldenSet(db.prisma, curator, own.id)).name).toBe("Curator's own, renamed");
    await deleteGoldenSet(db.prisma, curator, own.id);
  });

  it("seeded without an owner (the demo's sets) are the admins'", async () => {
    const seeded = await db.prisma.goldenSet.create({
      data: { name: "Archive search, seeded", questions: [{ question: "mending nets", expected: [ids.nets] }] as never },
    });
    expect((await listGoldenSets(db.prisma, admin)).map((set) => set.id)).toContain(seeded.id);
    expect((await getGoldenSet(db.prisma, admin, seeded.id)).questions[0]?.expected).toEqual([{ recordId: ids.nets, title: "Net menders" }]);
    expect((await listGoldenSets(db.prisma, curator)).map((set) => set.id)).not.toContain(seeded.id);
    await expect(getGoldenSet(db.prisma, curator, seeded.id)).rejects.toMatchObject({ code: "not_found" });
  });

  it("show an admin's run to the owner under the owner's access: no title, id, link or count of a record they cannot read", async () => {
    // Two sets of the curator with the same question; an admin adds one sealed record to the
    // first and two to the second, and runs both. The curator must not be able to tell them apart.
    const question = "confidential nets accounts mending";
    const one = await saveGoldenSet(db.prisma, curator, { set: { name: "Nets, one", sectionSlug, questions: [{ question, expected: [ids.nets] }] } });
    const two = await saveGoldenSet(db.prisma, curator, { set: { name: "Nets, two", sectionSlug, questions: [{ question, expected: [ids.nets] }] } });
    await saveGoldenSet(db.prisma, admin, { id: one.id, set: { name: "Nets, one", sectionSlug, questions: [{ question, expected: [ids.nets, ids.secret] }] } });
    await saveGoldenSet(db.prisma, admin, {
      id: two.id,
      set: { name: "Nets, two", sectionSlug, questions: [{ question, expected: [ids.nets, ids.secret, ids.secondSecret] }] },
    });
    const adminRun = await runGoldenSet(db.prisma, search, admin, { id: two.id, mode: "keyword" });
    await runGoldenSet(db.prisma, search, admin, { id: one.id, mode: "keyword" });
    // The admin's own view names what the admin found, sealed records included.
    expect(adminRun.results[0]?.found.map((item) => item.recordId)).toEqual(expect.arrayContaining([ids.secret, ids.secondSecret]));

    const viewOne = await getGoldenSet(db.prisma, curator, one.id);
    const viewTwo = await getGoldenSet(db.prisma, curator, two.id);
    const listed = (await listGoldenSets(db.prisma, curator)).filter((set) => set.id === one.id || set.id === two.id);
    for (const shown of [viewOne, viewTwo, listed]) {
      const text = JSON.stringify(shown);
      for (const secret of [ids.secret, ids.secondSecret, "Sealed ledger", "Sealed register"]) expect(text).not.toContain(secret);
    }
    expect(comparable(viewOne)).toEqual(comparable(viewTwo));
    expect(listed.map((set) => set.lastRun?.metrics)).toEqual([listed[0]?.lastRun?.metrics, listed[0]?.lastRun?.metrics]);
    const [result] = viewTwo.runs[0]?.results ?? [];
    expect(result?.unreadableExpected).toBe(true);
    // Figures and ranks over what the curator can read: the open record, first among those.
    expect(result?.found).toEqual([{ recordId: ids.nets, title: "Net menders", rank: 1 }]);
    expect(result?.recall).toBe(1);
    expect(viewTwo.questions[0]?.unreadableExpected).toBe(true);
  });

  it("are resolved under the viewer's access each time they are shown, not when they were run", async () => {
    const saved = await saveGoldenSet(db.prisma, curator, {
      set: { name: "Lanterns", sectionSlug, questions: [{ question: "lanterns for the lighthouse", expected: [ids.lantern] }] },
    });
    await runGoldenSet(db.prisma, search, curator, { id: saved.id, mode: "keyword" });
    expect((await getGoldenSet(db.prisma, curator, saved.id)).runs[0]?.results[0]?.found).toEqual([{ recordId: ids.lantern, title: "Lantern maker", rank: 1 }]);
    // The record moves to a project the curator cannot read: the stored run no longer names it.
    await db.prisma.record.update({ where: { id: ids.lantern }, data: { projectId: restrictedProjectId } });
    const after = await getGoldenSet(db.prisma, curator, saved.id);
    expect(JSON.stringify(after)).not.toContain(ids.lantern);
    expect(JSON.stringify(after)).not.toContain("Lantern maker");
    expect(after.runs[0]?.results[0]).toMatchObject({ found: [], missed: [], unreadableExpected: true });
    expect(after.runs[0]?.metrics.questions).toBe(0);
  });

  it("give admins the score distribution of relevant and irrelevant passages, and the thresholds they set apply", async () => {
    const saved = await saveGoldenSet(db.prisma, admin, {
      set: {
        name: "Thresholds",
        sectionSlug,
        questions: [
          { question: "mending nets on the quay", expected: [ids.nets] },
          { question: "salted cod", expected: [ids.salt] },
        ],
      },
    });
    await expect(scoreDistribution(search, curator, { goldenSetId: saved.id })).rejects.toMatchObject({ code: "not_found" });
    const distribution = await scoreDistribution(search, admin, { goldenSetId: saved.id });
    expect(distribution.questions).toBe(2);
    const relevant = distribution.relevant.reduce((sum, count) => sum + count, 0);
    const irrelevant = distribution.irrelevant.reduce((sum, count) => sum + count, 0);
    expect(relevant).toBeGreaterThanOrEqual(2);
    expect(irrelevant).toBeGreaterThan(0);
    expect(distribution.thresholds[0]).toMatchObject({ at: 0, relevantKept: 1 });

    await expect(setAskThresholds(db.sql, curator, { minSimilarity: 0.2, strongSimilarity: 0.4, minTermCoverage: 0.3 })).rejects.toMatchObject({
      code: "not_found",
    });
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
