import { beforeAll, describe, expect, it } from "vitest";
import { type Principal, systemPrincipal } from "../../lib/acl";
import { saveGoldenSet } from "../../lib/admin/golden-sets";
import { activateSpace, compareSpaces, listSpaceOverview, registerCandidateSpace, rollbackSpace } from "../../lib/admin/model-switch";
import type { Database } from "../../lib/db/database";
import { saveEmbedGroup } from "../../lib/rag/index/save-embed-group";
import { createHashEmbedder } from "../../lib/rag/embed/hash-embedder";
import { getActiveIndexSpace, type IndexSpace } from "../../lib/rag/index/index-spaces";
import { embedderForSpace } from "../../lib/rag/index/space-embedders";
import { passThroughReranker } from "../../lib/rag/search/rerank";
import { searchArchive } from "../../lib/rag/search/search-archive";
import { closeAfterAll } from "../support/close-after-all";
import { drainEverySpace } from "../support/drain-every-space";
import { createProject, createRecord, createSection, createUser, principalOf, testIndexSpace } from "../support/factories";
import { openTestDatabase } from "../support/test-database";

/**
 * A model switch on a small corpus with the test embedder: a candidate space is registered,
 * built beside the active one by the worker, compared on a golden set, activated in one step
 * (search follows it) and rolled back. Activation waits for a complete build; admins only.
 */
let db: Database;
let original: IndexSpace;
let admin: Principal;
let curator: Principal;
let goldenSetId: string;
const embedder = createHashEmbedder({ dimension: 32 });

const drain = () => drainEverySpace(db, embedder, original);

beforeAll(async () => {
  db = await openTestDatabase();
  original = await testIndexSpace(db.sql, embedder);
  // As the environment would describe it: the test embedder, 32 dimensions.
  await db.sql.query(`UPDATE index_spaces SET config = $2::jsonb WHERE id = $1`, [original.id, JSON.stringify({ provider: "hash", dimension: 32 })]);
  admin = await principalOf(db.prisma, (await createUser(db.prisma, { role: "admin" })).id);
  curator = await principalOf(db.prisma, (await createUser(db.prisma, { role: "curator" })).id);
  const project = await createProject(db.prisma);
  const section = await createSection(db.prisma);
  await saveEmbedGroup(db.prisma, db.sql, {
    sectionSlug: section.slug,
    group: { slug: "all", label: "All", fields: ["title", "summary"], chunking: "short", maxTokens: 128, minTokens: 1, overlap: 0, languages: [] },
    requeue: false,
  });
  const nets = await createRecord(db.prisma, section, project.id, { title: "Net menders", summary: "Mending nets on the quay." }, systemPrincipal);
  await createRecord(db.prisma, section, project.id, { title: "Salt fish", summary: "Barrels of salted cod." }, systemPrincipal);
  await drain();
  goldenSetId = (
    await saveGoldenSet(db.prisma, admin, {
      set: { name: "Switch", sectionSlug: section.slug, questions: [{ question: "mending nets", expected: [nets.id] }] },
    })
  ).id;
}, 120_000);

closeAfterAll(() => db);

describe("model switch", () => {
  it("is out of reach for anyone but an admin", async () => {
    await expect(listSpaceOverview(db.sql, curator)).rejects.toMatchObject({ code: "not_found" });
    await expect(registerCandidateSpace(db.sql, curator, { provider: "hash", dimension: 48 })).rejects.toMatchObject({ code: "not_found" });
    await expect(activateSpace(db.sql, curator, original.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(rollbackSpace(db.sql, curator)).rejects.toMatchObject({ code: "not_found" });
  });

  it("builds a candidate beside the active space, compares, switches in one step and rolls back", async () => {
    await expect(registerCandidateSpace(db.sql, admin, { provider: "openai-compatible", baseUrl: "ftp://x", model: "", dimension: 0 })).rejects.toMatchObject({
      code: "bad_request",
    });
    const { spaceId } = await registerCandidateSpace(db.sql, admin, { provider: "hash", dimension: 48 });
    // Not built yet: activation is refused with the count.
    await expect(activateSpace(db.sql, admin, spaceId)).rejects.toMatchObject({ code: "bad_request", message: expect.stringMatching(/Only 0 of 2 records/) });
    await drain();
    const overview = await listSpaceOverview(db.sql, admin);
    expect(overview.find((space) => space.id === spaceId)).toMatchObject({ status: "building", indexed: 2, records: 2, usable: true });
    expect((await getActiveIndexSpace(db.sql))?.id).toBe(original.id);

    const comparison = await compareSpaces(db.prisma, db.sql, admin, { goldenSetId, candidateId: spaceId, mode: "semantic" });
    expect(comparison.map((row) => row.spaceId)).toEqual([original.id, spaceId]);
    for (const row of comparison) expect(row.metrics.questions).toBe(1);

    await activateSpace(db.sql, admin, spaceId);
    const active = await getActiveIndexSpace(db.sql);
    expect(active?.id).toBe(spaceId);
    expect(active?.dimension).toBe(48);
    const candidateEmbedder = active ? embedderForSpace(active) : null;
    expect(candidateEmbedder?.dimension).toBe(48);
    const found = await searchArchive({ sql: db.sql, embedder: candidateEmbedder ?? embedder, reranker: passThroughReranker, space: active }, systemPrincipal, {
      query: "mending nets",
      mode: "semantic",
    });
    expect(found.hits.length).toBeGreaterThan(0);

    await rollbackSpace(db.sql, admin);
    expect((await getActiveIndexSpace(db.sql))?.id).toBe(original.id);
    const actions = await db.prisma.auditEvent.findMany({ where: { targetType: "index_space" }, orderBy: { at: "asc" } });
    expect(actions.map((event) => event.action)).toEqual(["index-space.register", "index-space.activate", "index-space.rollback"]);
  });
});
