import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "../../lib/acl";
import type { FieldDefinition } from "../../lib/archive/field-definitions";
import { getRecord } from "../../lib/archive/get-record";
import { recordFormSchema, saveRecordForm } from "../../lib/archive/save-record-form";
import { serializeSegments } from "../../lib/archive/segment-text";
import { transcriptFromFile } from "../../lib/archive/transcript-formats/transcript-from-file";
import { serializeTranscript } from "../../lib/archive/transcript-text";
import type { Database } from "../../lib/db/database";
import { AppError, parseInput } from "../../lib/errors";
import { citationHref } from "../../lib/format";
import { createHashEmbedder } from "../../lib/rag/embed/hash-embedder";
import type { IndexSpace } from "../../lib/rag/index/index-spaces";
import { saveEmbedGroup } from "../../lib/rag/index/save-embed-group";
import { type SearchContext, searchArchive } from "../../lib/rag/search/search-archive";
import { drainEverySpace } from "../support/drain-every-space";
import { createProject, createSection, memberPrincipal, readerNobodyAdmin, temporaryStorageDir, testIndexSpace } from "../support/factories";
import { openTestDatabase, testDatabaseMode } from "../support/test-database";

/**
 * A recording whose transcript came from a WebVTT file and whose index came from an OHMS XML
 * file, saved through the record form as the editor fills it, indexed by the worker: each index
 * segment is a passage at its start second that search finds by its synopsis, for readers of
 * the project only.
 */
const embedder = createHashEmbedder({ dimension: 64 });
const noBridge = { detect: async () => ({ language: "es", confidence: 1 }) };
const fixture = (name: string) => ({ name, bytes: new Uint8Array(readFileSync(new URL(`../fixtures/transcripts/${name}`, import.meta.url))) });

const fields: FieldDefinition[] = [
  { key: "title", label: "Title", type: "text", required: true, listed: true },
  { key: "language", label: "Language", type: "category", options: ["en", "es", "ca"] },
  { key: "recording", label: "Recording", type: "media", mediaKind: "audio" },
  { key: "transcript", label: "Transcript", type: "transcript", mediaField: "recording" },
  { key: "index", label: "Index", type: "segments", mediaField: "recording" },
];

let db: Database;
let space: IndexSpace;
let context: SearchContext;
let section: { slug: string };
let projectId: string;
let curator: Principal;
let reader: Principal;
let nobody: Principal;
let recordId: string;
const storageDir = temporaryStorageDir();

function recordForm(principal: Principal, entries: [string, string][]) {
  const formData = new FormData();
  for (const [name, value] of entries) formData.append(name, value);
  return saveRecordForm(db.prisma, principal, parseInput(recordFormSchema, formData), { storageDir, maxBytes: 1024 * 1024 });
}

beforeAll(async () => {
  db = await openTestDatabase();
  space = await testIndexSpace(db.sql, embedder);
  section = await createSection(db.prisma, fields);
  await saveEmbedGroup(db.prisma, db.sql, {
    sectionSlug: section.slug,
    group: {
      slug: "transcript",
      label: "Transcript",
      fields: ["title", "transcript", "index"],
      chunking: "transcription",
      maxTokens: 160,
      minTokens: 24,
      overlap: 0,
    },
    requeue: false,
  });
  projectId = (await createProject(db.prisma, { restricted: true })).id;
  curator = await memberPrincipal(db.prisma, projectId, { role: "curator", membership: "editor" });
  ({ reader, nobody } = await readerNobodyAdmin(db.prisma, projectId));
  context = { sql: db.sql, embedder, space, prepare: noBridge };
}, 120_000);

afterAll(async () => {
  await db?.close();
});

describe(`transcripts from files (${testDatabaseMode()})`, () => {
  it("saves a WebVTT transcript and an OHMS index as the editor fills them in", async () => {
    const vtt = transcriptFromFile(fixture("entrevista-riada.vtt"));
    const ohms = transcriptFromFile(fixture("ohms-laciana.xml"));
    if (!vtt.ok || !ohms.ok) throw new Error("the fixtures should read without problems");
    const saved = await recordForm(curator, [
      ["section", section.slug],
      ["projectId", projectId],
      ["values.title", "Entrevista a Joaquín Ortega Lara"],
      ["values.language", "es"],
      ["values.transcript", serializeTranscript(vtt.turns)],
      ["values.index", serializeSegments(ohms.segments)],
    ]);
    recordId = saved.id;
    const record = await getRecord(db.prisma, curator, recordId);
    expect(record.values.transcript).toEqual(vtt.turns);
    expect(record.values.index).toEqual(ohms.segments);
    expect((record.values.transcript as { speaker: string }[]).map((turn) => turn.speaker)).toContain("Roser Vidal");
  });

  it("refuses an index with a mistake, naming its line, and writes nothing", async () => {
    const before = await db.prisma.record.count();
    const error = await recordForm(curator, [
      ["section", section.slug],
      ["projectId", projectId],
      ["values.title", "Broken index"],
      ["values.index", "[00:10 - 00:20] First\n\n[00:05 - 00:08] Second"],
    ]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).fieldErrors?.index).toEqual(["Index: Line 3: the segment starts before the segment above it."]);
    expect(await db.prisma.record.count()).toBe(before);
  });

  it("indexes each segment as one passage at its start second, and search finds it by its synopsis", async () => {
    await drainEverySpace(db, embedder, space);
    const rows = await db.sql.query<{ time_start: number | null; time_end: number | null; heading_path: string[]; text: string }>(
      `SELECT time_start, time_end, heading_path, text FROM chunks WHERE record_id = $1 AND index_space_id = $2 AND heading_path[1] = 'Index' ORDER BY time_start`,
      [recordId, space.id],
    );
    expect(rows.map((row) => [row.time_start, row.time_end, row.heading_path[1]])).toEqual([
      [0, 70, "Infancia en Villablino"],
      [70, 135, "El lavadero de carbón"],
      [135, 250, "El cierre del pozo y la marcha a Madrid"],
    ]);
    expect(rows[2]?.text).toMatch(
      /^El cierre del pozo y la marcha a Madrid\. Recuerda la huelga de 1992.*Keywords: huelga; encierros; marcha minera; Minería -- Cierre de empresas\. ORTEGA: Fue en/,
    );

    for (const principal of [curator, reader]) {
      for (const mode of ["keyword", "hybrid"] as const) {
        const result = await searchArchive(context, principal, { query: "huelga encierros marcha minera", mode, limit: 10, collapse: "passage" });
        const hit = result.hits.find((candidate) => candidate.recordId === recordId && candidate.passage.headingPath[0] === "Index");
        expect(hit?.passage.timeStart, mode).toBe(135);
        expect(hit && citationHref({ recordId, chunkId: hit.passage.chunkId, timeStart: hit.passage.timeStart })).toMatch(/[?&]t=135(&|#|$)/);
      }
    }
    // The transcript from the WebVTT file is searchable at its cue's second too.
    const cue = await searchArchive(context, reader, { query: "campanes pantà poble", mode: "keyword", limit: 10, collapse: "passage" });
    expect(cue.hits.some((hit) => hit.recordId === recordId && hit.passage.headingPath[0] === "Transcript" && hit.passage.timeStart !== null)).toBe(true);
  });

  it("shows a researcher without the project nothing: the same answer as for words that are nowhere", async () => {
    for (const mode of ["keyword", "hybrid", "semantic"] as const) {
      const denied = await searchArchive(context, nobody, { query: "huelga encierros marcha minera", mode, limit: 10, collapse: "passage" });
      const nowhere = await searchArchive(context, nobody, { query: "zzqx wvvk", mode, limit: 10, collapse: "passage" });
      expect(denied.hits, mode).toEqual([]);
      // Apart from the query it echoes, the answer is the one for words that are nowhere.
      expect({ ...denied, query: "" }).toEqual({ ...nowhere, query: "" });
      expect(JSON.stringify(denied.hits)).not.toMatch(/huelga|Ortega/);
    }
    await expect(getRecord(db.prisma, nobody, recordId)).rejects.toMatchObject({ code: "not_found" });
  });

  it("removes the index when the editor's box is emptied, and its passages with it", async () => {
    const before = await getRecord(db.prisma, curator, recordId);
    const saved = await recordForm(curator, [
      ["section", section.slug],
      ["projectId", projectId],
      ["id", recordId],
      ["version", String(before.version)],
      ["values.title", before.title],
      ["values.language", "es"],
      ["values.transcript", serializeTranscript(before.values.transcript as never)],
      ["values.index", "   "],
    ]);
    expect((await getRecord(db.prisma, curator, recordId)).values).not.toHaveProperty("index");
    await drainEverySpace(db, embedder, space);
    const left = await db.sql.query(`SELECT 1 FROM chunks WHERE record_id = $1 AND heading_path[1] = 'Index'`, [recordId]);
    expect(left).toEqual([]);
    const result = await searchArchive(context, curator, { query: "huelga encierros marcha minera", mode: "keyword", limit: 10, collapse: "passage" });
    expect(result.hits.filter((hit) => hit.recordId === recordId)).toEqual([]);
    expect(saved.version).toBe(before.version + 1);
  });
});
