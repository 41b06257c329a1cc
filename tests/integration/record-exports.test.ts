import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type Principal, systemPrincipal } from "../../lib/acl";
import { parseCsv } from "../../lib/archive/import/parse-import-file";
import { deleteRecord } from "../../lib/archive/delete-record";
import { storeMedia } from "../../lib/archive/media-storage";
import { saveRecord } from "../../lib/archive/save-record";
import type { Database } from "../../lib/db/database";
import { citeRecordResponse, citeSelectionResponse } from "../../lib/http/citation-download";
import { recordListExportResponse } from "../../lib/http/record-list-download";
import { runAuthorizedRoute } from "../../lib/http/run-authorized";
import { CHUNKER_VERSION } from "../../lib/rag/chunk";
import { createHashEmbedder } from "../../lib/rag/embed/hash-embedder";
import { ensureIndexSpace } from "../../lib/rag/index/index-spaces";
import { runWorker } from "../../lib/rag/index/run-worker";
import { saveEmbedGroup } from "../../lib/rag/index/save-embed-group";
import { type RecordListParams, type RecordListViewDeps, loadRecordListView } from "../../lib/rag/search/record-list-view";
import { clearResolvedSearches } from "../../lib/rag/search/resolve-search";
import type { SearchContext } from "../../lib/rag/search/search-archive";
import { addMember, createProject, createRecord, createSection, createUser, principalOf, temporaryStorageDir } from "../support/factories";
import { openTestDatabase, testDatabaseMode } from "../support/test-database";
import { silentWav } from "../support/silent-wav";

/**
 * Exports for researchers, through the route handlers' own functions and the wrapper every route
 * runs (runAuthorizedRoute): a record's citation (RIS, BibTeX, CSL-JSON) and a selection's, and
 * the record list as CSV and JSON. Readable records only; an unreadable record is the same 404
 * as a missing one; the list export has the page's rows in the page's order; formula cells are
 * neutralised.
 */
const embedder = createHashEmbedder({ dimension: 64 });
const origin = "http://mnemo.test";
const hush = `hush${randomUUID().slice(0, 8)}`;

let db: Database;
let deps: RecordListViewDeps;
let reader: Principal;
let nobody: Principal;
let notes: { id: string; slug: string };
const ids: Record<string, string> = {};
const openNoteIds: string[] = [];
const closedNoteIds: string[] = [];

const asPrincipal = (principal: Principal) => async () => principal;

function cite(principal: Principal, id: string, query: string) {
  return runAuthorizedRoute(
    z.object({ id: z.string() }),
    (request, { principal: signedIn, params }) => citeRecordResponse(db.prisma, signedIn, request, { id: params.id, origin }),
    asPrincipal(principal),
    new Request(`${origin}/api/records/${encodeURIComponent(id)}/cite?${query}`),
    { id },
  );
}

function citeSelection(principal: Principal, query: string) {
  return runAuthorizedRoute(
    z.object({}),
    (request, { principal: signedIn }) => citeSelectionResponse(db.prisma, signedIn, request, { origin }),
    asPrincipal(principal),
    new Request(`${origin}/api/records/cite?${query}`),
    {},
  );
}

function exportList(principal: Principal, query: Record<string, string>, maxRows = 5000) {
  return runAuthorizedRoute(
    z.object({}),
    (request, { principal: signedIn }) => recordListExportResponse(deps, signedIn, request, { origin, maxRows }),
    asPrincipal(principal),
    new Request(`${origin}/api/records/export?${new URLSearchParams(query).toString()}`),
    {},
  );
}

/** Every page of the list as the page service shows it, two rows a page: the ids in order. */
async function pageOrder(principal: Principal, params: RecordListParams): Promise<string[]> {
  const order: string[] = [];
  for (let page = 1; ; page++) {
    const view = await loadRecordListView(deps, principal, { ...params, page: String(page), pageSize: "2" });
    order.push(...(view.result?.items.map((item) => item.id) ?? []));
    if (!view.result || page >= view.result.pageCount) return order;
  }
}

function risRecords(text: string): Record<string, string[]>[] {
  const records: Record<string, string[]>[] = [];
  let current: Record<string, string[]> = {};
  for (const line of text.split("\r\n").filter(Boolean)) {
    const [, tag, value] = /^([A-Z][A-Z0-9])  - (.*)$/.exec(line) ?? [];
    if (!tag) throw new Error(`not an RIS line: ${line}`);
    if (tag === "ER") {
      records.push(current);
      current = {};
    } else (current[tag] ??= []).push(value!);
  }
  return records;
}

beforeAll(async () => {
  db = await openTestDatabase();
  const storageDir = temporaryStorageDir();
  const space = await ensureIndexSpace(db.sql, {
    provider: embedder.provider,
    model: embedder.model,
    dimension: embedder.dimension,
    chunkerVersion: CHUNKER_VERSION,
  });
  const openProject = (await createProject(db.prisma)).id;
  const closedProject = (await createProject(db.prisma, { restricted: true })).id;
  const people = await createSection(db.prisma, [
    { key: "name", label: "Name", type: "text", required: true, listed: true },
    { key: "born", label: "Born", type: "date" },
  ]);
  const interviews = await createSection(db.prisma, [
    { key: "title", label: "Title", type: "text", required: true, listed: true },
    { key: "narrator", label: "Narrator", type: "relation", targetSection: people.slug },
    { key: "interviewer", label: "Interviewer", type: "relation", targetSection: people.slug },
    { key: "recordedOn", label: "Recorded on", type: "date" },
    { key: "summary", label: "Summary", type: "longtext" },
    { key: "recording", label: "Recording", type: "media", mediaKind: "audio" },
  ]);
  const person = (projectId: string, values: Record<string, unknown>) =>
    saveRecord(db.prisma, systemPrincipal, { sectionSlug: people.slug, projectId, values });
  const narrator = await person(openProject, { name: "Puig, Andrés", born: "1921" });
  const sealedInterviewer = await person(closedProject, { name: `Sealed Interviewer ${hush}` });
  const recording = await storeMedia(db.prisma, systemPrincipal, {
    projectId: openProject,
    file: { name: "talk.wav", bytes: silentWav(2) },
    expectedKind: "audio",
    storageDir,
    maxBytes: 1024 * 1024,
  });
  ids.interview = (
    await createRecord(db.prisma, interviews, openProject, {
      title: 'The "last" harvest {Sant Romà} & 50%',
      narrator: narrator.id,
      interviewer: sealedInterviewer.id,
      recordedOn: "1998-04-18",
      summary: "Before the dam:\nthe mill.",
      recording: recording.id,
    })
  ).id;
  ids.secret = (await createRecord(db.prisma, interviews, closedProject, { title: `Sealed testimony ${hush}` })).id;
  ids.circa = (await createRecord(db.prisma, interviews, openProject, { title: "An interview of about 1998", recordedOn: "c. 1998" })).id;
  ids.secretCirca = (await createRecord(db.prisma, interviews, closedProject, { title: `Sealed, about 1998 ${hush}`, recordedOn: "c. 1998" })).id;

  notes = await createSection(db.prisma, [
    { key: "title", label: "Title", type: "text", required: true, listed: true },
    { key: "kind", label: "Kind", type: "text", listed: true },
    { key: "year", label: "Year", type: "date", listed: true },
    { key: "summary", label: "Summary", type: "longtext" },
  ]);
  await saveEmbedGroup(db.prisma, db.sql, {
    sectionSlug: notes.slug,
    group: { slug: "all", label: "All", fields: ["title", "summary"], chunking: "short", maxTokens: 128, minTokens: 1, overlap: 0 },
    requeue: false,
  });
  const titles = ["Harbour ledger", "Auction book", '=HYPERLINK("http://evil.example","click")', "Net menders' accounts", "+Salt fish tally", "@Quay register"];
  for (const [index, title] of titles.entries()) {
    const summary = `Sardine auction ledger of the harbour${" sardine".repeat(index)}, page ${index}.`;
    openNoteIds.push(
      (await createRecord(db.prisma, notes, openProject, { title, kind: index === 1 ? "-2+3" : `kind ${index}`, year: `${1950 + index}`, summary })).id,
    );
  }
  for (let index = 0; index < 3; index++) {
    closedNoteIds.push(
      (
        await createRecord(db.prisma, notes, closedProject, {
          title: `Closed ledger ${hush} ${index}`,
          summary: `Sealed sardine auction ledger ${hush}, page ${index}.`,
        })
      ).id,
    );
  }
  await runWorker({ prisma: db.prisma, sql: db.sql, embedder, space, drain: true, idleMs: 10, batchSize: 32 });
  const context: SearchContext = { sql: db.sql, embedder, space, prepare: { detect: async () => ({ language: "en", confidence: 1 }) } };
  deps = { prisma: db.prisma, sql: db.sql, searchContext: async () => context };

  const readerUser = await createUser(db.prisma);
  await addMember(db.prisma, readerUser.id, openProject);
  reader = await principalOf(db.prisma, readerUser.id);
  nobody = await principalOf(db.prisma, (await createUser(db.prisma)).id);
}, 180_000);

afterAll(async () => {
  await db?.close();
});

describe(`record citations (${testDatabaseMode()})`, () => {
  it("cites a readable interview in RIS at a moment: type, narrator, date, the record URL with ?t=, and no unreadable linked name", async () => {
    const response = await cite(reader, ids.interview!, "format=ris&t=61.7");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/x-research-info-systems; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="record-${ids.interview!.slice(0, 8)}-t61.ris"`);
    const text = await response.text();
    expect(text).not.toContain(hush);
    expect(text).not.toContain("A2  - ");
    const [record] = risRecords(text);
    expect(record).toMatchObject({
      TY: ["SOUND"],
      TI: ['The "last" harvest {Sant Romà} & 50%'],
      AU: ["Puig, Andrés"],
      PY: ["1998"],
      UR: [`${origin}/records/${ids.interview}?t=61`],
      N1: ["Cited at 01:01 of the recording."],
      AB: ["Before the dam: the mill."],
    });
  });

  it("serves BibTeX and CSL-JSON with their types and file names", async () => {
    const bibtex = await cite(reader, ids.interview!, "format=bibtex");
    expect(bibtex.headers.get("content-type")).toBe("application/x-bibtex; charset=utf-8");
    expect(bibtex.headers.get("content-disposition")).toMatch(/filename="record-[0-9a-f]{8}\.bib"/);
    const entry = await bibtex.text();
    expect(entry).toMatch(/^@misc\{puig1998_[0-9a-f]{8},/);
    expect(entry).toContain('title = {The "last" harvest \\{Sant Romà\\} \\& 50\\%}');
    const csl = await cite(reader, ids.interview!, "format=csl-json");
    expect(csl.headers.get("content-type")).toBe("application/vnd.citationstyles.csl+json; charset=utf-8");
    const [item] = (await csl.json()) as Record<string, unknown>[];
    expect(item).toMatchObject({
      type: "interview",
      author: [{ family: "Puig", given: "Andrés" }],
      issued: { "date-parts": [[1998, 4, 18]] },
      URL: `${origin}/records/${ids.interview}`,
    });
    expect(item).not.toHaveProperty("interviewer");
  });

  it("cites a date written c. 1998 as 1998 with circa in CSL-JSON, the year in RIS and BibTeX; a restricted one as missing", async () => {
    const [item] = (await (await cite(reader, ids.circa!, "format=csl-json")).json()) as Record<string, unknown>[];
    expect(item?.issued).toEqual({ "date-parts": [[1998]], circa: true });
    expect(await (await cite(reader, ids.circa!, "format=ris")).text()).toMatch(/\r\nPY  - 1998\r\n/);
    expect(await (await cite(reader, ids.circa!, "format=bibtex")).text()).toContain("year = {1998}");
    const denied = await cite(reader, ids.secretCirca!, "format=csl-json");
    const missing = await cite(reader, randomUUID(), "format=csl-json");
    expect([denied.status, await denied.text()]).toEqual([missing.status, await missing.text()]);
  });

  it("answers a restricted record exactly as a missing one, and a reader of nothing exactly so for a readable one", async () => {
    for (const format of ["ris", "bibtex", "csl-json"]) {
      const denied = await cite(reader, ids.secret!, `format=${format}`);
      const missing = await cite(reader, randomUUID(), `format=${format}`);
      expect(denied.status).toBe(404);
      expect([missing.status, await missing.text()]).toEqual([denied.status, await denied.text()]);
      const outsider = await cite(nobody, ids.interview!, `format=${format}`);
      expect(outsider.status).toBe(404);
    }
    expect((await cite(reader, "../../etc/passwd", "format=ris")).status).toBe(404);
  });

  it("cites a selection in the order asked, naming the ids it did not find — missing and restricted alike", async () => {
    const missing = randomUUID();
    const response = await citeSelection(reader, `format=ris&ids=${ids.secret},${openNoteIds[1]},${missing}&ids=${ids.interview}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="records-2.ris"');
    expect(response.headers.get("mnemo-not-found")).toBe(`${ids.secret},${missing}`);
    const text = await response.text();
    expect(text).not.toContain(hush);
    expect(risRecords(text).map((record) => record.ID?.[0])).toEqual([openNoteIds[1], ids.interview]);
    // An answer's sources: a recording cited at two moments is two citations, each with its moment.
    const moments = await citeSelection(reader, `format=csl-json&ids=${ids.interview}%4061,${ids.interview}%40754,${ids.secret}%4010`);
    expect(moments.headers.get("mnemo-not-found")).toBe(encodeURIComponent(`${ids.secret}@10`));
    const cited = (await moments.json()) as { URL: string; note: string }[];
    expect(cited.map((item) => [item.URL, item.note])).toEqual([
      [`${origin}/records/${ids.interview}?t=61`, "Cited at 01:01 of the recording."],
      [`${origin}/records/${ids.interview}?t=754`, "Cited at 12:34 of the recording."],
    ]);
    // Only unreadable ids: the same 404 as only missing ones.
    const denied = await citeSelection(reader, `format=bibtex&ids=${ids.secret}`);
    const absent = await citeSelection(reader, `format=bibtex&ids=${randomUUID()}`);
    expect(denied.status).toBe(404);
    expect([absent.status, await absent.text()]).toEqual([denied.status, await denied.text()]);
  });

  it("refuses a bad format, moment or selection with a 400 naming the field", async () => {
    const problems = async (response: Response) => [
      response.status,
      Object.keys(((await response.json()) as { error: { fieldErrors?: object } }).error.fieldErrors ?? {}),
    ];
    expect(await problems(await cite(reader, ids.interview!, "format=endnote"))).toEqual([400, ["format"]]);
    expect(await problems(await cite(reader, ids.interview!, "t=3"))).toEqual([400, ["format"]]);
    expect(await problems(await cite(reader, ids.interview!, "format=ris&t=-3"))).toEqual([400, ["t"]]);
    expect(await problems(await cite(reader, ids.interview!, "format=ris&t=soon"))).toEqual([400, ["t"]]);
    expect(await problems(await citeSelection(reader, "format=ris"))).toEqual([400, ["ids"]]);
    expect(await problems(await citeSelection(reader, `format=ris&ids=${Array.from({ length: 101 }, () => randomUUID()).join(",")}`))).toEqual([400, ["ids"]]);
  });
});

describe(`record list export (${testDatabaseMode()})`, () => {
  it("exports the list's readable rows in the page's order, every page, with formula cells neutralised", async () => {
    for (const sort of ["title", "-date", "-updated"]) {
      const response = await exportList(reader, { format: "csv", section: notes.slug, sort, page: "3", pageSize: "2" });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="records-\d{4}-\d{2}-\d{2}\.csv"$/);
      const text = await response.text();
      expect(text).not.toContain(hush);
      const table = parseCsv(text);
      expect(table.columns).toEqual(["id", "url", "title", "section", "project", "date", "Kind", "Year"]);
      expect(
        table.rows.map((row) => row[0]),
        sort,
      ).toEqual(await pageOrder(reader, { section: notes.slug, sort }));
      expect(table.rows).toHaveLength(openNoteIds.length);
      for (const row of table.rows) expect(row[1]).toBe(`${origin}/records/${row[0]}`);
      // No cell a spreadsheet would run: =, +, - and @ are neutralised with an apostrophe.
      expect(table.rows.flat().filter((cell) => /^[=+\-@]/.test(cell))).toEqual([]);
      expect(table.rows.flat()).toEqual(
        expect.arrayContaining([`'=HYPERLINK("http://evil.example","click")`, "'+Salt fish tally", "'@Quay register", "'-2+3"]),
      );
    }
  });

  it("exports a search as the page ranks it: pinned order, rank and relevance, in CSV and JSON alike", async () => {
    clearResolvedSearches();
    const params = { q: "sardine auction ledger", mode: "keyword" };
    const order = await pageOrder(reader, params);
    expect(order.length).toBeGreaterThan(2);
    expect(order.some((id) => closedNoteIds.includes(id))).toBe(false);
    const csv = parseCsv(await (await exportList(reader, { format: "csv", ...params })).text());
    expect(csv.columns).toEqual(["id", "url", "title", "section", "project", "date", "rank", "relevance"]);
    expect(csv.rows.map((row) => row[0])).toEqual(order);
    expect(csv.rows.map((row) => Number(row[6]))).toEqual(order.map((_id, index) => index + 1));
    for (const row of csv.rows) expect(Number(row[7])).toBeGreaterThan(0);
    const response = await exportList(reader, { format: "json", ...params });
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const json = (await response.json()) as { search: unknown; total: number; exported: number; records: { id: string; rank: number; url: string }[] };
    expect(json).toMatchObject({ search: { query: "sardine auction ledger", mode: "keyword" }, total: order.length, exported: order.length });
    expect(json.records.map((record) => record.id)).toEqual(order);
    // Sorted otherwise, the search's hits keep their rank.
    const byTitle = parseCsv(await (await exportList(reader, { format: "csv", ...params, sort: "title" })).text());
    expect(byTitle.rows.map((row) => row[0])).toEqual(await pageOrder(reader, { ...params, sort: "title" }));
  });

  it("stops at the row limit and says how many the list holds", async () => {
    const response = await exportList(reader, { format: "json", section: notes.slug }, 4);
    expect(response.headers.get("mnemo-export-total")).toBe(String(openNoteIds.length));
    expect(response.headers.get("mnemo-export-rows")).toBe("4");
    const json = (await response.json()) as { total: number; exported: number; records: { id: string }[] };
    expect(json.records.map((record) => record.id)).toEqual((await pageOrder(reader, { section: notes.slug })).slice(0, 4));
    expect(json).toMatchObject({ total: openNoteIds.length, exported: 4 });
  });

  it("gives a reader of nothing an empty export, and refuses bad parameters by name", async () => {
    const empty = parseCsv(await (await exportList(nobody, { format: "csv", section: notes.slug })).text());
    expect(empty.rows).toEqual([]);
    const searched = (await (await exportList(nobody, { format: "json", q: "sardine auction ledger", mode: "keyword" })).json()) as {
      total: number;
      records: unknown[];
    };
    expect(searched).toMatchObject({ total: 0, records: [] });
    const message = async (response: Response) => [response.status, ((await response.json()) as { error: { message: string } }).error.message];
    expect(await message(await exportList(reader, { format: "xlsx" }))).toEqual([400, "Choose a format: csv or json."]);
    expect(await message(await exportList(reader, { format: "csv", from: "1990", to: "1950" }))).toEqual([
      400,
      "The start year must not be after the end year.",
    ]);
    expect(await message(await exportList(reader, { format: "csv", section: "no-such-section" }))).toEqual([400, expect.stringMatching(/no-such-section/)]);
  });
});

describe(`record list export of all fields (${testDatabaseMode()})`, () => {
  const sealed = `sealed${randomUUID().slice(0, 8)}`;
  let people: { slug: string };
  let interviews: { slug: string };
  let reader2: Principal;
  const made = {} as Record<"valley" | "hidden" | "gone" | "carmen" | "marta" | "interview" | "recording", { id: string }>;

  beforeAll(async () => {
    const save = (section: { slug: string }, projectId: string, values: Record<string, unknown>) =>
      saveRecord(db.prisma, systemPrincipal, { sectionSlug: section.slug, projectId, values });
    const open = (await createProject(db.prisma)).id;
    const closed = (await createProject(db.prisma, { restricted: true })).id;
    const places = await createSection(db.prisma, [{ key: "name", label: "Name", type: "text", required: true, listed: true }]);
    people = await createSection(db.prisma, [
      { key: "name", label: "Name", type: "text", required: true, listed: true },
      { key: "occupation", label: "Occupation", type: "text", listed: true },
      { key: "born", label: "Born", type: "date" },
      { key: "died", label: "Died", type: "date" },
      { key: "places", label: "Places", type: "relation", targetSection: places.slug, multiple: true },
      { key: "biography", label: "Biography", type: "longtext" },
      { key: "sameAs", label: "Same as", type: "authority", multiple: true },
    ]);
    interviews = await createSection(db.prisma, [
      { key: "title", label: "Title", type: "text", required: true, listed: true },
      { key: "narrator", label: "Narrator", type: "relation", targetSection: people.slug },
      { key: "recording", label: "Recording", type: "media", mediaKind: "audio" },
    ]);
    made.valley = await save(places, open, { name: "Sant Romà de Vall" });
    made.hidden = await save(places, closed, { name: `Hidden place ${sealed}` });
    made.gone = await save(places, open, { name: `Gone place ${sealed}` });
    const person = (values: Record<string, unknown>) => save(people, open, values);
    made.carmen = await person({
      name: "Carmen Roldán Ortiz",
      occupation: "=1+1",
      born: "c. 1921",
      died: "1999-03-02",
      places: [made.valley.id, made.hidden.id],
      biography: 'Miller, "the last one",\nin the valley.',
      sameAs: [{ uri: "http://www.wikidata.org/entity/Q42", label: "Carmen Roldán" }],
    });
    made.marta = await person({ name: "Marta Puig i Soler", born: "1930", places: [made.valley.id, made.gone.id] });
    const gone = await db.prisma.record.findUniqueOrThrow({ where: { id: made.gone.id } });
    await deleteRecord(db.prisma, systemPrincipal, { id: gone.id, version: gone.version });
    const recording = await storeMedia(db.prisma, systemPrincipal, {
      projectId: open,
      file: { name: "mill.wav", bytes: silentWav(1) },
      expectedKind: "audio",
      storageDir: temporaryStorageDir(),
      maxBytes: 1024 * 1024,
    });
    made.interview = await save(interviews, open, { title: "At the mill", narrator: made.carmen.id, recording: recording.id });
    made.recording = { id: recording.id };
    const user = await createUser(db.prisma);
    await addMember(db.prisma, user.id, open);
    reader2 = await principalOf(db.prisma, user.id);
  }, 60_000);

  it("exports every field of people: birth, death, places, biography and authority links, formula-safe", async () => {
    const response = await exportList(reader2, { format: "csv", section: people.slug, columns: "all", sort: "title" });
    expect(response.status).toBe(200);
    const text = await response.text();
    const table = parseCsv(text);
    expect(table.columns).toEqual(["id", "url", "title", "section", "project", "date", "Occupation", "Born", "Died", "Places", "Biography", "Same as"]);
    expect(table.rows.map((row) => row[2])).toEqual(["Carmen Roldán Ortiz", "Marta Puig i Soler"]);
    expect(table.rows[0]!.slice(6)).toEqual([
      "'=1+1",
      "c. 1921",
      "1999-03-02",
      "Sant Romà de Vall",
      'Miller, "the last one",\nin the valley.',
      "Carmen Roldán <http://www.wikidata.org/entity/Q42>",
    ]);
    // A link to a restricted record exports exactly what a link to a deleted one does: nothing of it.
    expect(table.rows[1]![9]).toBe(table.rows[0]![9]);
    expect(text).not.toContain(sealed);
    expect(text).not.toContain(made.hidden.id);
    expect(text).not.toContain(made.gone.id);
    // The listed choice, and no choice at all, stay the list's columns.
    for (const columns of ["listed", ""])
      expect(parseCsv(await (await exportList(reader2, { format: "csv", section: people.slug, columns })).text()).columns).toEqual([
        "id",
        "url",
        "title",
        "section",
        "project",
        "date",
        "Occupation",
      ]);
  });

  it("gives a mixed list the union of its sections' fields, empty where a field does not apply, in JSON too", async () => {
    const mixed = parseCsv(await (await exportList(reader2, { format: "csv", columns: "all", sort: "title" })).text());
    expect(mixed.columns).toEqual(expect.arrayContaining(["Born", "Places", "Narrator", "Recording"]));
    const born = mixed.columns.indexOf("Born");
    const narrator = mixed.columns.indexOf("Narrator");
    const interviewRow = mixed.rows.find((row) => row[0] === made.interview.id)!;
    expect(interviewRow[born]).toBe("");
    expect(interviewRow[narrator]).toBe("Carmen Roldán Ortiz");
    expect(interviewRow[mixed.columns.indexOf("Recording")]).toBe(`mill.wav <${origin}/api/media/${made.recording.id}>`);
    expect(mixed.rows.find((row) => row[0] === made.carmen.id)![narrator]).toBe("");
    const json = (await (await exportList(reader2, { format: "json", columns: "all", section: people.slug })).json()) as {
      columns: { key: string }[];
      records: { id: string; values: Record<string, string> }[];
    };
    expect(json.columns.map((column) => column.key)).toEqual(["occupation", "born", "died", "places", "biography", "sameAs"]);
    expect(json.records.find((record) => record.id === made.marta.id)!.values).toMatchObject({ born: "1930", places: "Sant Romà de Vall", biography: "" });
  });

  it("gives a reader of nothing nothing, and refuses an unknown choice of columns", async () => {
    const empty = parseCsv(await (await exportList(nobody, { format: "csv", section: people.slug, columns: "all" })).text());
    expect(empty.rows).toEqual([]);
    expect(empty.columns).toEqual(["id", "url", "title", "section", "project", "date"]);
    const response = await exportList(reader2, { format: "csv", section: people.slug, columns: "every" });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe("Choose columns: listed or all.");
  });
});

describe(`citations with a person's own name fields (${testDatabaseMode()})`, () => {
  it("writes a linked person's family and given fields as written, and nothing of a person the reader may not read", async () => {
    const save = (section: { slug: string }, projectId: string, values: Record<string, unknown>) =>
      saveRecord(db.prisma, systemPrincipal, { sectionSlug: section.slug, projectId, values });
    const open = (await createProject(db.prisma)).id;
    const closed = (await createProject(db.prisma, { restricted: true })).id;
    const people = await createSection(db.prisma, [
      { key: "name", label: "Name", type: "text", required: true },
      { key: "familyName", label: "Family name", type: "text" },
      { key: "givenName", label: "Given name", type: "text" },
    ]);
    const works = await createSection(db.prisma, [
      { key: "title", label: "Title", type: "text", required: true },
      { key: "language", label: "Language", type: "category", options: ["en", "es"] },
      { key: "authors", label: "Authors", type: "relation", targetSection: people.slug, multiple: true },
    ]);
    // An English record would split "Ana María Vidal Quadras" as Quadras, Ana María Vidal: the person's own fields win.
    const ana = await save(people, open, { name: "Ana María Vidal Quadras", familyName: "Vidal Quadras", givenName: "Ana María" });
    const hidden = await save(people, closed, { name: `Hidden Author ${hush}`, familyName: `Hidden${hush}` });
    const work = await save(works, open, { title: "Nets", language: "en", authors: [ana.id, hidden.id] });
    const user = await createUser(db.prisma);
    await addMember(db.prisma, user.id, open);
    const response = await cite(await principalOf(db.prisma, user.id), work.id, "format=csl-json");
    expect(response.status).toBe(200);
    const text = await response.text();
    expect((JSON.parse(text) as { author: unknown }[])[0]!.author).toEqual([{ family: "Vidal Quadras", given: "Ana María" }]);
    expect(text).not.toContain(hush);
    expect(text).not.toContain(hidden.id);
  });
});
