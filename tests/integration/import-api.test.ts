import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "../../lib/acl";
import type { FieldDefinition } from "../../lib/archive/field-definitions";
import { runImportJobs } from "../../lib/archive/import";
import { importBodyLimit } from "../../lib/api/operations/create-import";
import { createApiToken } from "../../lib/auth/api-tokens";
import type { ActionResult } from "../../lib/action-result";
import { resetConfig } from "../../lib/config";
import type { Database } from "../../lib/db/database";
import { csvDownload } from "../../lib/http/csv-download";
import { dryRunImportUpload, dryRunProblemsCsv, previewImportUpload, startImportUpload } from "../../lib/http/import-upload";
import { readFormData } from "../../lib/http/request-body";
import { runAuthorizedAction } from "../../lib/http/run-authorized";
import { callApi } from "../support/api-request";
import { addMember, createProject, createSection, createUser, principalOf, temporaryStorageDir, writeTokenWithoutEditRights } from "../support/factories";
import { apiDepsWithoutModels } from "../support/service-runtime";
import { openTestDatabase, testDatabaseMode } from "../support/test-database";

/**
 * Imports over the JSON API (POST /api/v1/imports, GET /api/v1/imports/{id}) and through the
 * /import page's actions and downloads, both over the one import service: a write token dry-runs
 * and imports; a read token is refused whatever it aims at; a curator of another project, a
 * researcher and a missing project get the same not-found; another user's job is not found like
 * a missing one. The service's own rules (rows, types, resuming) are in bulk-import.test.ts.
 */
const origin = "http://mnemo.test";
const fixtures = join(__dirname, "..", "fixtures", "import");
const placesCsv = readFileSync(join(fixtures, "places.csv"), "utf8");
const latin1Csv = readFileSync(join(fixtures, "places-latin1.csv"));

/** The demo's places section, as the e2e spec imports into it. */
const placeFields: FieldDefinition[] = [
  { key: "name", label: "Name", type: "text", required: true, listed: true },
  { key: "kind", label: "Kind", type: "category", options: ["village", "town", "harbour", "mine", "reservoir", "river"], listed: true },
  { key: "coordinates", label: "Coordinates", type: "text" },
  { key: "description", label: "Description", type: "longtext" },
];

let db: Database;
/** The job files go to a directory of this test's own: the API and the worker read MNEMO_STORAGE_DIR. */
const previousStorageDir = process.env.MNEMO_STORAGE_DIR;
let sectionSlug: string;
let sectionId: string;
let projectId: string;
let otherProjectId: string;
const people: Record<"admin" | "curator" | "otherCurator" | "researcher", Principal> = {} as never;
const tokens = { curatorWrite: "", curatorRead: "", otherCuratorWrite: "", researcherWrite: "", adminWrite: "" };

const deps = () => apiDepsWithoutModels(db, origin);

async function api(name: string, token: string, input: Record<string, unknown>, options: { headers?: Record<string, string>; rawBody?: string } = {}) {
  const response = await callApi(deps(), name, input, { origin, token, ...options });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    json: JSON.parse(text) as Record<string, unknown> & { error?: { code: string; message: string; fieldErrors?: Record<string, string[]> } },
  };
}

const importInput = (overrides: Record<string, unknown> = {}) => ({
  sectionSlug,
  projectId,
  format: "csv",
  content: placesCsv,
  fileName: "places.csv",
  ...overrides,
});

async function countRows(): Promise<{ records: number; jobs: number }> {
  return { records: await db.prisma.record.count({ where: { sectionId } }), jobs: await db.prisma.importJob.count() };
}

/** The page's form, as the browser sends it. */
function pageForm(entries: { file?: File; sectionSlug?: string; plan?: unknown }): FormData {
  const form = new FormData();
  if (entries.file) form.set("file", entries.file);
  if (entries.sectionSlug !== undefined) form.set("sectionSlug", entries.sectionSlug);
  if (entries.plan !== undefined) form.set("plan", typeof entries.plan === "string" ? entries.plan : JSON.stringify(entries.plan));
  return form;
}

const placesFile = () => new File([placesCsv], "places.csv", { type: "text/csv" });
const pagePlan = (project = projectId) => ({
  sectionSlug,
  projectId: project,
  mapping: { externalIdColumn: "ID", columns: { Name: "name", Kind: "kind", Coordinates: "coordinates", Description: "description" } },
});

/** A page action as its wrapper runs it, signed in as `principal`. */
function pageAction<T>(principal: Principal | null, step: (form: FormData, principal: Principal) => Promise<T>) {
  return (form: FormData): Promise<ActionResult<T>> =>
    runAuthorizedAction(
      z.instanceof(FormData),
      (parsed, context) => step(parsed, context.principal),
      async () => principal,
      form,
    );
}
const preview = (principal: Principal | null) => pageAction(principal, (form, signedIn) => previewImportUpload(db.prisma, signedIn, form));
const dryRun = (principal: Principal | null) => pageAction(principal, (form, signedIn) => dryRunImportUpload(db.prisma, signedIn, form));
const start = (principal: Principal | null) => pageAction(principal, (form, signedIn) => startImportUpload(db.prisma, signedIn, form));

beforeAll(async () => {
  process.env.MNEMO_STORAGE_DIR = temporaryStorageDir();
  resetConfig();
  db = await openTestDatabase();
  const section = await createSection(db.prisma, placeFields);
  sectionSlug = section.slug;
  sectionId = section.id;
  projectId = (await createProject(db.prisma)).id;
  otherProjectId = (await createProject(db.prisma)).id;
  const curator = await createUser(db.prisma, { role: "curator" });
  await addMember(db.prisma, curator.id, projectId, "editor");
  const otherCurator = await createUser(db.prisma, { role: "curator" });
  await addMember(db.prisma, otherCurator.id, otherProjectId, "editor");
  await addMember(db.prisma, otherCurator.id, projectId, "reader");
  const researcher = await createUser(db.prisma, { role: "researcher" });
  await addMember(db.prisma, researcher.id, projectId, "reader");
  people.admin = await principalOf(db.prisma, (await createUser(db.prisma, { role: "admin" })).id);
  people.curator = await principalOf(db.prisma, curator.id);
  people.otherCurator = await principalOf(db.prisma, otherCurator.id);
  people.researcher = await principalOf(db.prisma, researcher.id);
  const write = { expiresInDays: 30, scopes: ["read", "write"] };
  tokens.curatorWrite = (await createApiToken(db.prisma, people.curator, { name: "importer", ...write })).token;
  tokens.curatorRead = (await createApiToken(db.prisma, people.curator, { name: "reader", expiresInDays: 30 })).token;
  tokens.otherCuratorWrite = (await createApiToken(db.prisma, people.otherCurator, { name: "other importer", ...write })).token;
  tokens.researcherWrite = await writeTokenWithoutEditRights(db.prisma, people.researcher, "researcher importer");
  tokens.adminWrite = (await createApiToken(db.prisma, people.admin, { name: "admin importer", ...write })).token;
}, 60_000);

afterAll(async () => {
  await db?.close();
  if (previousStorageDir === undefined) delete process.env.MNEMO_STORAGE_DIR;
  else process.env.MNEMO_STORAGE_DIR = previousStorageDir;
  resetConfig();
});

describe(`POST /api/v1/imports and GET /api/v1/imports/{id} (${testDatabaseMode()})`, () => {
  it("dry-runs with a write token: the suggested mapping, the counts and the bad row, nothing written", async () => {
    const before = await countRows();
    const response = await api("create_import", tokens.curatorWrite, importInput({ dryRun: true }));
    expect(response.status, response.text).toBe(200);
    expect(response.json).toMatchObject({
      dryRun: true,
      jobId: null,
      jobUrl: null,
      mapping: { externalIdColumn: "ID", columns: { Name: "name", Kind: "kind", Coordinates: "coordinates", Description: "description" } },
      result: { rows: 4, valid: 3, creates: 3, updates: 0, unchanged: 0 },
    });
    const problems = (response.json.result as { problems: { row: number; column?: string; field?: string; message: string }[] }).problems;
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ row: 3, column: "Kind", field: "kind" });
    expect(problems[0]!.message).toMatch(/volcano/);
    expect(await countRows()).toEqual(before);
  });

  it("imports with a write token: a job the worker runs, followed to done; the second run creates nothing", async () => {
    const started = await api("create_import", tokens.curatorWrite, importInput());
    expect(started.status, started.text).toBe(200);
    const jobId = started.json.jobId as string;
    expect(started.json).toMatchObject({ dryRun: false, jobUrl: `${origin}/api/v1/imports/${jobId}`, result: { valid: 3, creates: 3 } });
    const queued = await api("get_import", tokens.curatorWrite, { jobId });
    expect(queued.json).toMatchObject({ id: jobId, status: "queued", total: 4, processed: 0, sectionSlug, projectId, fileName: "places.csv" });

    await runImportJobs(db.prisma);
    const done = await api("get_import", tokens.curatorWrite, { jobId });
    expect(done.status).toBe(200);
    expect(done.json).toMatchObject({
      status: "done",
      total: 4,
      processed: 4,
      created: 3,
      updated: 0,
      skipped: 1,
      error: null,
      url: `${origin}/api/v1/imports/${jobId}`,
    });
    expect(done.json.recordsUrl).toBe(`${origin}/records?${new URLSearchParams({ section: sectionSlug, project: projectId })}`);
    expect((done.json.problems as { row: number }[]).map((problem) => problem.row)).toEqual([3]);
    expect(await db.prisma.record.count({ where: { sectionId, projectId } })).toBe(3);

    const again = await api("create_import", tokens.curatorWrite, importInput());
    expect(again.json).toMatchObject({ result: { valid: 3, creates: 0 } });
    await runImportJobs(db.prisma);
    const second = await api("get_import", tokens.curatorWrite, { jobId: again.json.jobId as string });
    expect(second.json).toMatchObject({ status: "done", created: 0, skipped: 1 });
    expect(await db.prisma.record.count({ where: { sectionId, projectId } })).toBe(3);
  });

  it("takes JSON and JSON Lines as text with their format, and an explicit mapping", async () => {
    const rows = [
      { ref: "json-1", title: "Riu Sec", type: "river", extra: "ignored" },
      { ref: "json-2", title: "Mina Vella", type: "mine", extra: "ignored" },
    ];
    const mapping = { externalIdColumn: "ref", columns: { title: "name", type: "kind", extra: null } };
    for (const [format, content] of [
      ["json", JSON.stringify(rows)],
      ["jsonl", rows.map((row) => JSON.stringify(row)).join("\n")],
    ] as const) {
      const response = await api("create_import", tokens.curatorWrite, importInput({ format, content, fileName: "rivers.txt", mapping, dryRun: true }));
      expect(response.status, `${format}: ${response.text}`).toBe(200);
      expect(response.json.result, format).toMatchObject({ rows: 2, valid: 2, problems: [] });
    }
  });

  it("refuses a read token on both operations with the same 403, whatever the target, writing nothing", async () => {
    const before = await countRows();
    const answers = [
      await api("create_import", tokens.curatorRead, importInput()),
      await api("create_import", tokens.curatorRead, importInput({ projectId: randomUUID() })),
      await api("create_import", tokens.curatorRead, importInput({ projectId: otherProjectId, content: "" })),
      await api("get_import", tokens.curatorRead, { jobId: randomUUID() }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(403);
      expect(answer.json.error?.code).toBe("insufficient_scope");
      expect(answer.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
    }
    expect(answers[1]!.text).toBe(answers[0]!.text);
    expect(answers[2]!.text).toBe(answers[0]!.text);
    expect(await countRows()).toEqual(before);
  });

  it("gives a curator of another project, a researcher and a missing project the same not-found", async () => {
    const before = await countRows();
    const missing = await api("create_import", tokens.curatorWrite, importInput({ projectId: randomUUID(), dryRun: true }));
    expect(missing.status).toBe(404);
    for (const [who, token] of [
      ["curator of another project", tokens.otherCuratorWrite],
      ["researcher", tokens.researcherWrite],
    ] as const) {
      for (const dry of [true, false]) {
        const denied = await api("create_import", token, importInput({ dryRun: dry }));
        expect(denied.status, who).toBe(404);
        expect(denied.text, who).toBe(missing.text);
      }
    }
    // The other curator may import into the project they edit.
    expect((await api("create_import", tokens.otherCuratorWrite, importInput({ projectId: otherProjectId, dryRun: true }))).status).toBe(200);
    expect(await countRows()).toEqual(before);
  });

  it("answers another user's job exactly like a missing one; admins see it", async () => {
    const started = await api("create_import", tokens.curatorWrite, importInput());
    const jobId = started.json.jobId as string;
    const theirs = await api("get_import", tokens.otherCuratorWrite, { jobId });
    const missing = await api("get_import", tokens.otherCuratorWrite, { jobId: randomUUID() });
    const malformed = await api("get_import", tokens.otherCuratorWrite, { jobId: "../../etc" });
    expect(theirs.status).toBe(404);
    expect(theirs.text).toBe(missing.text);
    expect(malformed.text).toBe(missing.text);
    expect((await api("get_import", tokens.adminWrite, { jobId })).json).toMatchObject({ id: jobId, fileName: "places.csv" });
    await runImportJobs(db.prisma);
  });

  it("names bad files and bad input clearly, and writes nothing", async () => {
    const before = await countRows();
    const ragged = await api("create_import", tokens.curatorWrite, importInput({ content: "ID,Name,Kind\r\na,b\r\n", dryRun: true }));
    expect(ragged.status).toBe(400);
    expect(ragged.json.error?.message).toMatch(/line 2/i);
    const format = await api("create_import", tokens.curatorWrite, importInput({ format: "xlsx" }));
    expect(format.status).toBe(400);
    expect(format.json.error?.fieldErrors?.format).toEqual(["The format is csv, json, jsonl or xml."]);
    const notJson = await api("create_import", tokens.curatorWrite, {}, { rawBody: "ID,Name\r\n1,2" });
    expect(notJson.status).toBe(400);
    expect(notJson.json.error?.message).toMatch(/not valid JSON/);
    const unmapped = await api("create_import", tokens.curatorWrite, importInput({ mapping: { columns: { Name: "name" } }, dryRun: true }));
    expect(unmapped.status).toBe(400);
    expect(unmapped.json.error?.message).toMatch(/"Kind"/);
    expect(await countRows()).toEqual(before);
  });

  it("takes a body over the JSON API's 256 KiB up to its own limit, tied to MNEMO_IMPORT_MAX_BYTES and MNEMO_IMPORT_MAX_ZIP_BYTES, and refuses one declared over it unread", async () => {
    const many = ["ID,Name,Kind"];
    for (let row = 1; many.join("\r\n").length < 300 * 1024; row++) many.push(`bulk-${row},Place number ${row} on the long list of places,village`);
    const large = await api(
      "create_import",
      tokens.curatorWrite,
      importInput({ content: `${many.join("\r\n")}\r\n`, mapping: { externalIdColumn: "ID", columns: { Name: "name", Kind: "kind" } }, dryRun: true }),
    );
    expect(large.status, large.text.slice(0, 300)).toBe(200);
    expect(large.json.result).toMatchObject({ rows: many.length - 1, valid: many.length - 1 });

    const limit = importBodyLimit();
    // The file twice (JSON escaping), the zip in base64, 64 KiB for the plan.
    expect(limit).toBe(importBodyLimit(50 * 1024 * 1024, 40 * 1024 * 1024));
    expect(limit).toBe(2 * 50 * 1024 * 1024 + Math.ceil((40 * 1024 * 1024) / 3) * 4 + 64 * 1024);
    const declared = await api("create_import", tokens.curatorWrite, importInput({ dryRun: true }), { headers: { "content-length": String(limit + 1) } });
    expect(declared.status).toBe(413);
    expect(declared.json.error?.code).toBe("payload_too_large");
    expect(declared.json.error?.message).toBe("The request body can be at most 153.4 MB.");
    // The other operations keep the JSON API's 256 KiB.
    const search = await api("semantic_search", tokens.curatorWrite, {}, { rawBody: JSON.stringify({ query: "x".repeat(300 * 1024) }) });
    expect(search.status).toBe(413);
  });
});

describe(`the /import page's actions and downloads (${testDatabaseMode()})`, () => {
  it("previews, dry-runs and starts an import for a curator who edits the project", async () => {
    const previewed = await preview(people.curator)(pageForm({ file: placesFile(), sectionSlug }));
    expect(previewed.status).toBe("ok");
    if (previewed.status !== "ok") return;
    expect(previewed.data).toMatchObject({ format: "csv", columns: ["ID", "Name", "Kind", "Coordinates", "Description"], rowCount: 4 });
    expect(previewed.data.rows[0]).toEqual(["import-place-1", "Molí de la Riera", "village", "41.95 N, 1.82 E", "A mill village above the reservoir."]);
    expect(previewed.data.suggestedMapping).toEqual(pagePlan().mapping);

    const checked = await dryRun(people.curator)(pageForm({ file: placesFile(), plan: pagePlan() }));
    expect(checked).toMatchObject({ status: "ok", data: { rows: 4, valid: 3, problems: [{ row: 3, column: "Kind", field: "kind" }] } });

    const before = await db.prisma.importJob.count();
    const started = await start(people.admin)(pageForm({ file: placesFile(), plan: pagePlan() }));
    expect(started).toMatchObject({ status: "ok", data: { dryRun: { valid: 3 } } });
    expect(await db.prisma.importJob.count()).toBe(before + 1);
    await runImportJobs(db.prisma);
  });

  it("gives a researcher not-found on every step, and a curator of another project not-found for that project", async () => {
    const before = await countRows();
    for (const step of [preview, dryRun, start]) {
      const answer = await step(people.researcher)(pageForm({ file: placesFile(), sectionSlug, plan: pagePlan() }));
      expect(answer).toMatchObject({ status: "error", code: "not_found", message: "Not found." });
    }
    for (const step of [dryRun, start]) {
      const denied = await step(people.otherCurator)(pageForm({ file: placesFile(), plan: pagePlan(projectId) }));
      const missing = await step(people.otherCurator)(pageForm({ file: placesFile(), plan: pagePlan(randomUUID()) }));
      expect(denied).toMatchObject({ status: "error", code: "not_found" });
      expect(denied).toEqual(missing);
    }
    expect(await start(null)(pageForm({ file: placesFile(), plan: pagePlan() }))).toMatchObject({ status: "error", code: "unauthorized" });
    expect(await countRows()).toEqual(before);
  });

  it("says clearly what is wrong with the upload", async () => {
    const curatorPreview = preview(people.curator);
    expect(await curatorPreview(pageForm({ sectionSlug }))).toMatchObject({
      status: "error",
      code: "bad_request",
      fieldErrors: { file: ["Choose a CSV, JSON, JSON Lines or XML file."] },
    });
    expect(await curatorPreview(pageForm({ file: new File([], "empty.csv"), sectionSlug }))).toMatchObject({ status: "error", message: "The file is empty." });
    const latin1 = await curatorPreview(pageForm({ file: new File([latin1Csv], "places-latin1.csv"), sectionSlug }));
    expect(latin1).toMatchObject({ status: "error", code: "bad_request" });
    expect(latin1.status === "error" && latin1.message).toMatch(/not UTF-8: byte \d+ \(line 2\).*Save it as UTF-8/);
    const tooLarge = await curatorPreview(pageForm({ file: new File([new Uint8Array(50 * 1024 * 1024 + 1)], "huge.csv"), sectionSlug }));
    expect(tooLarge).toMatchObject({
      status: "error",
      code: "payload_too_large",
      message: "The file is 50.0 MB; imports are limited to 50.0 MB. Split it into smaller files.",
    });
    const badPlan = await dryRun(people.curator)(pageForm({ file: placesFile(), plan: "{not json" }));
    expect(badPlan).toMatchObject({ status: "error", code: "bad_request", fieldErrors: { plan: ["Send the section, project and mapping as a JSON object."] } });
    const nul = await dryRun(people.curator)(pageForm({ file: placesFile(), plan: { ...pagePlan(), sectionSlug: "a\u0000b" } }));
    expect(nul).toMatchObject({ status: "error", code: "bad_request", fieldErrors: { sectionSlug: [expect.stringMatching(/cannot be stored/)] } });
  });

  it("downloads a dry run's problems as a formula-safe CSV attachment, through a bounded form read", async () => {
    const hostile = `${placesCsv}import-place-5,=SUM(1+1),=1+1,,\r\n`;
    const request = new Request(`${origin}/api/import-problems`, {
      method: "POST",
      body: pageForm({ file: new File([hostile], "places (2).csv"), plan: pagePlan() }),
    });
    const form = await readFormData(request, 1024 * 1024);
    const { csv, fileName } = await dryRunProblemsCsv(db.prisma, people.curator, form);
    expect(fileName).toBe("places-2-problems.csv");
    const lines = csv.trimEnd().split("\r\n");
    expect(lines[0]).toBe("row,column,field,message");
    expect(lines[1]).toMatch(/^3,Kind,kind,/);
    expect(lines[2]).toMatch(/^5,Kind,kind,/);
    // A problem quoting a formula cell never starts a cell with "=".
    expect(lines.slice(1).every((line) => !/(^|,)"?[=+@-]/.test(line))).toBe(true);
    const response = csvDownload(csv, fileName);
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="places-2-problems.csv"');
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");

    const tooLarge = new Request(`${origin}/api/import-problems`, { method: "POST", body: pageForm({ file: placesFile(), plan: pagePlan() }) });
    await expect(readFormData(tooLarge, 100)).rejects.toMatchObject({ code: "payload_too_large" });
    const researcherAnswer = await dryRunProblemsCsv(
      db.prisma,
      people.researcher,
      await readFormData(new Request(`${origin}/x`, { method: "POST", body: pageForm({ file: placesFile(), plan: pagePlan() }) }), 1024 * 1024),
    ).catch((error: unknown) => error);
    expect(researcherAnswer).toMatchObject({ code: "not_found" });
  });
});
