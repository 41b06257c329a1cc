import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "../../lib/acl";
import type { ApiDeps } from "../../lib/api/handle-api-request";
import { createApiToken } from "../../lib/auth/api-tokens";
import type { FieldDefinition } from "../../lib/archive/field-definitions";
import { getRecord } from "../../lib/archive/get-record";
import { dryRunImport, getImportJob, previewImport, runImportJobs, startImport, type ImportFile, type ImportPlan } from "../../lib/archive/import";
import { listRecords, listRecordsQuerySchema } from "../../lib/archive/list-records";
import { changesBetween, readRecordHistory } from "../../lib/archive/record-history";
import { recordInputName } from "../../lib/archive/record-form-data";
import { recordFormSchema, saveRecordForm } from "../../lib/archive/save-record-form";
import { type SectionSummary, getSectionBySlug } from "../../lib/archive/sections";
import type { Database } from "../../lib/db/database";
import { AppError, parseInput } from "../../lib/errors";
import { createHashEmbedder } from "../../lib/rag/embed/hash-embedder";
import type { IndexSpace } from "../../lib/rag/index/index-spaces";
import { type SearchContext, searchArchive } from "../../lib/rag/search/search-archive";
import { listCellText, listColumnsOf, searchFieldsOf } from "../../lib/rag/search/record-list-view";
import { callApi } from "../support/api-request";
import { drainEverySpace } from "../support/drain-every-space";
import { createProject, createSection, memberPrincipal, readerNobodyAdmin, saveAllGroup, temporaryStorageDir, testIndexSpace } from "../support/factories";
import { apiDepsWithoutModels, englishOnly, testMediaStorage } from "../support/service-runtime";
import { openTestDatabase, testDatabaseMode } from "../support/test-database";

/**
 * Authority links in the app (issue 47, item 3): saved through the record form as the editor
 * fills it, listed and found by label in the record list, indexed by label, shown in the
 * history as "Label <URI>", imported from URI columns with a dry run, refused with the value
 * quoted through the JSON API — and a researcher who may not read the project finds nothing.
 */
const embedder = createHashEmbedder({ dimension: 64 });
const origin = "http://mnemo.test";
const fields: FieldDefinition[] = [
  { key: "title", label: "Title", type: "text", required: true, listed: true },
  { key: "mint", label: "Mint", type: "authority", authorities: ["nomisma"], listed: true },
  { key: "subjects", label: "Subjects", type: "authority", multiple: true, listed: true },
];
const nero = "http://www.wikidata.org/entity/Q1413";
const augustus = "http://www.wikidata.org/entity/Q1405";
const coinType = "http://vocab.getty.edu/aat/300037222";

let db: Database;
let space: IndexSpace;
let context: SearchContext;
let section: SectionSummary;
let projectId: string;
let curator: Principal;
let reader: Principal;
let nobody: Principal;
let writeToken: string;
let recordId: string;
const storageDir = temporaryStorageDir();

function recordForm(principal: Principal, entries: [string, string][]) {
  const formData = new FormData();
  for (const [name, value] of entries) formData.append(name, value);
  return saveRecordForm(db.prisma, principal, parseInput(recordFormSchema, formData), { storageDir, maxBytes: 1024 * 1024 });
}

const apiDeps = (): ApiDeps => apiDepsWithoutModels(db, origin, { media: testMediaStorage() });

async function call(name: string, input: Record<string, unknown>) {
  const response = await callApi(apiDeps(), name, input, { origin, token: writeToken });
  const text = await response.text();
  return {
    status: response.status,
    text,
    json: JSON.parse(text) as Record<string, unknown> & { error?: { code: string; message: string; fieldErrors?: Record<string, string[]> } },
  };
}

const list = (principal: Principal, filters: { text: string; field?: string }) =>
  listRecords(db.sql, principal, listRecordsQuerySchema.parse({ section: section.slug, ...filters }));

beforeAll(async () => {
  db = await openTestDatabase();
  space = await testIndexSpace(db.sql, embedder);
  const created = await createSection(db.prisma, fields);
  await saveAllGroup(db.prisma, db.sql, created.slug, ["title", "mint", "subjects"]);
  section = await getSectionBySlug(db.prisma, created.slug);
  projectId = (await createProject(db.prisma, { restricted: true })).id;
  curator = await memberPrincipal(db.prisma, projectId, { role: "curator", membership: "editor" });
  ({ reader, nobody } = await readerNobodyAdmin(db.prisma, projectId));
  writeToken = (await createApiToken(db.prisma, curator, { name: "cataloguing agent", expiresInDays: 30, scopes: ["read", "write"] })).token;
  context = { sql: db.sql, embedder, space, prepare: englishOnly };
}, 120_000);

afterAll(async () => {
  await db?.close();
});

describe(`authority links (${testDatabaseMode()})`, () => {
  it("saves links through the record form as the editor fills it, in their authorities' canonical form", async () => {
    const saved = await recordForm(curator, [
      ["section", section.slug],
      ["projectId", projectId],
      [recordInputName.value("title"), "Denarius of Nero"],
      [recordInputName.value("mint"), "https://nomisma.org/id/rome"],
      [recordInputName.authorityLabel("mint"), "Roma"],
      [recordInputName.value("subjects"), `Nerón <https://www.wikidata.org/wiki/Q1413>\n${coinType}`],
    ]);
    recordId = saved.id;
    const record = await getRecord(db.prisma, curator, recordId);
    expect(record.values).toEqual({
      title: "Denarius of Nero",
      mint: { uri: "http://nomisma.org/id/rome", label: "Roma" },
      subjects: [{ uri: nero, label: "Nerón" }, { uri: coinType }],
    });
  });

  it("refuses a URI of no accepted authority with the value quoted beside its field, and writes nothing", async () => {
    const before = await db.prisma.record.count();
    const error = await recordForm(curator, [
      ["section", section.slug],
      ["projectId", projectId],
      [recordInputName.value("title"), "Wrong mint"],
      [recordInputName.value("mint"), nero],
      [recordInputName.value("subjects"), "Nero"],
    ]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("bad_request");
    expect((error as AppError).fieldErrors).toEqual({
      mint: [`Mint "${nero}" is not an authority URI: write a Nomisma URI, such as http://nomisma.org/id/athens`],
      subjects: [expect.stringMatching(/^Subjects "Nero" is not an authority URI: write a Wikidata, Getty AAT, .* or CRRO URI, such as /)],
    });
    expect(await db.prisma.record.count()).toBe(before);
  });

  it("lists the links' labels as a column and finds the record by a label or a URI, for readers of its project only", async () => {
    expect(listColumnsOf(section).map((field) => field.key)).toEqual(["mint", "subjects"]);
    expect(searchFieldsOf(section).map((field) => field.key)).toEqual(["title", "mint", "subjects"]);
    for (const principal of [curator, reader]) {
      for (const filters of [{ text: "neron" }, { text: "Nerón", field: "subjects" }, { text: "Roma", field: "mint" }, { text: "Q1413" }]) {
        const page = await list(principal, filters);
        expect(
          page.items.map((item) => item.id),
          JSON.stringify(filters),
        ).toEqual([recordId]);
        const item = page.items[0]!;
        expect(
          listCellText(
            section.fields.find((field) => field.key === "subjects")!,
            item.values.subjects,
          ),
        ).toBe("Nerón; Getty AAT 300037222");
      }
      expect((await list(principal, { text: "Nerón", field: "mint" })).total).toBe(0);
      // The values' words, not their JSON: the keys of a link and its quoting match nothing.
      for (const text of ["uri", "label", "subjects", '":"']) expect((await list(principal, { text })).total, text).toBe(0);
    }
    // A researcher who may not read the project: the same empty page as for words that are nowhere.
    for (const filters of [{ text: "neron" }, { text: "Nerón", field: "subjects" }, { text: "Q1413" }]) {
      const denied = await list(nobody, filters);
      expect(denied).toEqual(await list(nobody, { ...filters, text: "zzqx wvvk" }));
      expect(denied.total).toBe(0);
    }
  });

  it("indexes the labels, not the URIs, and search finds the record by a label for readers only", async () => {
    await drainEverySpace(db, embedder, space);
    const rows = await db.sql.query<{ text: string }>(`SELECT text FROM chunks WHERE record_id = $1 AND index_space_id = $2`, [recordId, space.id]);
    const text = rows.map((row) => row.text).join("\n");
    expect(text).toContain("Mint: Roma");
    expect(text).toContain("Subjects: Nerón");
    expect(text).not.toMatch(/wikidata|nomisma\.org|getty/i);
    const found = await searchArchive(context, reader, { query: "Nerón", mode: "keyword", limit: 10, collapse: "passage" });
    expect(found.hits.map((hit) => hit.recordId)).toContain(recordId);
    const denied = await searchArchive(context, nobody, { query: "Nerón", mode: "keyword", limit: 10, collapse: "passage" });
    expect(denied.hits).toEqual([]);
  });

  it("shows a change of links in the history as Label <URI> text", async () => {
    await recordForm(curator, [
      ["section", section.slug],
      ["projectId", projectId],
      ["id", recordId],
      ["version", "1"],
      [recordInputName.value("title"), "Denarius of Nero"],
      [recordInputName.value("mint"), "http://nomisma.org/id/rome"],
      [recordInputName.authorityLabel("mint"), "Roma"],
      [recordInputName.value("subjects"), `Nero <${nero}>\nAugustus <${augustus}>`],
    ]);
    const history = await readRecordHistory(db.prisma, reader, recordId);
    const [newer, older] = history.versions;
    const changes = changesBetween(history.record.fields, older!.values, newer!.values);
    expect(changes.map((change) => change.key)).toEqual(["subjects"]);
    const removed = changes[0]!
      .text!.filter((part) => part.op === "removed")
      .map((part) => part.text)
      .join("");
    const added = changes[0]!
      .text!.filter((part) => part.op === "added")
      .map((part) => part.text)
      .join("");
    const whole = changes[0]!
      .text!.filter((part) => part.op !== "removed")
      .map((part) => part.text)
      .join("");
    expect(whole).toBe(`Nero <${nero}>\nAugustus <${augustus}>`);
    expect(removed).toContain("Nerón");
    expect(removed).toContain(coinType);
    expect(added).toContain("Augustus");
    expect(JSON.stringify(changes[0]!.text)).not.toContain('"uri"');
    await expect(readRecordHistory(db.prisma, nobody, recordId)).rejects.toMatchObject({ code: "not_found" });
  });

  it("imports URI columns: the dry run quotes each bad cell on its row, and only the good rows are written", async () => {
    const file: ImportFile = {
      fileName: "coins.csv",
      bytes: new TextEncoder().encode(
        [
          "ID,Title,Mint URI,Mint,Subjects",
          `c-1,As of Augustus,https://nomisma.org/id/lugdunum,Lugdunum,"Augustus <${augustus}>; ${coinType}"`,
          `c-2,Denarius,http://nomisma.org/id/rome,,${nero}`,
          `c-3,Wrong mint,${nero},Rome,`,
          "c-4,Wrong subject,,,Nero",
          "c-5,Label alone,,Roma,",
        ].join("\r\n"),
      ),
    };
    const preview = await previewImport(db.prisma, curator, file, section.slug);
    expect(preview.suggestedMapping).toEqual({
      externalIdColumn: "ID",
      columns: { Title: "title", "Mint URI": "mint", Mint: "mint.label", Subjects: "subjects" },
    });
    const plan: ImportPlan = { sectionSlug: section.slug, projectId, mapping: preview.suggestedMapping };
    const before = await db.prisma.record.count();
    const dryRun = await dryRunImport(db.prisma, curator, file, plan);
    expect(dryRun).toMatchObject({ rows: 5, valid: 2, creates: 2 });
    expect(dryRun.problems).toEqual([
      {
        row: 3,
        column: "Mint URI",
        field: "mint",
        message: `Mint "${nero}" is not an authority URI: write a Nomisma URI, such as http://nomisma.org/id/athens`,
      },
      { row: 4, column: "Subjects", field: "subjects", message: expect.stringMatching(/^Subjects "Nero" is not an authority URI: write a Wikidata, /) },
      { row: 5, column: "Mint URI", field: "mint", message: "Mint has the label “Roma” but no URI" },
    ]);
    expect(await db.prisma.record.count()).toBe(before);

    const { jobId } = await startImport(db.prisma, curator, file, plan, { storageDir });
    await runImportJobs(db.prisma, { storageDir, workerId: "test" });
    expect(await getImportJob(db.prisma, curator, jobId)).toMatchObject({ status: "done", created: 2, skipped: 3 });
    const imported = await db.prisma.record.findMany({ where: { sectionId: section.id, externalId: { not: null } }, orderBy: { externalId: "asc" } });
    expect(imported.map((record) => [record.externalId, record.values])).toEqual([
      [
        "c-1",
        {
          title: "As of Augustus",
          mint: { uri: "http://nomisma.org/id/lugdunum", label: "Lugdunum" },
          subjects: [{ uri: augustus, label: "Augustus" }, { uri: coinType }],
        },
      ],
      ["c-2", { title: "Denarius", mint: { uri: "http://nomisma.org/id/rome" }, subjects: [{ uri: nero }] }],
    ]);
  });

  it("refuses a bad link through the JSON API with 400 and the value quoted, and saves a good one canonical", async () => {
    const before = await db.prisma.record.count();
    const created = await call("create_record", {
      sectionSlug: section.slug,
      projectId,
      values: { title: "Aureus", subjects: [{ uri: "http://example.org/nero", label: "Nero" }] },
    });
    expect(created.status, created.text).toBe(400);
    expect(created.json.error?.fieldErrors?.subjects).toEqual([expect.stringMatching(/^Subjects "http:\/\/example\.org\/nero" is not an authority URI: /)]);
    const shape = await call("create_record", { sectionSlug: section.slug, projectId, values: { title: "Aureus", mint: { label: "Rome" } } });
    expect(shape.status).toBe(400);
    expect(shape.json.error?.fieldErrors?.mint).toEqual(["Mint must be authority links: a URI and an optional label"]);
    expect(await db.prisma.record.count()).toBe(before);

    const good = await call("create_record", {
      sectionSlug: section.slug,
      projectId,
      values: {
        title: "Aureus",
        mint: "https://nomisma.org/id/rome",
        subjects: [`${nero}`, { uri: "https://www.wikidata.org/wiki/Q1405", label: "Augustus" }],
      },
    });
    expect(good.status, good.text).toBe(200);
    const id = good.json.id as string;
    expect((await getRecord(db.prisma, curator, id)).values).toMatchObject({
      mint: { uri: "http://nomisma.org/id/rome" },
      subjects: [{ uri: nero }, { uri: augustus, label: "Augustus" }],
    });
    const update = await call("update_record", { recordId: id, version: 1, values: { mint: { uri: "http://nomisma.org/id/Rome Mint", label: "Rome" } } });
    expect(update.status).toBe(400);
    expect(update.json.error?.fieldErrors?.mint).toEqual([
      expect.stringMatching(/^Mint "http:\/\/nomisma\.org\/id\/Rome Mint" is not an authority URI: write a Nomisma URI/),
    ]);
  });
});
