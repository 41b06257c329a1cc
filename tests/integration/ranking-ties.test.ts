import pgvector from "pgvector";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "../../lib/acl";
import type { Database } from "../../lib/db/database";
import { createHashEmbedder } from "../../lib/rag/embed/hash-embedder";
import type { IndexSpace } from "../../lib/rag/index/index-spaces";
import { type PassageHit, denseLeg, keywordLeg } from "../../lib/rag/search/retrieve-passages";
import { type SearchContext, searchArchive } from "../../lib/rag/search/search-archive";
import { createProject, createSection, readerNobodyAdmin, saveAllGroup, testIndexSpace, titleSummaryFields } from "../support/factories";
import { openTestDatabase, testDatabaseMode } from "../support/test-database";

/**
 * Passages that score alike are ordered by their content, never by their ids: ids are drawn at
 * random each time an archive is indexed, and ranking ties by them made answers change from one
 * build of the same content to the next. Here four records say exactly the same thing (equal
 * BM25 scores, one shared vector) and differ only in their titles; their record and passage ids
 * are chosen to sort the opposite way to the titles, so an order that fell back on ids would
 * come out reversed.
 */
const embedder = createHashEmbedder({ dimension: 32 });
const noBridge = { detect: async () => ({ language: "en", confidence: 1 }) };
const titles = ["Ledger Alder", "Ledger Birch", "Ledger Cedar", "Ledger Damson"];
const said = "The quillwort grows by the mill pond.";
// Ids in the reverse order of the titles: Alder's ids sort last.
const idOf = (prefix: string, index: number) => `${prefix}-0000-4000-8000-00000000000${titles.length - index}`;

let db: Database;
let space: IndexSpace;
let context: SearchContext;
let reader: Principal;
let nobody: Principal;
let projectId: string;
let vector: Float32Array;

beforeAll(async () => {
  db = await openTestDatabase();
  space = await testIndexSpace(db.sql, embedder);
  context = { sql: db.sql, embedder, space, prepare: noBridge };
  const section = await createSection(db.prisma, titleSummaryFields);
  await saveAllGroup(db.prisma, db.sql, section.slug, ["title", "summary"]);
  const [group] = await db.sql.query<{ id: string }>(`SELECT id FROM embed_groups WHERE section_id = $1`, [section.id]);
  projectId = (await createProject(db.prisma)).id;
  ({ reader, nobody } = await readerNobodyAdmin(db.prisma, projectId));
  [vector] = (await embedder.embed(["quillwort mill pond"], "query")) as [Float32Array];
  // Created in title order, so neither creation time nor insertion order favours the id order.
  for (const [index, title] of titles.entries()) {
    const record = await db.prisma.record.create({
      data: { id: idOf("00000000", index), sectionId: section.id, projectId, title, values: { title, summary: said } },
    });
    await db.sql.query(
      `INSERT INTO chunks (id, record_id, project_id, section_id, embed_group_id, index_space_id, language, ordinal, text, embedded_text,
                           start_offset, end_offset, contributing_project_ids, contributing_record_ids, content_hash, embedding, search_vector)
       VALUES ($1, $2, $3, $4, $5, $6, 'und', 0, $7, $8, 0, length($7), ARRAY[$3], ARRAY[$2], md5($8), $9::vector, setweight(to_tsvector('simple', $7), 'A'))`,
      [idOf("11111111", index), record.id, projectId, section.id, group!.id, space.id, said, `${title}\n${said}`, pgvector.toSql(Array.from(vector))],
    );
  }
}, 120_000);

afterAll(async () => {
  await db?.close();
});

const titlesOf = (hits: readonly PassageHit[]) => hits.map((hit) => titles[titles.length - Number(hit.chunkId.at(-1))]);

describe(`ranking ties (${testDatabaseMode()})`, () => {
  it("has passages whose scores tie and whose ids sort against their content", async () => {
    const hits = await keywordLeg(db.sql, reader, "quillwort", { space, limit: 10 });
    expect(new Set(hits.map((hit) => hit.score)).size).toBe(1);
    const dense = await denseLeg(db.sql, reader, vector, { space, limit: 10 });
    expect(new Set(dense.map((hit) => hit.score)).size).toBe(1);
    // What an id tie-break would give.
    expect([...hits].sort((a, b) => a.chunkId.localeCompare(b.chunkId)).map((hit) => titlesOf([hit])[0])).toEqual([...titles].reverse());
  });

  it("orders tied words-leg passages by content, also when the page ends inside the tie", async () => {
    expect(titlesOf(await keywordLeg(db.sql, reader, "quillwort", { space, limit: 10 }))).toEqual(titles);
    expect(titlesOf(await keywordLeg(db.sql, reader, "quillwort", { space, limit: 2 }))).toEqual(titles.slice(0, 2));
    expect(await keywordLeg(db.sql, nobody, "quillwort", { space, limit: 2 })).toEqual([]);
  });

  it("orders tied meaning-leg passages by content, also when the page ends inside the tie", async () => {
    expect(titlesOf(await denseLeg(db.sql, reader, vector, { space, limit: 10 }))).toEqual(titles);
    expect(titlesOf(await denseLeg(db.sql, reader, vector, { space, limit: 2 }))).toEqual(titles.slice(0, 2));
  });

  it("keeps the content order through fusion and the collapse to records, in every mode", async () => {
    for (const mode of ["keyword", "semantic", "hybrid"] as const) {
      for (const collapse of ["record", "passage"] as const) {
        const result = await searchArchive(context, reader, { query: "quillwort mill pond", mode, collapse, limit: 10 });
        expect(
          result.hits.map((hit) => hit.recordTitle),
          `${mode}, by ${collapse}`,
        ).toEqual(titles);
      }
    }
    const firstTwo = await searchArchive(context, reader, { query: "quillwort mill pond", mode: "hybrid", limit: 2 });
    expect(firstTwo.hits.map((hit) => hit.recordTitle)).toEqual(titles.slice(0, 2));
  });
});
