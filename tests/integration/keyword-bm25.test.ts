import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Principal, systemPrincipal } from "../../lib/acl";
import { deleteRecord } from "../../lib/archive/delete-record";
import { saveRecord } from "../../lib/archive/save-record";
import type { Database } from "../../lib/db/database";
import { CHUNKER_VERSION } from "../../lib/rag/chunk";
import { createHashEmbedder } from "../../lib/rag/embed/hash-embedder";
import { type IndexSpace, registerIndexSpace } from "../../lib/rag/index/index-spaces";
import { runWorker } from "../../lib/rag/index/run-worker";
import { searchConfigOf } from "../../lib/rag/index/search-configs";
import { bm25Score } from "../../lib/rag/search/bm25";
import { keywordCandidates, keywordLeg, queryLexemes, readableKeywordStatistics } from "../../lib/rag/search/retrieve-passages";
import { addMember, createProject, createRecord, createUser, principalOf, testIndexSpace, createQuotingSections } from "../support/factories";
import { keywordStatisticsDrift } from "../support/index-checks";
import { openTestDatabase, testDatabaseMode } from "../support/test-database";

/**
 * The keyword leg is BM25 over what the principal may read, with statistics kept at index time:
 * scores as computed by hand on a tiny corpus; statistics equal to a recount after every way
 * passages change; and a reader's scores untouched by text they cannot read (invariant 6).
 */
const embedder = createHashEmbedder({ dimension: 32 });
let db: Database;
let space: IndexSpace;
let section: { id: string; slug: string };
let sources: { id: string; slug: string };
let groupId: string;
let openProject: string;
let closedProject: string;
let otherProject: string;
let reader: Principal;
let wideReader: Principal;
let admin: Principal;

const index = () => runWorker({ prisma: db.prisma, sql: db.sql, embedder, space, drain: true, idleMs: 10, batchSize: 16 });

/** A passage written straight into chunks: its text in the "simple" configuration (no stemming, no stop words). */
async function insertPassage(
  spaceId: string,
  projectId: string,
  text: string,
  options: { contributing?: string[]; translated?: string; language?: "en" | "es" } = {},
): Promise<string> {
  const record = await createRecord(db.prisma, section, projectId, { title: "Host" });
  const language = options.language ?? "und";
  const [row] = await db.sql.query<{ id: string }>(
    `INSERT INTO chunks (id, record_id, project_id, section_id, embed_group_id, index_space_id, language, ordinal, text, embedded_text,
                         translated_text, start_offset, end_offset, contributing_project_ids, content_hash, search_vector)
     VALUES (gen_random_uuid()::text, $1, $2, $3, $4, $5, $9, 0, $6, $6, $7, 0, length($6), $8, md5($6),
             setweight(to_tsvector($10::regconfig, unaccent($6)), 'A') || setweight(to_tsvector('english', unaccent(coalesce($7, ''))), 'B'))
     RETURNING id`,
    [
      record.id,
      projectId,
      section.id,
      groupId,
      spaceId,
      text,
      options.translated ?? null,
      options.contributing ?? [projectId],
      language,
      searchConfigOf(language),
    ],
  );
  return row!.id;
}

beforeAll(async () => {
  db = await openTestDatabase();
  space = await testIndexSpace(db.sql, embedder);
  ({ sources, section } = await createQuotingSections(db.prisma, db.sql));
  const [group] = await db.sql.query<{ id: string }>(`SELECT id FROM embed_groups WHERE section_id = $1`, [section.id]);
  groupId = group!.id;
  openProject = (await createProject(db.prisma)).id;
  closedProject = (await createProject(db.prisma, { restricted: true })).id;
  otherProject = (await createProject(db.prisma)).id;
  const user = await createUser(db.prisma);
  await addMember(db.prisma, user.id, openProject);
  reader = await principalOf(db.prisma, user.id);
  const wide = await createUser(db.prisma);
  await addMember(db.prisma, wide.id, openProject);
  await addMember(db.prisma, wide.id, closedProject);
  wideReader = await principalOf(db.prisma, wide.id);
  admin = await principalOf(db.prisma, (await createUser(db.prisma, { role: "admin" })).id);
}, 120_000);

afterAll(async () => {
  await db?.close();
});

describe(`BM25 keyword leg (${testDatabaseMode()})`, () => {
  it("searches English and Spanish stems and the words as written, but no English stop word at all and no Spanish one but as an English word", async () => {
    const lexemes = await queryLexemes(db.sql, "These mills of la casa by the sea");
    const configs = Object.fromEntries(lexemes.map((row) => [row.lexeme, row.configs]));
    expect(configs.mill).toContain("english");
    expect(configs.mills).toContain("simple");
    expect(configs.cas).toEqual(["spanish"]);
    expect(configs.casa).toContain("simple");
    // English stop words, as typed or as the Spanish stemmer leaves them ("these" → "thes"): none.
    for (const stop of ["the", "of", "by", "these", "thes"]) expect(configs[stop]).toBeUndefined();
    // "la" is a Spanish stop word: not as written; "sea" is one too, and an English word.
    expect(configs.la ?? []).not.toContain("simple");
    expect(configs.sea).toEqual(["english"]);
  });

  it("finds no English text indexed as Spanish by the English stop words of a query", async () => {
    const misread = await registerIndexSpace(db.sql, { provider: "hash", model: "stop-words-misread", dimension: 8, chunkerVersion: CHUNKER_VERSION });
    await insertPassage(misread.id, openProject, "The effect of the dose and the timing of the drug", { language: "es" });
    const english = await insertPassage(misread.id, openProject, "Dose timing changes the drug effect", { language: "en" });
    expect(await keywordLeg(db.sql, admin, "the of and", { space: misread, limit: 10 })).toEqual([]);
    // Only its words count: the English passage, shorter and stemmed alike, is not outranked by stop words.
    const hits = await keywordLeg(db.sql, admin, "the timing of the dose", { space: misread, limit: 10 });
    expect(hits[0]?.chunkId).toBe(english);
  });

  it("weighs the Spanish stem of an English word as the word, so English text indexed as Spanish does not top the query", async () => {
    const misread = await registerIndexSpace(db.sql, { provider: "hash", model: "word-frequencies", dimension: 8, chunkerVersion: CHUNKER_VERSION });
    const english = await insertPassage(misread.id, openProject, "Cancer cells grow fast in the tumour", { language: "en" });
    await insertPassage(misread.id, openProject, "Cancer screening saves lives", { language: "en" });
    await insertPassage(misread.id, openProject, "Cancer risk and diet", { language: "en" });
    await insertPassage(misread.id, openProject, "Cell growth factors", { language: "en" });
    // English text the language check took for Spanish: stemmed "canc", "cells".
    const spanish = await insertPassage(misread.id, openProject, "Cancer cells", { language: "es" });
    const lexemes = await queryLexemes(db.sql, "cancer cells grow");
    expect(lexemes.find((row) => row.lexeme === "canc")?.forms.map((form) => form.word)).toEqual(["cancer"]);
    const hits = await keywordLeg(db.sql, admin, "cancer cells grow", { space: misread, limit: 10 });
    expect(hits[0]?.chunkId).toBe(english);
    expect(hits.map((hit) => hit.chunkId)).toContain(spanish);
    // The tuning path reads the same weights: each lexeme's frequency is its word's.
    const candidates = await keywordCandidates(db.sql, admin, "cancer cells grow", { space: misread });
    expect(candidates.df.get("canc")).toBe(candidates.df.get("cancer"));
    expect(candidates.df.get("canc")).toBe(4);
  });

  it("scores a tiny corpus as BM25 computed by hand", async () => {
    const hand = await registerIndexSpace(db.sql, { provider: "hash", model: "bm25-by-hand", dimension: 8, chunkerVersion: CHUNKER_VERSION });
    const d1 = await insertPassage(hand.id, openProject, "apple apple banana");
    const d2 = await insertPassage(hand.id, openProject, "apple cherry cherry cherry");
    const d3 = await insertPassage(hand.id, openProject, "banana cherry");
    const [lengths] = await db.sql.query<{ lengths: number[] }>(
      `SELECT array_agg(lexeme_count ORDER BY lexeme_count) AS lengths FROM chunks WHERE index_space_id = $1`,
      [hand.id],
    );
    expect(lengths?.lengths).toEqual([2, 3, 4]);

    // N = 3, avgdl = 9 / 3 = 3; "apple" and "cherry" are each in 2 passages: idf = ln(1 + 1.5 / 2.5).
    const idf = Math.log(1 + (3 - 2 + 0.5) / (2 + 0.5));
    const term = (tf: number, dl: number) => (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * dl) / 3));
    const apple = await keywordLeg(db.sql, admin, "apple", { space: hand, limit: 10, bm25: { k1: 1.2, b: 0.75 } });
    expect(apple.map((hit) => hit.chunkId)).toEqual([d1, d2]);
    expect(apple[0]?.score).toBeCloseTo(term(2, 3), 10);
    expect(apple[0]?.score).toBeCloseTo(0.64625, 4);
    expect(apple[1]?.score).toBeCloseTo(term(1, 4), 10);

    const both = await keywordLeg(db.sql, admin, "apple cherry", { space: hand, limit: 10, bm25: { k1: 1.2, b: 0.75 } });
    expect(both.map((hit) => hit.chunkId)).toEqual([d2, d1, d3]);
    expect(both.map((hit) => hit.score)).toEqual([expect.closeTo(term(1, 4) + term(3, 4), 10), expect.closeTo(term(2, 3), 10), expect.closeTo(term(1, 2), 10)]);

    // Other parameters give the pure function's scores.
    const k1 = 2;
    const b = 0.3;
    const tuned = await keywordLeg(db.sql, admin, "apple cherry", { space: hand, limit: 10, bm25: { k1, b } });
    const corpus = { passages: 3, totalLength: 9 };
    const df = new Map([
      ["apple", 2],
      ["cherry", 2],
    ]);
    expect(new Map(tuned.map((hit) => [hit.chunkId, hit.score]))).toEqual(
      new Map([
        [d1, expect.closeTo(bm25Score({ length: 3, tf: new Map([["apple", 2]]) }, df, corpus, { k1, b }), 10)],
        [
          d2,
          expect.closeTo(
            bm25Score(
              {
                length: 4,
                tf: new Map([
                  ["apple", 1],
                  ["cherry", 3],
                ]),
              },
              df,
              corpus,
              { k1, b },
            ),
            10,
          ),
        ],
        [d3, expect.closeTo(bm25Score({ length: 2, tf: new Map([["cherry", 1]]) }, df, corpus, { k1, b }), 10)],
      ]),
    );

    // A translation's words (weight B) are positions like any other: found, counted and measured.
    const translated = await insertPassage(hand.id, openProject, "manzana", { translated: "apple" });
    const withTranslation = await keywordLeg(db.sql, admin, "apple", { space: hand, limit: 10 });
    expect(withTranslation.map((hit) => hit.chunkId)).toContain(translated);
    expect(await keywordStatisticsDrift(db.sql)).toEqual([]);

    // A passage is matched with the query's lexemes of its own language: "manzanas" stems to
    // "manzan" in Spanish, which an English passage's "manzan" must not answer.
    const spanish = await insertPassage(hand.id, openProject, "manzanas rojas", { language: "es" });
    const english = await insertPassage(hand.id, openProject, "manzan", { language: "en" });
    const [stems] = await db.sql.query<{ es: string; en: string }>(
      `SELECT to_tsvector('spanish', 'manzanas')::text AS es, to_tsvector('english', 'manzan')::text AS en`,
    );
    expect(stems).toEqual({ es: "'manzan':1", en: "'manzan':1" });
    const manzanas = await keywordLeg(db.sql, admin, "manzanas", { space: hand, limit: 10 });
    expect(manzanas.map((hit) => hit.chunkId)).toContain(spanish);
    expect(manzanas.map((hit) => hit.chunkId)).not.toContain(english);

    // Dropping the space takes its statistics with it.
    await db.sql.query(`DELETE FROM index_spaces WHERE id = $1`, [hand.id]);
    const left = await db.sql.query(
      `SELECT 1 FROM keyword_scope_stats WHERE index_space_id = $1 UNION ALL SELECT 1 FROM keyword_lexeme_stats WHERE index_space_id = $1`,
      [hand.id],
    );
    expect(left).toEqual([]);
    expect(await keywordStatisticsDrift(db.sql)).toEqual([]);
  });

  it("counts each query lexeme's positions in the text and its translation alike, and no other lexeme", async () => {
    const counted = await registerIndexSpace(db.sql, { provider: "hash", model: "bm25-term-frequency", dimension: 8, chunkerVersion: CHUNKER_VERSION });
    const long = await insertPassage(counted.id, openProject, `pear ${"orchard ledger entry ".repeat(40)}pear plum`, { translated: "pear pear fig" });
    const short = await insertPassage(counted.id, openProject, "plum fig");
    const unmatched = await insertPassage(counted.id, openProject, "quince fig");
    const [lengths] = await db.sql.query<{ long: number; short: number }>(
      `SELECT max(lexeme_count) FILTER (WHERE id = $1) AS long, max(lexeme_count) FILTER (WHERE id = $2) AS short FROM chunks WHERE index_space_id = $3`,
      [long, short, counted.id],
    );
    expect(lengths).toEqual({ long: 2 + 120 + 1 + 3, short: 2 });

    const candidates = await keywordCandidates(db.sql, admin, "pear plum", { space: counted });
    const byId = new Map(candidates.passages.map((passage) => [passage.chunkId, passage]));
    expect([...byId.keys()].sort()).toEqual([long, short].sort());
    expect(byId.get(long)?.tf).toEqual(
      new Map([
        ["pear", 4],
        ["plum", 1],
      ]),
    );
    expect(byId.get(long)?.length).toBe(lengths?.long);
    expect(byId.get(short)?.tf).toEqual(new Map([["plum", 1]]));
    expect(byId.has(unmatched)).toBe(false);

    const parameters = { k1: 1.2, b: 0.75 };
    const hits = await keywordLeg(db.sql, admin, "pear plum", { space: counted, limit: 10, bm25: parameters });
    expect(new Map(hits.map((hit) => [hit.chunkId, hit.score]))).toEqual(
      new Map([long, short].map((id) => [id, expect.closeTo(bm25Score(byId.get(id)!, candidates.df, candidates.corpus, parameters), 10)])),
    );
    await db.sql.query(`DELETE FROM index_spaces WHERE id = $1`, [counted.id]);
  });

  it("scores a reader's passages alike in a space with and without text they cannot read", async () => {
    const alone = await registerIndexSpace(db.sql, { provider: "hash", model: "bm25-open-only", dimension: 8, chunkerVersion: CHUNKER_VERSION });
    const mixed = await registerIndexSpace(db.sql, { provider: "hash", model: "bm25-open-and-closed", dimension: 8, chunkerVersion: CHUNKER_VERSION });
    const openTexts = [
      "the miller kept a ledger of flour sold",
      "flour dust in the mill loft",
      "a ledger of wages paid at the mill",
      "the river turned the wheel",
      "miller and baker argued over flour prices",
      ...Array.from({ length: 10 }, (_, at) => `a weather note for day ${at}`),
    ];
    const textOf = new Map<string, string>();
    for (const target of [alone, mixed]) {
      for (const text of openTexts) textOf.set(await insertPassage(target.id, openProject, text), text);
    }
    // Only the mixed space: restricted passages full of the query's words, and an open one quoting them.
    for (let at = 0; at < 20; at++) await insertPassage(mixed.id, closedProject, "flour ledger mill flour ledger mill");
    await insertPassage(mixed.id, openProject, "flour ledger quoted from the restricted mill", { contributing: [openProject, closedProject] });

    const query = "flour ledger mill";
    const ranked = async (principal: Principal, target: IndexSpace) =>
      (await keywordLeg(db.sql, principal, query, { space: target, limit: 50 })).map((hit) => ({
        text: textOf.get(hit.chunkId) ?? "(not open)",
        score: hit.score,
      }));
    const inAlone = await ranked(reader, alone);
    expect(inAlone).toHaveLength(4);
    expect(await ranked(reader, mixed)).toEqual(inAlone);
    // Those who may read the restricted text get other statistics, and its passages.
    const adminMixed = await ranked(admin, mixed);
    expect(adminMixed.filter((hit) => hit.text === "(not open)")).toHaveLength(21);
    expect(adminMixed.find((hit) => hit.text === inAlone[0]?.text)?.score).not.toBeCloseTo(inAlone[0]?.score ?? 0, 6);
  });

  it("finds a passage by its record's title when the group document left the title out", async () => {
    const record = await createRecord(db.prisma, section, openProject, {
      title: "Quillwort survey",
      summary: "Divers counted the rosettes along the northern shore of the lake every August.",
    });
    await index();
    const [passage] = await db.sql.query<{ id: string; text: string }>(`SELECT id, text FROM chunks WHERE record_id = $1 AND index_space_id = $2`, [
      record.id,
      space.id,
    ]);
    expect(passage?.text).not.toMatch(/quillwort/i);
    const hits = await keywordLeg(db.sql, reader, "quillwort", { space, limit: 10 });
    expect(hits.map((hit) => hit.chunkId)).toEqual([passage!.id]);
    // The text's own words still weigh as they did: the title is one more lexeme, not a second copy of the text.
    const [counts] = await db.sql.query<{ lexemes: number }>(`SELECT lexeme_count AS lexemes FROM chunks WHERE id = $1`, [passage!.id]);
    const [plain] = await db.sql.query<{ lexemes: number }>(`SELECT tsvector_occurrences(to_tsvector('english', unaccent($1))) AS lexemes`, [passage!.text]);
    expect(Number(counts!.lexemes)).toBe(Number(plain!.lexemes) + 2);
  });

  it("gives a reader the same scores and order however much text they cannot read matches the query", async () => {
    for (let at = 0; at < 5; at++) {
      await createRecord(db.prisma, section, openProject, {
        title: `Lighthouse logbook ${at}`,
        summary: `The keeper wrote in the logbook ${"every night ".repeat(at)}about the storm and the ships passing the headland.`,
      });
    }
    await createRecord(db.prisma, section, openProject, { title: "Harbour accounts", summary: "Fish prices at the harbour market, a storm in March." });
    // It will quote a closed source below: its own text stays readable (and counted) throughout.
    const quoting = await createRecord(db.prisma, section, openProject, { title: "Open note quoting a closed source", summary: "A note." });
    await index();
    const query = "lighthouse logbook storm";
    const before = await keywordLeg(db.sql, reader, query, { space, limit: 50 });
    expect(before.length).toBeGreaterThanOrEqual(6);
    const adminBefore = await keywordLeg(db.sql, admin, query, { space, limit: 50 });

    // The restricted project fills up with the query's words, and an open record quotes it.
    const closedSource = await createRecord(db.prisma, sources, closedProject, { title: "Closed source", summary: "Lighthouse logbook storm, storm, storm." });
    for (let at = 0; at < 12; at++) {
      await createRecord(db.prisma, section, closedProject, {
        title: `Closed lighthouse logbook ${at}`,
        summary: "Storm logbook lighthouse storm lighthouse logbook storm.",
      });
    }
    await saveRecord(db.prisma, systemPrincipal, {
      id: quoting.id,
      version: quoting.version,
      sectionSlug: section.slug,
      projectId: openProject,
      values: { title: "Open note quoting a closed source", summary: "A note.", source: closedSource.id },
    });
    await index();

    const after = await keywordLeg(db.sql, reader, query, { space, limit: 50 });
    expect(after).toEqual(before);
    const statistics = await readableKeywordStatistics(db.sql, reader, space.id, ["lighthous", "logbook", "storm"]);
    const adminStatistics = await readableKeywordStatistics(db.sql, admin, space.id, ["lighthous", "logbook", "storm"]);
    expect(adminStatistics.corpus.passages).toBeGreaterThan(statistics.corpus.passages);
    expect(adminStatistics.df.get("storm")).toBeGreaterThan(statistics.df.get("storm") ?? 0);

    // The statistics do move for those who may read the new text.
    const adminAfter = await keywordLeg(db.sql, admin, query, { space, limit: 50 });
    const score = (hits: typeof before, chunkId: string) => hits.find((hit) => hit.chunkId === chunkId)?.score;
    expect(score(adminAfter, before[0]!.chunkId)).not.toBeCloseTo(score(adminBefore, before[0]!.chunkId) ?? 0, 6);
    const wide = await keywordLeg(db.sql, wideReader, query, { space, limit: 50 });
    expect(wide.some((hit) => hit.projectId === closedProject)).toBe(true);
    expect(after.every((hit) => hit.projectId === openProject && hit.contributingProjectIds.every((id) => id === openProject))).toBe(true);
  });

  it("past the candidate budget, ranks the passages with the query's words together first, scores no more than the budget, and finds a one-word query", async () => {
    const common = await registerIndexSpace(db.sql, { provider: "hash", model: "common-words", dimension: 8, chunkerVersion: CHUNKER_VERSION });
    const both = await insertPassage(common.id, openProject, "mill flour");
    for (let i = 0; i < 4; i += 1) await insertPassage(common.id, openProject, `mill wheel ${i}`);
    for (let i = 0; i < 5; i += 1) await insertPassage(common.id, openProject, `flour sack ${i}`);
    // Both words are in more passages than the budget of 3: only passages with both are candidates,
    // then (less than a page) those with the rarer word "mill", three at most.
    const hits = await keywordLeg(db.sql, admin, "flour mill", { space: common, limit: 10, candidateBudget: 3 });
    expect(hits[0]?.chunkId).toBe(both);
    expect(hits.length).toBeGreaterThan(1);
    expect(hits.length).toBeLessThanOrEqual(4);
    // Within the budget, every passage with either word is scored.
    expect(await keywordLeg(db.sql, admin, "flour mill", { space: common, limit: 10, candidateBudget: 100 })).toHaveLength(10);
    // One word per line (a query and its bridge translation): the leg still answers, from at most the budget.
    const single = await keywordLeg(db.sql, admin, "flour\nsack", { space: common, limit: 10, candidateBudget: 3 });
    expect(single.length).toBeGreaterThan(0);
    expect(single.length).toBeLessThanOrEqual(3);
    // A reader of nothing in the space gets nothing on either path.
    const stranger = await principalOf(db.prisma, (await createUser(db.prisma)).id);
    expect(await keywordLeg(db.sql, stranger, "flour mill", { space: common, limit: 10, candidateBudget: 3 })).toEqual([]);
    expect(await keywordLeg(db.sql, stranger, "flour", { space: common, limit: 10, candidateBudget: 3 })).toEqual([]);
  });

  it("keeps the statistics equal to a recount through indexing, re-indexing, deletion, moves and space removal", async () => {
    const source = await createRecord(db.prisma, sources, otherProject, { title: "Tide table", summary: "High water at dawn, low water at noon." });
    const records = [];
    for (let at = 0; at < 4; at++) {
      records.push(
        await createRecord(db.prisma, section, openProject, {
          title: `Ferry timetable ${at}`,
          summary: `The ferry crosses ${at} times a day.`,
          source: source.id,
        }),
      );
    }
    await index();
    expect(await keywordStatisticsDrift(db.sql)).toEqual([]);
    // (The recount notices a count that is off.)
    await db.sql.query(`UPDATE keyword_lexeme_stats SET passages = passages + 1 WHERE lexeme = 'ferri'`);
    expect(await keywordStatisticsDrift(db.sql)).not.toEqual([]);
    await db.sql.query(`UPDATE keyword_lexeme_stats SET passages = passages - 1 WHERE lexeme = 'ferri'`);

    // Re-index: new text for one record, and its source's text changes in all that quote it.
    const [first, second, third] = records;
    await saveRecord(db.prisma, systemPrincipal, {
      id: first!.id,
      version: first!.version,
      sectionSlug: section.slug,
      projectId: openProject,
      values: { title: "Ferry timetable, winter", summary: "No crossings in January; the pier was rebuilt." },
    });
    await saveRecord(db.prisma, systemPrincipal, {
      id: source.id,
      version: source.version,
      sectionSlug: sources.slug,
      projectId: otherProject,
      values: { title: "Tide table", summary: "Spring tides flood the quay." },
    });
    for (const record of records) {
      const pending = { reason: "source changed", status: "pending" as const, attempts: 0, availableAt: new Date(), lockedAt: null, lockedBy: null };
      await db.prisma.indexQueueItem.upsert({ where: { recordId: record.id }, create: { recordId: record.id, ...pending }, update: pending });
    }
    await index();
    expect(await keywordStatisticsDrift(db.sql)).toEqual([]);

    // Delete: the record's passages go by ON DELETE CASCADE.
    await deleteRecord(db.prisma, systemPrincipal, { id: second!.id, version: second!.version });
    expect(await db.sql.query(`SELECT 1 FROM chunks WHERE record_id = $1`, [second!.id])).toEqual([]);
    expect(await keywordStatisticsDrift(db.sql)).toEqual([]);

    // Move to another project: re-indexed under the new scope...
    const moved = await db.prisma.record.findUniqueOrThrow({ where: { id: third!.id } });
    await saveRecord(db.prisma, systemPrincipal, {
      id: moved.id,
      version: moved.version,
      sectionSlug: section.slug,
      projectId: closedProject,
      values: moved.values as Record<string, unknown>,
    });
    await index();
    const [movedChunk] = await db.sql.query<{ project_id: string }>(`SELECT project_id FROM chunks WHERE record_id = $1 LIMIT 1`, [moved.id]);
    expect(movedChunk?.project_id).toBe(closedProject);
    expect(await keywordStatisticsDrift(db.sql)).toEqual([]);
    // ...and when passages' projects are updated in place.
    await db.sql.query(`UPDATE chunks SET project_id = $1, contributing_project_ids = array_replace(contributing_project_ids, $2, $1) WHERE record_id = $3`, [
      otherProject,
      closedProject,
      moved.id,
    ]);
    expect(await keywordStatisticsDrift(db.sql)).toEqual([]);
    // An update that changes nothing the statistics count leaves them as they are.
    await db.sql.query(`UPDATE chunks SET page = page WHERE index_space_id = $1`, [space.id]);
    expect(await keywordStatisticsDrift(db.sql)).toEqual([]);

    // A second space, then the first removed: the second's statistics remain, and exact.
    const other = await registerIndexSpace(db.sql, { provider: "hash", model: "bm25-second", dimension: 8, chunkerVersion: CHUNKER_VERSION });
    await insertPassage(other.id, openProject, "ferry ferry pier");
    await db.sql.query(`DELETE FROM index_spaces WHERE id = $1`, [space.id]);
    expect(await keywordStatisticsDrift(db.sql)).toEqual([]);
    const [kept] = await db.sql.query<{ spaces: string[] }>(`SELECT array_agg(DISTINCT index_space_id) AS spaces FROM keyword_scope_stats`);
    expect(kept?.spaces).toContain(other.id);
    expect(kept?.spaces).not.toContain(space.id);
    await db.sql.query(`DELETE FROM chunks`);
    expect(await keywordStatisticsDrift(db.sql)).toEqual([]);
  });
});
