import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemPrincipal } from "../../lib/acl";
import type { FieldDefinition } from "../../lib/archive/field-definitions";
import { saveRecord } from "../../lib/archive/save-record";
import type { Database } from "../../lib/db/database";
import { saveEmbedGroup } from "../../lib/rag/index/save-embed-group";
import type { Embedder } from "../../lib/rag/embed/embedder";
import { createHashEmbedder } from "../../lib/rag/embed/hash-embedder";
import { indexRecord, type IndexingContext } from "../../lib/rag/index/index-record";
import { ensureIndexSpace, type IndexSpace } from "../../lib/rag/index/index-spaces";
import { indexStats } from "../../lib/rag/index/index-stats";
import { runWorker } from "../../lib/rag/index/run-worker";
import { AppError } from "../../lib/errors";
import { createProject, createRecord, indexingContext } from "../support/factories";
import { openTestDatabase, testDatabaseMode } from "../support/test-database";

/** Counts what reaches the model, so incremental indexing can be checked by embed calls. */
function countingEmbedder(inner: Embedder) {
  const counter = { texts: 0, calls: 0 };
  const embedder: Embedder = {
    ...inner,
    provider: inner.provider,
    model: inner.model,
    dimension: inner.dimension,
    maxInputTokens: inner.maxInputTokens,
    language: inner.language,
    async embed(texts, kind) {
      counter.calls++;
      counter.texts += texts.length;
      return inner.embed(texts, kind);
    },
  };
  return { embedder, counter };
}

let db: Database;
let space: IndexSpace;
const { embedder, counter } = countingEmbedder(createHashEmbedder({ dimension: 64 }));
const sectionSlugs = { people: `people-${Date.now()}`, interviews: `interviews-${Date.now()}` };
let publicProject: string;
let valleyProject: string;

const peopleFields: FieldDefinition[] = [
  { key: "name", label: "Name", type: "text", required: true },
  { key: "occupation", label: "Occupation", type: "text" },
];
const interviewFields: FieldDefinition[] = [
  { key: "title", label: "Title", type: "text", required: true },
  { key: "language", label: "Language", type: "category", options: ["en", "es", "ca"] },
  { key: "narrator", label: "Narrator", type: "relation", targetSection: sectionSlugs.people },
  { key: "summary", label: "Summary", type: "longtext" },
  { key: "transcript", label: "Transcript", type: "transcript" },
];

function context(): Promise<IndexingContext> {
  return indexingContext(db.prisma, db.sql, space, embedder);
}

beforeAll(async () => {
  db = await openTestDatabase();
  space = await ensureIndexSpace(db.sql, { provider: embedder.provider, model: embedder.model, dimension: embedder.dimension, chunkerVersion: 1 });
  publicProject = (await createProject(db.prisma)).id;
  valleyProject = (await createProject(db.prisma)).id;
  await db.prisma.section.create({ data: { slug: sectionSlugs.people, name: "People", fields: peopleFields } });
  await db.prisma.section.create({ data: { slug: sectionSlugs.interviews, name: "Interviews", fields: interviewFields } });
  await saveEmbedGroup(db.prisma, db.sql, {
    sectionSlug: sectionSlugs.interviews,
    group: { slug: "transcript", label: "Transcript", fields: ["title", "transcript"], chunking: "transcription", maxTokens: 40, minTokens: 4, overlap: 0 },
  });
  await saveEmbedGroup(db.prisma, db.sql, {
    sectionSlug: sectionSlugs.interviews,
    group: { slug: "about", label: "About", fields: ["title", "summary", "narrator.occupation"], chunking: "short", maxTokens: 128, minTokens: 4, overlap: 0 },
  });
});
afterAll(async () => {
  await db.close();
});

const turns = [
  { speaker: "Marta", start: 0, end: 4.5, text: "Where were you born, and what did your family grow in the valley?" },
  { speaker: "Josep", start: 5.1, end: 12.25, text: "In Sant Romà, in 1931. We grew rye and potatoes, and kept cows for milk." },
  { speaker: "Marta", start: 13, end: 15, text: "And when did the water come?" },
  { speaker: "Josep", start: 15.6, end: 24, text: "The dam was closed in November 1965. By spring the church was under water." },
];

async function chunksOf(recordId: string) {
  return db.sql.query<{
    text: string;
    embed_group_id: string;
    time_start: number | null;
    time_end: number | null;
    contributing_project_ids: string[];
    has_vector: boolean;
    has_terms: boolean;
    heading_path: string[];
  }>(
    `SELECT text, embed_group_id, time_start, time_end, contributing_project_ids, heading_path,
            embedding IS NOT NULL AS has_vector, search_vector @@ websearch_to_tsquery('english', 'potatoes') AS has_terms
       FROM chunks WHERE record_id = $1 AND index_space_id = $2 ORDER BY embed_group_id, ordinal`,
    [recordId, space.id],
  );
}

describe(`indexing (${testDatabaseMode()})`, () => {
  it("refuses a malformed embed group with its messages", async () => {
    const error = await saveEmbedGroup(db.prisma, db.sql, {
      sectionSlug: sectionSlugs.interviews,
      group: { slug: "bad", label: "Bad", fields: ["title.name", "nope"], chunking: "auto", maxTokens: 64, minTokens: 8, overlap: 0 },
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).fieldErrors?.group).toEqual([
      '"title.name": "title" is a text field, not a relation, so the path cannot continue through it',
      '"nope": Interviews has no field "nope"',
    ]);
    expect(await db.prisma.embedGroup.count({ where: { slug: "bad" } })).toBe(0);
  });

  it("indexes a record into passages with vectors, timecodes, words and every contributing project", async () => {
    const narrator = await saveRecord(db.prisma, systemPrincipal, {
      sectionSlug: sectionSlugs.people,
      projectId: publicProject,
      values: { name: "Josep Farré", occupation: "farmer and miller" },
    });
    const interview = await createRecord(db.prisma, { slug: sectionSlugs.interviews }, valleyProject, {
      title: "The last harvest",
      language: "en",
      narrator: narrator.id,
      summary: "Josep remembers the last harvest before the reservoir.",
      transcript: turns,
    });
    counter.texts = 0;
    const result = await indexRecord(await context(), interview.id);
    expect(result.chunks).toBeGreaterThanOrEqual(3);
    // Identical passages (the title, in both groups) are embedded once.
    expect(result.embedded).toBeGreaterThan(0);
    expect(result.embedded).toBeLessThanOrEqual(result.chunks);
    expect(counter.texts).toBe(result.embedded);
    const chunks = await chunksOf(interview.id);
    expect(chunks.every((chunk) => chunk.has_vector)).toBe(true);
    const transcriptChunks = chunks.filter((chunk) => chunk.time_start !== null);
    expect(transcriptChunks.length).toBeGreaterThanOrEqual(2);
    expect(transcriptChunks[0]?.time_start).toBe(0);
    expect(transcriptChunks.at(-1)?.time_end).toBe(24);
    expect(chunks.some((chunk) => chunk.has_terms)).toBe(true);
    const about = chunks.find((chunk) => chunk.text.includes("farmer and miller"));
    expect(about?.contributing_project_ids.sort()).toEqual([publicProject, valleyProject].sort());
    // Short fields are one catalogue entry ("label: value" lines) before any heading; the narrator's
    // (another project's) form an entry of their own, so the interview's own lines keep its scope.
    expect(about?.text).toBe("Narrator › Occupation: farmer and miller");
    expect(about?.heading_path).toEqual([]);
    const own = chunks.find((chunk) => chunk.text.includes("Josep remembers the last harvest"));
    expect(own?.contributing_project_ids).toEqual([valleyProject]);
    expect(own?.text).not.toContain("Josep Farré");
  });

  it("embeds nothing when re-indexing an unchanged record, and only changed passages after an edit", async () => {
    const interview = await createRecord(db.prisma, { slug: sectionSlugs.interviews }, valleyProject, {
      title: "Bells",
      language: "en",
      summary: "The bells were lowered.",
      transcript: turns,
    });
    const first = await indexRecord(await context(), interview.id);
    counter.texts = 0;
    const again = await indexRecord(await context(), interview.id);
    expect(counter.texts).toBe(0);
    expect(again).toMatchObject({ embedded: 0, reused: first.chunks, chunks: first.chunks });

    await saveRecord(db.prisma, systemPrincipal, {
      id: interview.id,
      version: 1,
      sectionSlug: sectionSlugs.interviews,
      projectId: valleyProject,
      values: { title: "Bells", language: "en", summary: "The bells were lowered on 8 September 1965.", transcript: turns },
    });
    counter.texts = 0;
    const edited = await indexRecord(await context(), interview.id);
    // Only the summary's passage changed; the transcript passages are reused.
    expect(edited.embedded).toBe(1);
    expect(counter.texts).toBe(1);
    expect(edited.reused).toBe(first.chunks - 1);
    const texts = (await chunksOf(interview.id)).map((chunk) => chunk.text).join(" ");
    expect(texts).toContain("8 September 1965");
    expect(texts).not.toMatch(/lowered\.$/m);
  });

  it("builds the same passages for the same records whatever order the database keeps linked records in", async () => {
    const households = `households-${Date.now()}`;
    await db.prisma.section.create({
      data: {
        slug: households,
        name: "Households",
        fields: [
          { key: "title", label: "Title", type: "text", required: true },
          { key: "members", label: "Members", type: "relation", targetSection: sectionSlugs.people, multiple: true },
        ],
      },
    });
    await saveEmbedGroup(db.prisma, db.sql, {
      sectionSlug: households,
      group: { slug: "entry", label: "Entry", fields: ["title", "members"], chunking: "short", maxTokens: 64, minTokens: 1, overlap: 0 },
    });
    const person = (name: string) =>
      saveRecord(db.prisma, systemPrincipal, { sectionSlug: sectionSlugs.people, projectId: publicProject, values: { name, occupation: "weaver" } });
    const aina = await person("Aina Soler");
    const bernat = await person("Bernat Puig");
    // In the members' project, so each household's entry is one passage (buildGroupDocuments).
    const first = await createRecord(db.prisma, { slug: households }, publicProject, { title: "Cal Puig", members: [bernat.id, aina.id] });
    const second = await createRecord(db.prisma, { slug: households }, publicProject, { title: "Cal Soler", members: [aina.id, bernat.id] });
    const texts = async () => (await Promise.all([first.id, second.id].map((id) => chunksOf(id)))).map((chunks) => chunks.map((chunk) => chunk.text));
    await indexRecord(await context(), first.id);
    await indexRecord(await context(), second.id);
    const before = await texts();
    expect(before).toEqual([["Title: Cal Puig\nMembers: Bernat Puig; Aina Soler"], ["Title: Cal Soler\nMembers: Aina Soler; Bernat Puig"]]);

    // An edit the passages do not show writes Aina's row anew, after Bernat's.
    await saveRecord(db.prisma, systemPrincipal, {
      id: aina.id,
      version: 1,
      sectionSlug: sectionSlugs.people,
      projectId: publicProject,
      values: { name: "Aina Soler", occupation: "weaver and spinner" },
    });
    counter.texts = 0;
    const again = [await indexRecord(await context(), first.id), await indexRecord(await context(), second.id)];
    expect(await texts()).toEqual(before);
    expect(again.map((result) => result.embedded)).toEqual([0, 0]);
    expect(counter.texts).toBe(0);
  });

  it("prunes passages of removed text in the same pass", async () => {
    const interview = await createRecord(db.prisma, { slug: sectionSlugs.interviews }, valleyProject, { title: "Short", language: "en", transcript: turns });
    await indexRecord(await context(), interview.id);
    const before = (await chunksOf(interview.id)).length;
    await saveRecord(db.prisma, systemPrincipal, {
      id: interview.id,
      version: 1,
      sectionSlug: sectionSlugs.interviews,
      projectId: valleyProject,
      values: { title: "Short", language: "en" },
    });
    await indexRecord(await context(), interview.id);
    const after = await chunksOf(interview.id);
    expect(after.length).toBeLessThan(before);
    expect(after.every((chunk) => chunk.time_start === null)).toBe(true);
  });

  it("drains the queue with a worker, tells whoever waits for the drained queue once it is empty, and the stats agree", async () => {
    // What onDrained sees: the queue it waited for, empty (the fusion is measured then, in whichever process indexes).
    const drained: number[] = [];
    const workerResult = await runWorker({
      prisma: db.prisma,
      sql: db.sql,
      embedder,
      space,
      drain: true,
      idleMs: 50,
      batchSize: 4,
      onDrained: async () => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        drained.push(await db.prisma.indexQueueItem.count());
      },
    });
    // Awaited before the worker returned, and never while records still waited.
    expect(drained).toEqual([0]);
    expect(workerResult.parked).toBe(0);
    expect(await db.prisma.indexQueueItem.count()).toBe(0);
    const stats = await indexStats(db.sql, space.id);
    const interviews = stats.find((section) => section.sectionSlug === sectionSlugs.interviews);
    expect(interviews).toMatchObject({ pending: 0, running: 0, failed: 0 });
    expect(interviews?.indexed).toBe(interviews?.records);
    expect(interviews?.groups.map((group) => group.slug).sort()).toEqual(["about", "transcript"]);
    // People have no embed group: records but nothing indexed.
    expect(stats.find((section) => section.sectionSlug === sectionSlugs.people)?.indexed).toBe(0);
  });
});
