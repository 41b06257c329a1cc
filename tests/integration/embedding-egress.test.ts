import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemPrincipal } from "../../lib/acl";
import type { Database } from "../../lib/db/database";
import { createExtractiveGenerator } from "../../lib/rag/ask/extractive-generator";
import { CHUNKER_VERSION } from "../../lib/rag/chunk";
import { saveEmbedGroup } from "../../lib/rag/index/save-embed-group";
import { createOpenAiCompatibleEmbedder, isLoopback } from "../../lib/rag/embed/openai-compatible-embedder";
import { ensureIndexSpace } from "../../lib/rag/index/index-spaces";
import { runWorker } from "../../lib/rag/index/run-worker";
import { createLocalReranker, passThroughReranker } from "../../lib/rag/search/rerank";
import { searchArchive } from "../../lib/rag/search/search-archive";
import { createProject, createRecord, createSection, titleSummaryFields } from "../support/factories";
import { type FakeEmbeddingServer, startFakeEmbeddingServer } from "../support/fake-embedding-server";
import { openTestDatabase } from "../support/test-database";

/**
 * Security invariant 2 at indexing time: a remote embedding service never receives text of a
 * section whose egress policy is local_only — not the section's own passages, and not text it
 * contributes to another section's passage through a relation. Those passages are stored
 * without a vector and stay findable by keyword.
 */
let db: Database;
let fake: FakeEmbeddingServer;
const dimension = 16;

beforeAll(async () => {
  db = await openTestDatabase();
  fake = await startFakeEmbeddingServer({ dimension });
}, 60_000);

afterAll(async () => {
  await fake?.close();
  await db?.close();
});

describe("an external embedder", () => {
  it("is any remote endpoint; loopback servers are local unless configured otherwise", () => {
    for (const url of ["http://127.0.0.1:11434", "http://localhost:8080/v1", "http://[::1]:8080"]) expect(isLoopback(url), url).toBe(true);
    for (const url of ["https://api.openai.com/v1", "http://10.0.0.5:8080"]) expect(isLoopback(url), url).toBe(false);
    expect(createOpenAiCompatibleEmbedder({ baseUrl: "https://api.example.com", model: "m", dimension }).external).toBe(true);
    expect(createOpenAiCompatibleEmbedder({ baseUrl: "http://127.0.0.1:1", model: "m", dimension }).external).toBe(false);
    expect(createOpenAiCompatibleEmbedder({ baseUrl: "http://127.0.0.1:1", model: "m", dimension, external: true }).external).toBe(true);
  });

  it("never receives local-only text, even through a relation, and such passages stay keyword-searchable", async () => {
    const embedder = createOpenAiCompatibleEmbedder({ baseUrl: fake.url, model: "remote", dimension, external: true });
    const space = await ensureIndexSpace(db.sql, { provider: embedder.provider, model: embedder.model, dimension, chunkerVersion: CHUNKER_VERSION });
    const project = await createProject(db.prisma);
    const secret = await createSection(db.prisma, titleSummaryFields);
    const open = await createSection(db.prisma, [
      { key: "title", label: "Title", type: "text", required: true },
      { key: "summary", label: "Summary", type: "longtext" },
      { key: "source", label: "Source", type: "relation", targetSection: secret.slug },
    ]);
    await db.prisma.section.update({ where: { id: open.id }, data: { egressPolicy: "allow_external" } });
    await saveEmbedGroup(db.prisma, db.sql, {
      sectionSlug: secret.slug,
      group: { slug: "all", label: "All", fields: ["title", "summary"], chunking: "short", maxTokens: 128, minTokens: 1, overlap: 0, languages: [] },
      requeue: false,
    });
    await saveEmbedGroup(db.prisma, db.sql, {
      sectionSlug: open.slug,
      group: { slug: "all", label: "All", fields: ["title", "summary"], chunking: "short", maxTokens: 128, minTokens: 1, overlap: 0, languages: [] },
      requeue: false,
    });
    await saveEmbedGroup(db.prisma, db.sql, {
      sectionSlug: open.slug,
      group: {
        slug: "sourced",
        label: "With source",
        fields: ["title", "source.summary"],
        chunking: "short",
        maxTokens: 128,
        minTokens: 1,
        overlap: 0,
        languages: [],
      },
      requeue: false,
    });
    const hidden = await createRecord(db.prisma, secret, project.id, { title: "Quarrymen ledger", summary: "The zirconwhistle payments were never declared." });
    await createRecord(db.prisma, open, project.id, { title: "Open harbour notes", summary: "Fish auctions at dawn on the quay.", source: hidden.id });

    await runWorker({ prisma: db.prisma, sql: db.sql, embedder, space, drain: true, idleMs: 10, batchSize: 8 });

    expect(fake.received.length).toBeGreaterThan(0);
    expect(fake.received.join("\n")).toContain("Fish auctions at dawn");
    expect(fake.received.join("\n")).not.toMatch(/zirconwhistle|Quarrymen/i);
    const rows = await db.sql.query<{ section_id: string; has_vector: boolean; has_words: boolean; text: string }>(
      `SELECT section_id, embedding IS NOT NULL AS has_vector, search_vector IS NOT NULL AS has_words, text FROM chunks WHERE index_space_id = $1`,
      [space.id],
    );
    const withheld = rows.filter((row) => /zirconwhistle|Quarrymen/.test(row.text));
    expect(withheld.length).toBeGreaterThanOrEqual(2); // its own passage, and the open record's "sourced" passage
    expect(withheld.every((row) => !row.has_vector && row.has_words)).toBe(true);
    expect(rows.filter((row) => row.text.includes("Fish auctions")).every((row) => row.has_vector)).toBe(true);

    const found = await searchArchive({ sql: db.sql, embedder, reranker: passThroughReranker, space }, systemPrincipal, {
      query: "zirconwhistle",
      mode: "keyword",
    });
    expect(found.hits.map((hit) => hit.recordId)).toContain(hidden.id);
  });

  it("makes the answerer and the sentence reranker that use it external too", () => {
    const remote = createOpenAiCompatibleEmbedder({ baseUrl: "https://api.example.com", model: "m", dimension });
    const local = createOpenAiCompatibleEmbedder({ baseUrl: "http://127.0.0.1:1", model: "m", dimension });
    expect(createLocalReranker(remote).external).toBe(true);
    expect(createLocalReranker(local).external).toBe(false);
    expect(createExtractiveGenerator({ embedder: remote }).external).toBe(true);
    expect(createExtractiveGenerator({ embedder: local }).external).toBe(false);
  });
});
