import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Principal, systemPrincipal } from "../../lib/acl";
import type { FieldDefinition } from "../../lib/archive/field-definitions";
import {
  dryRunImport,
  getImportJob,
  listImportJobs,
  previewImport,
  problemsCsv,
  runImportJobs,
  startImport,
  type ImportFile,
  type ImportPlan,
} from "../../lib/archive/import";
import type { Database } from "../../lib/db/database";
import { mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { importBatchRows } from "../../lib/archive/import/import-jobs";
import { runImportLoop } from "../../lib/archive/import/import-worker";
import { resetConfig } from "../../lib/config";
import { addMember, createProject, createRecord, createSection, createUser, pngBytes, principalOf, temporaryStorageDir } from "../support/factories";
import { appErrorOf } from "../support/app-error-of";
import { openTestDatabase, testDatabaseMode } from "../support/test-database";

let db: Database;
let storageDir: string;
let curator: Principal;
let otherCurator: Principal;
let researcher: Principal;
let admin: Principal;
let projectId: string;
let hiddenProjectId: string;
let section: { id: string; slug: string };
let people: { slug: string };

const interviewFields = (peopleSlug: string): FieldDefinition[] => [
  { key: "title", label: "Title", type: "text", required: true, listed: true },
  { key: "recordedOn", label: "Recorded on", type: "date" },
  { key: "kind", label: "Kind", type: "category", options: ["interview", "letter", "photograph"] },
  { key: "narrator", label: "Narrator", type: "relation", targetSection: peopleSlug, multiple: true },
  { key: "summary", label: "Summary", type: "longtext" },
  { key: "period", label: "Period", type: "daterange" },
];

beforeAll(async () => {
  db = await openTestDatabase();
  storageDir = temporaryStorageDir();
  const { prisma } = db;
  projectId = (await createProject(prisma)).id;
  hiddenProjectId = (await createProject(prisma)).id;
  people = await createSection(prisma, [{ key: "title", label: "Name", type: "text", required: true }]);
  section = await createSection(prisma, interviewFields(people.slug));
  const curatorUser = await createUser(prisma, { role: "curator" });
  await addMember(prisma, curatorUser.id, projectId, "editor");
  curator = await principalOf(prisma, curatorUser.id);
  const otherUser = await createUser(prisma, { role: "curator" });
  await addMember(prisma, otherUser.id, projectId, "editor");
  otherCurator = await principalOf(prisma, otherUser.id);
  const researcherUser = await createUser(prisma);
  await addMember(prisma, researcherUser.id, projectId, "reader");
  researcher = await principalOf(prisma, researcherUser.id);
  admin = await principalOf(prisma, (await createUser(prisma, { role: "admin" })).id);
  for (let index = 1; index <= 5; index++) await createRecord(prisma, people, projectId, { title: `Person ${index}` });
  await createRecord(prisma, people, hiddenProjectId, { title: "Hidden Person" });
});

afterAll(async () => {
  await db.close();
});

function csvFile(lines: string[], fileName = "interviews.csv"): ImportFile {
  return { fileName, bytes: new TextEncoder().encode(`${lines.join("\r\n")}\r\n`) };
}

const header = "ID,Title,Recorded on,Kind,Narrator,Summary,Period";
const badRows = [17, 50, 90, 120, 160];

/** 200 rows; exactly rows 17, 50, 90, 120 and 160 are bad, one reason each. */
function interviewRows(prefix: string, summaryOf: (row: number) => string = (row) => `Summary of ${row}`): string[] {
  const lines = [header];
  for (let row = 1; row <= 200; row++) {
    const id = row === 120 ? `${prefix}-10` : `${prefix}-${row}`;
    const title = row === 160 ? "" : `Interview ${prefix} ${row}`;
    const date = row === 17 ? "1962-02-30" : `19${String((row % 90) + 10).padStart(2, "0")}-04-18`;
    const kind = row === 50 ? "sculpture" : row % 2 ? "Interview" : "letter";
    const narrator = row === 90 ? "Hidden Person" : `Person ${(row % 5) + 1}${row % 7 === 0 ? " | Person 1" : ""}`;
    const summary = row === 3 ? '=HYPERLINK("http://example.test","click")' : row === 4 ? 'Said "yes"\nand left; twice' : summaryOf(row);
    lines.push([id, title, date, kind, narrator, `"${summary.replace(/"/g, '""')}"`, row % 3 ? "1920-1930" : "1936"].join(","));
  }
  return lines;
}

const plan = (mapping?: Partial<ImportPlan["mapping"]>): ImportPlan => ({
  sectionSlug: section.slug,
  projectId,
  mapping: {
    externalIdColumn: "ID",
    columns: { Title: "title", "Recorded on": "recordedOn", Kind: "kind", Narrator: "narrator", Summary: "summary", Period: "period" },
    ...mapping,
  },
});

async function recordCount(sectionId = section.id): Promise<number> {
  return db.prisma.record.count({ where: { sectionId } });
}

describe(`bulk import (${testDatabaseMode()})`, () => {
  it("previews the first rows and suggests the mapping from labels, ignoring case and accents", async () => {
    const preview = await previewImport(db.prisma, curator, csvFile(interviewRows("p")), section.slug);
    expect(preview.format).toBe("csv");
    expect(preview.rowCount).toBe(200);
    expect(preview.rows).toHaveLength(10);
    expect(preview.columns).toEqual(header.split(","));
    expect(preview.suggestedMapping).toEqual(plan().mapping);
    expect(preview.problems).toEqual([]);
    expect(preview.ignoredColumns).toEqual([]);
  });

  it("ignores a column that matches no field in the suggestion, says so, and a check of the suggestion goes ahead", async () => {
    const file = csvFile([`${header},Colour`, "c-1,With a colour,1960,letter,,,1960,red"]);
    const preview = await previewImport(db.prisma, curator, file, section.slug);
    expect(preview.ignoredColumns).toEqual(["Colour"]);
    expect(preview.suggestedMapping.columns.Colour).toBeNull();
    const checked = await dryRunImport(db.prisma, curator, file, plan({ columns: preview.suggestedMapping.columns }));
    expect(checked).toMatchObject({ rows: 1, valid: 1, problems: [] });
  });

  it("dry-runs a 200-row file reporting exactly its 5 bad rows, and writes nothing", async () => {
    const auditBefore = await db.prisma.auditEvent.count();
    const result = await dryRunImport(db.prisma, curator, csvFile(interviewRows("a")), plan());
    expect(result.problems.map((problem) => problem.row)).toEqual(badRows);
    expect(result).toMatchObject({ rows: 200, valid: 195, creates: 195, updates: 0, unchanged: 0 });
    const byRow = new Map(result.problems.map((problem) => [problem.row, problem]));
    expect(byRow.get(17)).toMatchObject({ column: "Recorded on", field: "recordedOn" });
    expect(byRow.get(50)?.message).toContain("must be one of");
    // A record the curator cannot read is reported exactly like a missing one.
    expect(byRow.get(90)?.message).toBe(`Narrator: no record titled or numbered “Hidden Person” you can read in ${people.slug}`);
    expect(byRow.get(120)?.message).toContain("repeats row 10");
    expect(byRow.get(160)).toMatchObject({ field: "title", message: "Title is required" });
    expect(await recordCount()).toBe(0);
    expect(await db.prisma.auditEvent.count()).toBe(auditBefore);
    expect(await db.prisma.importJob.count()).toBe(0);
  });

  it("imports the 195 good rows, queues each for indexing, and a second run creates none", async () => {
    const file = csvFile(interviewRows("a"));
    const { jobId, dryRun } = await startImport(db.prisma, curator, file, plan(), { storageDir });
    expect(dryRun.valid).toBe(195);
    expect((await getImportJob(db.prisma, curator, jobId)).status).toBe("queued");
    expect(await runImportJobs(db.prisma, { storageDir, workerId: "test" })).toBe(200);
    const job = await getImportJob(db.prisma, curator, jobId);
    expect(job).toMatchObject({ status: "done", total: 200, processed: 200, created: 195, updated: 0, skipped: 5, error: null });
    expect(job.problems.map((problem) => problem.row)).toEqual(badRows);
    expect(await recordCount()).toBe(195);

    const records = await db.prisma.record.findMany({ where: { sectionId: section.id }, include: { queue: true, linksOut: true } });
    expect(records.every((record) => record.queue.length === 1)).toBe(true);
    const third = records.find((record) => record.externalId === "a-3");
    // Formula-looking cells are kept as the text they are.
    expect((third?.values as Record<string, unknown>).summary).toBe('=HYPERLINK("http://example.test","click")');
    expect((records.find((record) => record.externalId === "a-4")?.values as Record<string, unknown>).summary).toBe('Said "yes"\nand left; twice');
    const fourteenth = records.find((record) => record.externalId === "a-14");
    expect(fourteenth?.linksOut).toHaveLength(2);
    expect(fourteenth?.dateFrom).toBe(1924);
    expect(fourteenth?.values).toMatchObject({ kind: "letter", period: { from: 1920, to: 1930 } });

    const audits = await db.prisma.auditEvent.findMany({ where: { targetId: jobId }, orderBy: { at: "asc" } });
    expect(audits.map((event) => event.action)).toEqual(["import.start", "import.finish"]);
    expect(await db.prisma.auditEvent.count({ where: { action: "record.create", targetId: { in: records.map((record) => record.id) } } })).toBe(195);

    // The same file again: nothing new, nothing changed.
    const again = await startImport(db.prisma, curator, file, plan(), { storageDir });
    expect(again.dryRun).toMatchObject({ creates: 0, updates: 0, unchanged: 195 });
    await runImportJobs(db.prisma, { storageDir, workerId: "test" });
    expect(await getImportJob(db.prisma, curator, again.jobId)).toMatchObject({ status: "done", created: 0, updated: 0, unchanged: 195, skipped: 5 });
    expect(await recordCount()).toBe(195);

    // One summary changed: that record is updated (version bump, re-queued, audited); no duplicate.
    await db.prisma.indexQueueItem.deleteMany({});
    const changed = await startImport(db.prisma, curator, csvFile(interviewRows("a", (row) => (row === 8 ? "A new summary" : `Summary of ${row}`))), plan(), {
      storageDir,
    });
    expect(changed.dryRun).toMatchObject({ creates: 0, updates: 1, unchanged: 194 });
    await runImportJobs(db.prisma, { storageDir, workerId: "test" });
    expect(await getImportJob(db.prisma, curator, changed.jobId)).toMatchObject({ created: 0, updated: 1, unchanged: 194 });
    const eighth = await db.prisma.record.findFirstOrThrow({ where: { sectionId: section.id, externalId: "a-8" }, include: { queue: true } });
    expect(eighth.version).toBe(2);
    expect((eighth.values as Record<string, unknown>).summary).toBe("A new summary");
    expect(eighth.queue).toHaveLength(1);
    expect(await db.prisma.auditEvent.count({ where: { action: "record.update", targetId: eighth.id } })).toBe(1);
    // Its history: the first import's version and the second's, each naming its job and the curator.
    const versions = await db.prisma.recordVersion.findMany({ where: { recordId: eighth.id }, orderBy: { version: "asc" } });
    expect(versions.map((version) => [version.version, version.via, version.details, version.savedById])).toEqual([
      [1, "import", { importJobId: jobId }, curator.userId],
      [2, "import", { importJobId: changed.jobId }, curator.userId],
    ]);
    expect((versions[0]?.values as Record<string, unknown>).summary).toBe("Summary of 8");
    expect(await recordCount()).toBe(195);
  });

  it("resumes a job left running by a crashed worker from its cursor, without duplicates", async () => {
    const crashSection = await createSection(db.prisma, interviewFields(people.slug));
    const rows = [header, ...Array.from({ length: 120 }, (_, index) => `c-${index + 1},Crash ${index + 1},1970,letter,Person 2,Text ${index + 1},1970`)];
    const { jobId } = await startImport(db.prisma, curator, csvFile(rows), { ...plan(), sectionSlug: crashSection.slug }, { storageDir });
    // One batch, then the worker "dies": the job stays running with its claim.
    expect(await runImportJobs(db.prisma, { storageDir, workerId: "crashed", batchSize: 50, maxBatches: 1 })).toBe(50);
    expect(await getImportJob(db.prisma, curator, jobId)).toMatchObject({ status: "running", processed: 50, created: 50 });
    expect(readdirSync(join(storageDir, "imports"))).toContain(jobId);
    expect(await recordCount(crashSection.id)).toBe(50);
    // A live claim is not taken over...
    expect(await runImportJobs(db.prisma, { storageDir, workerId: "other", batchSize: 50 })).toBe(0);
    // ...a stale one is, from the cursor.
    expect(await runImportJobs(db.prisma, { storageDir, workerId: "other", batchSize: 50, staleAfterMs: 0 })).toBe(70);
    expect(await getImportJob(db.prisma, curator, jobId)).toMatchObject({ status: "done", processed: 120, created: 120, skipped: 0 });
    expect(await recordCount(crashSection.id)).toBe(120);
    // The file is kept while the job runs and removed when it is done.
    expect(readdirSync(join(storageDir, "imports"))).not.toContain(jobId);
    expect(await db.prisma.indexQueueItem.count({ where: { record: { sectionId: crashSection.id } } })).toBe(120);
    // The crashed worker coming back finds its claim gone and writes nothing.
    expect(await runImportJobs(db.prisma, { storageDir, workerId: "crashed", batchSize: 50 })).toBe(0);
    expect(await recordCount(crashSection.id)).toBe(120);
  });

  it("writes a job batchSize rows per transaction, each moving the cursor once", async () => {
    // By default the size follows the database: small batches where a transaction holds the web process.
    expect(importBatchRows("embedded")).toBe(50);
    expect(importBatchRows("server")).toBe(200);

    const batchSection = await createSection(db.prisma, interviewFields(people.slug));
    const rows = [header, ...Array.from({ length: 30 }, (_, index) => `b-${index + 1},Batch ${index + 1},1970,letter,Person 2,Text ${index + 1},1970`)];
    const { jobId } = await startImport(db.prisma, curator, csvFile(rows), { ...plan(), sectionSlug: batchSection.slug }, { storageDir });
    expect(await runImportJobs(db.prisma, { storageDir, workerId: "batches", maxBatches: 1, batchSize: 7 })).toBe(7);
    expect(await getImportJob(db.prisma, curator, jobId)).toMatchObject({ status: "running", processed: 7, created: 7 });
    expect(await recordCount(batchSection.id)).toBe(7);
    const cursors: number[] = [];
    expect(await runImportJobs(db.prisma, { storageDir, workerId: "batches", batchSize: 7, onProgress: (job) => cursors.push(job.processed) })).toBe(23);
    expect(cursors).toEqual([14, 21, 28, 30]);
    expect(await getImportJob(db.prisma, curator, jobId)).toMatchObject({ status: "done", processed: 30, created: 30, skipped: 0 });
    const records = await db.prisma.record.findMany({ where: { sectionId: batchSection.id }, select: { id: true } });
    expect(records).toHaveLength(30);
    expect(await db.prisma.auditEvent.count({ where: { action: "record.create", targetId: { in: records.map((record) => record.id) } } })).toBe(30);
    expect(await db.prisma.indexQueueItem.count({ where: { record: { sectionId: batchSection.id } } })).toBe(30);
  });

  it("lets only admins and curators who edit the project import; jobs are their creator's", async () => {
    const file = csvFile(interviewRows("acl"));
    for (const [who, plannedProject] of [
      [curator, hiddenProjectId],
      [researcher, projectId],
      [curator, "no-such-project"],
    ] as const) {
      for (const attempt of [
        dryRunImport(db.prisma, who, file, { ...plan(), projectId: plannedProject }),
        startImport(db.prisma, who, file, { ...plan(), projectId: plannedProject }, { storageDir }),
      ]) {
        expect((await appErrorOf(attempt)).code).toBe("not_found");
      }
    }
    expect((await appErrorOf(previewImport(db.prisma, researcher, file))).code).toBe("not_found");
    // Naming a server folder is for admins only.
    expect((await appErrorOf(dryRunImport(db.prisma, curator, file, { ...plan(), mediaFolder: "scans" }))).code).toBe("not_found");

    const jobs = await listImportJobs(db.prisma, curator);
    expect(jobs.length).toBeGreaterThan(0);
    const [job] = jobs;
    expect((await appErrorOf(getImportJob(db.prisma, otherCurator, job?.id ?? ""))).code).toBe("not_found");
    expect((await appErrorOf(getImportJob(db.prisma, researcher, job?.id ?? ""))).code).toBe("not_found");
    expect(await listImportJobs(db.prisma, otherCurator)).toEqual([]);
    expect((await getImportJob(db.prisma, admin, job?.id ?? "")).id).toBe(job?.id);
    expect(await recordCount()).toBe(195);
  });

  it("refuses a bad file whole, with a message naming the problem, and writes nothing", async () => {
    const before = await db.prisma.importJob.count();
    const latin1 = new Uint8Array([...new TextEncoder().encode(`${header}\r\nx-1,Caf`), 0xe9, ...new TextEncoder().encode(",1960,letter,,,\r\n")]);
    const cases: [ImportFile, ImportPlan, RegExp][] = [
      [{ fileName: "latin1.csv", bytes: latin1 }, plan(), /not UTF-8: byte 58 \(line 2\)/],
      [csvFile([header, "r-1,Only three,1960"]), plan(), /Line 2 \(row 1\) has 3 cells; the header has 7/],
      [csvFile([header]), plan(), /no data rows/],
      [{ fileName: "empty.csv", bytes: new Uint8Array() }, plan(), /empty/],
      [csvFile([`${header},Colour`, "r-1,T,1960,letter,,,1960,red"]), plan(), /"Colour" matches no field/],
      [csvFile([header, "r-1,T,1960,letter,,,1960"]), plan({ columns: { ...plan().mapping.columns, Title: "heading" } }), /"heading", which is not a field/],
    ];
    for (const [file, attemptPlan, message] of cases) {
      const error = await appErrorOf(startImport(db.prisma, curator, file, attemptPlan, { storageDir }));
      expect(error.code).toBe("bad_request");
      expect(error.message).toMatch(message);
    }
    expect(await db.prisma.importJob.count()).toBe(before);
  });

  it("reports an external id held by a record the importer cannot edit, without naming it further", async () => {
    const hidden = await createRecord(db.prisma, section, hiddenProjectId, { title: "Elsewhere" }, systemPrincipal);
    await db.prisma.record.update({ where: { id: hidden.id }, data: { externalId: "taken-1" } });
    const result = await dryRunImport(db.prisma, curator, csvFile([header, "taken-1,Mine,1960,letter,Person 1,,1960"]), plan());
    expect(result.problems).toEqual([{ row: 1, column: "ID", message: "The external id “taken-1” is taken by a record you cannot edit" }]);
    expect(problemsCsv(result.problems)).toBe("row,column,field,message\r\n1,ID,,The external id “taken-1” is taken by a record you cannot edit\r\n");
  });

  it("imports dates as archivists write them, keeps the text, files them by the years they cover, and quotes one it cannot read", async () => {
    const section = await createSection(db.prisma, interviewFields(people.slug));
    const rows = [
      ["d-1", "Approximate", "c. 1850", "1923-05"],
      ["d-2", "Interval", "1850-1860", "1850–1860"],
      ["d-3", "Century", "18th century", "s. XVIII"],
      ["d-4", "Catalan", "cap a 1850", "segle XVIII"],
      ["d-5", "Spanish", "finales del siglo XIX", "hacia 1850"],
      ["d-6", "EDTF", "185X", "1850/.."],
      ["d-7", "Unreadable", "sometime in spring", "1936"],
      ["d-8", "Backwards", "1962", "1930-1920"],
    ];
    const file = csvFile(["ID,Title,Recorded on,Period", ...rows.map((row) => row.join(","))], "dates.csv");
    const datePlan: ImportPlan = {
      sectionSlug: section.slug,
      projectId,
      mapping: { externalIdColumn: "ID", columns: { Title: "title", "Recorded on": "recordedOn", Period: "period" } },
    };
    const checked = await dryRunImport(db.prisma, curator, file, datePlan);
    expect(checked).toMatchObject({ rows: 8, valid: 6 });
    expect(checked.problems).toEqual([
      {
        row: 7,
        column: "Recorded on",
        field: "recordedOn",
        message: 'Recorded on "sometime in spring" could not be read: write 1962, 1962-04-18, c. 1850, 1850/1860 or 18XX',
      },
      { row: 8, column: "Period", field: "period", message: 'Period "1930-1920" starts after it ends' },
    ]);
    const { jobId } = await startImport(db.prisma, curator, file, datePlan, { storageDir });
    await runImportJobs(db.prisma, { storageDir, workerId: "test" });
    expect(await getImportJob(db.prisma, curator, jobId)).toMatchObject({ status: "done", created: 6, skipped: 2 });
    const stored = new Map((await db.prisma.record.findMany({ where: { sectionId: section.id } })).map((record) => [record.externalId, record]));
    const values = (id: string) => stored.get(id)?.values as Record<string, unknown>;
    expect(values("d-1")).toMatchObject({ recordedOn: { edtf: "1850~", text: "c. 1850" }, period: { from: 1923, to: 1923, edtf: "1923-05", text: "1923-05" } });
    expect(values("d-2")).toMatchObject({
      recordedOn: { edtf: "1850/1860", text: "1850-1860" },
      period: { from: 1850, to: 1860, edtf: "1850/1860", text: "1850–1860" },
    });
    expect(values("d-3")).toMatchObject({
      recordedOn: { edtf: "17XX", text: "18th century" },
      period: { from: 1700, to: 1799, edtf: "17XX", text: "s. XVIII" },
    });
    expect(values("d-4")).toMatchObject({ recordedOn: { edtf: "1850~", text: "cap a 1850" }, period: { edtf: "17XX", text: "segle XVIII" } });
    expect(values("d-5")).toMatchObject({ recordedOn: { edtf: "1866/1899", text: "finales del siglo XIX" }, period: { from: 1850, to: 1850, edtf: "1850~" } });
    expect(values("d-6")).toMatchObject({ recordedOn: "185X", period: { from: 1850, to: 1850, edtf: "1850/..", text: "1850/.." } });
    // The record's years (filters, facets, sort) are those the first date field covers.
    expect([stored.get("d-1")?.dateFrom, stored.get("d-1")?.dateTo]).toEqual([1850, 1850]);
    expect([stored.get("d-2")?.dateFrom, stored.get("d-2")?.dateTo]).toEqual([1850, 1860]);
    expect([stored.get("d-3")?.dateFrom, stored.get("d-3")?.dateTo]).toEqual([1700, 1799]);
    expect([stored.get("d-6")?.dateFrom, stored.get("d-6")?.dateTo]).toEqual([1850, 1859]);
    expect(stored.has("d-7")).toBe(false);
    // The same file again changes nothing: a value read once is read the same way.
    const again = await startImport(db.prisma, curator, file, datePlan, { storageDir });
    expect(again.dryRun).toMatchObject({ creates: 0, updates: 0, unchanged: 6 });
  });

  it("imports JSON Lines: relations by external id, date range objects and transcript turns", async () => {
    const target = await createRecord(db.prisma, people, projectId, { title: "Narrator by number" });
    await db.prisma.record.update({ where: { id: target.id }, data: { externalId: "P-7" } });
    const transcriptSection = await createSection(db.prisma, [
      { key: "title", label: "Title", type: "text", required: true },
      { key: "narrator", label: "Narrator", type: "relation", targetSection: people.slug, multiple: true },
      { key: "period", label: "Period", type: "daterange" },
      { key: "transcript", label: "Transcript", type: "transcript" },
    ]);
    const lines = [
      {
        ref: "j-1",
        title: "Turns as JSON",
        narrator: ["P-7", "Person 3"],
        period: { from: 1900, to: 1910 },
        transcript: [{ speaker: "Ada", start: 0, end: 2.5, text: "Hola" }],
      },
      { ref: "j-2", title: "Turns as text", narrator: "P-7", transcript: "[00:00.0 - 00:03.2] Bea: Bon dia\n[00:03.2 - 00:05] Ada: Adéu" },
    ];
    const file = { fileName: "turns.jsonl", bytes: new TextEncoder().encode(lines.map((line) => JSON.stringify(line)).join("\n")) };
    const jsonPlan: ImportPlan = {
      sectionSlug: transcriptSection.slug,
      projectId,
      mapping: { externalIdColumn: "ref", columns: { title: "title", narrator: "narrator", period: "period", transcript: "transcript" } },
    };
    expect((await previewImport(db.prisma, curator, file, transcriptSection.slug)).suggestedMapping).toEqual(jsonPlan.mapping);
    const { jobId, dryRun } = await startImport(db.prisma, curator, file, jsonPlan, { storageDir });
    expect(dryRun.problems).toEqual([]);
    await runImportJobs(db.prisma, { storageDir, workerId: "json" });
    expect((await getImportJob(db.prisma, curator, jobId)).created).toBe(2);
    const saved = await db.prisma.record.findMany({ where: { sectionId: transcriptSection.id }, orderBy: { externalId: "asc" }, include: { linksOut: true } });
    expect(saved.map((record) => record.values)).toEqual([
      {
        title: "Turns as JSON",
        narrator: [target.id, expect.any(String)],
        period: { from: 1900, to: 1910 },
        transcript: [{ speaker: "Ada", start: 0, end: 2.5, text: "Hola" }],
      },
      {
        title: "Turns as text",
        narrator: [target.id],
        transcript: [
          { speaker: "Bea", start: 0, end: 3.2, text: "Bon dia" },
          { speaker: "Ada", start: 3.2, end: 5, text: "Adéu" },
        ],
      },
    ]);
    expect(saved.map((record) => record.linksOut.length)).toEqual([2, 1]);
  });

  it("takes image files from an admin's media folder under the configured root, and nothing outside it", async () => {
    const root = mkdtempSync(join(tmpdir(), "mnemo-import-root-"));
    mkdirSync(join(root, "scans"));
    writeFileSync(join(root, "scans", "front.png"), await pngBytes());
    writeFileSync(join(root, "scans", "notes.txt"), "not an image");
    writeFileSync(join(root, "secret.png"), await pngBytes());
    symlinkSync(join(root, "secret.png"), join(root, "scans", "link.png"));
    symlinkSync("/etc", join(root, "scans", "outside"));
    const previous = { root: process.env.MNEMO_IMPORT_MEDIA_ROOT, storage: process.env.MNEMO_STORAGE_DIR };
    process.env.MNEMO_IMPORT_MEDIA_ROOT = root;
    process.env.MNEMO_STORAGE_DIR = storageDir;
    resetConfig();
    try {
      const photos = await createSection(db.prisma, [
        { key: "title", label: "Title", type: "text", required: true },
        { key: "photo", label: "Photo", type: "image", view: "front" },
      ]);
      const file = csvFile([
        "ref,title,photo",
        "m-1,Good,front.png",
        "m-2,Missing,absent.png",
        "m-3,Text,notes.txt",
        "m-4,Escape,../secret.png",
        "m-5,Linked out,link.png",
      ]);
      const mediaPlan: ImportPlan = {
        sectionSlug: photos.slug,
        projectId,
        mapping: { externalIdColumn: "ref", columns: { title: "title", photo: "photo" } },
        mediaFolder: "scans",
      };
      const dryRun = await dryRunImport(db.prisma, admin, file, mediaPlan);
      expect(dryRun.problems.map((problem) => [problem.row, problem.message])).toEqual([
        [2, "Photo names the file “absent.png”, which is not in the media folder"],
        [3, "Photo names “notes.txt”, which is not an image Mnemo can store"],
        [4, "Photo names “../secret.png”, which is not a plain file name"],
        [5, "Photo names the file “link.png”, which is not in the media folder"],
      ]);
      expect(await db.prisma.media.count({ where: { projectId } })).toBe(0);
      for (const folder of ["../", "outside-root", "scans/../..", "/etc", "scans/outside"]) {
        const error = await appErrorOf(dryRunImport(db.prisma, admin, file, { ...mediaPlan, mediaFolder: folder }));
        expect(error.code).toBe("bad_request");
      }
      // Without a folder, a file name in an image column is a row problem, not a guess.
      expect(
        (await dryRunImport(db.prisma, admin, csvFile(["ref,title,photo", "m-9,Good,front.png"]), { ...mediaPlan, mediaFolder: undefined })).problems[0]
          ?.message,
      ).toBe("Photo names a file, but the import has no media folder or media zip");
      const { jobId } = await startImport(db.prisma, admin, file, mediaPlan, { storageDir });
      await runImportJobs(db.prisma, { storageDir, workerId: "media" });
      expect(await getImportJob(db.prisma, admin, jobId)).toMatchObject({ created: 1, skipped: 4 });
      const record = await db.prisma.record.findFirstOrThrow({ where: { sectionId: photos.id }, include: { media: true } });
      expect(record.media).toHaveLength(1);
      expect(record.media[0]).toMatchObject({ fieldKey: "photo", view: "front", kind: "image", originalName: "front.png" });
      expect((record.values as Record<string, unknown>).photo).toBe(record.media[0]?.id);
      // Only the stored file of the imported row remains: nothing orphaned.
      expect(await db.prisma.media.count({ where: { projectId, recordId: null } })).toBe(0);
    } finally {
      if (previous.root === undefined) delete process.env.MNEMO_IMPORT_MEDIA_ROOT;
      else process.env.MNEMO_IMPORT_MEDIA_ROOT = previous.root;
      if (previous.storage === undefined) delete process.env.MNEMO_STORAGE_DIR;
      else process.env.MNEMO_STORAGE_DIR = previous.storage;
      resetConfig();
    }
  });

  it("runs queued jobs in the background loop, and fails a job whose importer lost the project", async () => {
    const loopSection = await createSection(db.prisma, interviewFields(people.slug));
    const rows = [header, ...Array.from({ length: 30 }, (_, index) => `l-${index + 1},Loop ${index + 1},1970,letter,Person 2,,1970`)];
    const loopPlan = { ...plan(), sectionSlug: loopSection.slug };
    const { jobId } = await startImport(db.prisma, curator, csvFile(rows), loopPlan, { storageDir });
    process.env.MNEMO_STORAGE_DIR = storageDir;
    resetConfig();
    const controller = new AbortController();
    const loop = runImportLoop(db.prisma, { signal: controller.signal, idleMs: 20 });
    try {
      for (let wait = 0; wait < 600 && (await getImportJob(db.prisma, curator, jobId)).status !== "done"; wait++)
        await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      controller.abort();
      await loop;
      delete process.env.MNEMO_STORAGE_DIR;
      resetConfig();
    }
    expect(await getImportJob(db.prisma, curator, jobId)).toMatchObject({ status: "done", created: 30 });

    const user = await createUser(db.prisma, { role: "curator" });
    await addMember(db.prisma, user.id, projectId, "editor");
    const leaving = await principalOf(db.prisma, user.id);
    const second = await startImport(db.prisma, leaving, csvFile(rows.map((line) => line.replace(/^l-/, "m-"))), loopPlan, { storageDir });
    await db.prisma.membership.deleteMany({ where: { userId: user.id } });
    await runImportJobs(db.prisma, { storageDir, workerId: "loop" });
    expect(await getImportJob(db.prisma, leaving, second.jobId)).toMatchObject({
      status: "failed",
      created: 0,
      error: "The person who started this import may no longer edit the project.",
    });
    expect(await recordCount(loopSection.id)).toBe(30);
  });
});
