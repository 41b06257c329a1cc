import { beforeAll, describe, expect, it } from "vitest";
import { type Principal, systemPrincipal } from "../../lib/acl";
import { activateSpace, registerCandidateSpace } from "../../lib/admin/model-switch";
import type { Database } from "../../lib/db/database";
import { type AskContext, type AskOutcome, ask } from "../../lib/rag/ask/ask";
import { CHUNKER_VERSION } from "../../lib/rag/chunk";
import type { Embedder } from "../../lib/rag/embed/embedder";
import { createHashEmbedder } from "../../lib/rag/embed/hash-embedder";
import { ensureIndexSpace, getActiveIndexSpace, type IndexSpace } from "../../lib/rag/index/index-spaces";
import { saveEmbedGroup } from "../../lib/rag/index/save-embed-group";
import { embedderForSpace } from "../../lib/rag/index/space-embedders";
import { runtimeOver } from "../../lib/runtime";
import { closeAfterAll } from "../support/close-after-all";
import { drainEverySpace } from "../support/drain-every-space";
import { createProject, createRecord, createSection, createUser, principalOf } from "../support/factories";
import { englishOnly } from "../support/service-runtime";
import { openTestDatabase } from "../support/test-database";

/**
 * The runtime (lib/runtime.ts) follows the active index space: after an admin switches spaces,
 * the next request's search and answer generator use the new space's model, and the old
 * space's embedder is not called again — the generator is not the one built for the space that
 * was active at the first question.
 */
let db: Database;
let original: IndexSpace;
let admin: Principal;
const embedder = createHashEmbedder({ dimension: 32 });

const drain = () => drainEverySpace(db, embedder, original);

/** Counts the calls of one embedder instance (the cached one the runtime uses for its space). */
function countCalls(target: Embedder): { calls: number } {
  const counter = { calls: 0 };
  const embed = target.embed.bind(target);
  Object.assign(target, {
    embed: (...args: Parameters<Embedder["embed"]>) => {
      counter.calls += 1;
      return embed(...args);
    },
  });
  return counter;
}

async function answer(context: AskContext, question: string): Promise<AskOutcome> {
  // No translation bridge, and a bar every readable passage clears, so the generator runs.
  const permissive: AskContext = {
    ...context,
    prepare: englishOnly,
    settings: { ...context.settings, minSimilarity: 0.05, strongSimilarity: 0.99, minTermCoverage: 0.2 },
  };
  const events = ask(permissive, systemPrincipal, { question });
  let next = await events.next();
  while (!next.done) next = await events.next();
  return next.value;
}

beforeAll(async () => {
  db = await openTestDatabase();
  original = await ensureIndexSpace(db.sql, {
    provider: embedder.provider,
    model: embedder.model,
    dimension: embedder.dimension,
    chunkerVersion: CHUNKER_VERSION,
  });
  await db.sql.query(`UPDATE index_spaces SET config = $2::jsonb WHERE id = $1`, [original.id, JSON.stringify({ provider: "hash", dimension: 32 })]);
  admin = await principalOf(db.prisma, (await createUser(db.prisma, { role: "admin" })).id);
  const project = await createProject(db.prisma);
  const section = await createSection(db.prisma);
  await saveEmbedGroup(db.prisma, db.sql, {
    sectionSlug: section.slug,
    group: { slug: "all", label: "All", fields: ["title", "summary"], chunking: "short", maxTokens: 128, minTokens: 1, overlap: 0, languages: [] },
    requeue: false,
  });
  await createRecord(db.prisma, section, project.id, { title: "Net menders", summary: "Mending nets on the quay." }, systemPrincipal);
  await createRecord(db.prisma, section, project.id, { title: "Salt fish", summary: "Barrels of salted cod." }, systemPrincipal);
  await drain();
}, 120_000);

closeAfterAll(() => db);

describe("the runtime across a model switch", () => {
  it("answers with the new space's model once an admin switched spaces", async () => {
    const before = runtimeOver(db);
    const startSpace = await before.space();
    expect(startSpace?.id).toBe(original.id);
    const first = await before.ask();
    expect(first.embedder.dimension).toBe(32);
    const firstOutcome = await answer(first, "mending nets on the quay");
    expect(firstOutcome.status, firstOutcome.text).toBe("answered");

    const { spaceId } = await registerCandidateSpace(db.sql, admin, { provider: "hash", dimension: 48 });
    await drain();
    await activateSpace(db.sql, admin, spaceId);
    const active = await getActiveIndexSpace(db.sql);
    expect(active?.id).toBe(spaceId);

    const oldModel = countCalls(embedderForSpace(startSpace!)!);
    const newModel = countCalls(embedderForSpace(active!)!);
    const after = runtimeOver(db);
    const second = await after.ask();
    expect(second.space?.id).toBe(spaceId);
    expect(second.embedder.dimension).toBe(48);
    expect(second.generator).not.toBe(first.generator);
    const outcome = await answer(second, "mending nets on the quay");
    expect(outcome.status, outcome.text).toBe("answered");
    expect(outcome.citations.map((citation) => citation.recordTitle)).toContain("Net menders");
    // Search embedded the question with the new model, and so did the generator; the old model rests.
    expect(newModel.calls).toBeGreaterThan(1);
    expect(oldModel.calls).toBe(0);
    // The search and objects contexts of the same request are in the same space.
    expect((await after.search()).space?.id).toBe(spaceId);
    expect((await after.objects()).textSpace?.id).toBe(spaceId);
  });
});
