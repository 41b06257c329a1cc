import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "../../lib/acl";
import type { ActionResult } from "../../lib/action-result";
import { dryRunImport, getImportJob, previewImport, runImportJobs, startImport, type ImportFile, type ImportPlan } from "../../lib/archive/import";
import { sweepImportFiles } from "../../lib/archive/import/import-jobs";
import type { MediaZipLimits } from "../../lib/archive/import/zip-media";
import { createApiToken } from "../../lib/auth/api-tokens";
import { resetConfig } from "../../lib/config";
import type { Database } from "../../lib/db/database";
import { dryRunImportUpload, startImportUpload } from "../../lib/http/import-upload";
import { runAuthorizedAction } from "../../lib/http/run-authorized";
import { museumObjectSection } from "../../prisma/seed/museum-objects";
import { callApi } from "../support/api-request";
import { appErrorOf } from "../support/app-error-of";
import { addMember, createProject, createSection, createUser, pngBytes, principalOf, temporaryStorageDir } from "../support/factories";
import { apiDepsWithoutModels } from "../support/service-runtime";
import { openTestDatabase, testDatabaseMode } from "../support/test-database";
import { writeZip, type ZipEntryInput } from "../support/zip-writer";

/**
 * Media by file name from a zip uploaded with the import (issue 18): the same cell checks as a
 * server folder, through the service, the /import page's actions and the JSON API. The zip is
 * read in memory and refused whole when it is not a zip or breaks a safety rule; a job keeps it
 * under the storage directory until it ends. The zip reader's own cases are in read-zip.test.ts.
 */
const origin = "http://mnemo.test";
const previousEnv = { ...process.env };
let db: Database;
let storageDir: string;
let projectId: string;
let otherProjectId: string;
let section: { id: string; slug: string };
let curator: Principal;
let otherCurator: Principal;
let png: Uint8Array;

/** A WAV header and a little silence: enough for Mnemo to recognise audio. */
function wavBytes(): Uint8Array {
  const samples = 800;
  const bytes = Buffer.alloc(44 + samples * 2);
  bytes.write("RIFF", 0, "ascii");
  bytes.writeUInt32LE(36 + samples * 2, 4);
  bytes.write("WAVEfmt ", 8, "ascii");
  bytes.writeUInt32LE(16, 16);
  bytes.writeUInt16LE(1, 20);
  bytes.writeUInt16LE(1, 22);
  bytes.writeUInt32LE(8000, 24);
  bytes.writeUInt32LE(16000, 28);
  bytes.writeUInt16LE(2, 32);
  bytes.writeUInt16LE(16, 34);
  bytes.write("data", 36, "ascii");
  bytes.writeUInt32LE(samples * 2, 40);
  return new Uint8Array(bytes);
}

function csvFile(lines: string[]): ImportFile {
  return { fileName: "photos.csv", bytes: new TextEncoder().encode(`${lines.join("\r\n")}\r\n`) };
}

const zipFile = (entries: ZipEntryInput[], fileName = "media.zip"): ImportFile => ({ fileName, bytes: writeZip(entries) });

const plan = (project = projectId): ImportPlan => ({
  sectionSlug: section.slug,
  projectId: project,
  mapping: { externalIdColumn: "ref", columns: { title: "title", photo: "photo", recording: "recording" } },
});

/** The zip most tests import: a photo at the root, one in a folder, a recording, and two files that share a name. */
function collectionZip(): ImportFile {
  return zipFile([
    { name: "front.png", bytes: png },
    { name: "scans/", bytes: "" },
    { name: "scans/back.png", bytes: png, method: "store" },
    { name: "audio/tape-1.wav", bytes: wavBytes() },
    { name: "notes.txt", bytes: "not an image" },
    { name: "a/same.png", bytes: png },
    { name: "b/same.png", bytes: png },
  ]);
}

/** Everything an import could have left behind: records, media, stored files and staged job files. */
async function leftovers() {
  const importsDir = join(storageDir, "imports");
  return {
    records: await db.prisma.record.count({ where: { sectionId: section.id } }),
    media: await db.prisma.media.count(),
    jobs: await db.prisma.importJob.count(),
    staged: existsSync(importsDir) ? readdirSync(importsDir).length : 0,
  };
}

beforeAll(async () => {
  storageDir = temporaryStorageDir();
  process.env.MNEMO_STORAGE_DIR = storageDir;
  resetConfig();
  db = await openTestDatabase();
  png = await pngBytes();
  projectId = (await createProject(db.prisma)).id;
  otherProjectId = (await createProject(db.prisma)).id;
  section = await createSection(db.prisma, [
    { key: "title", label: "Title", type: "text", required: true },
    { key: "photo", label: "Photo", type: "image", view: "front" },
    { key: "recording", label: "Recording", type: "media", mediaKind: "audio" },
  ]);
  const curatorUser = await createUser(db.prisma, { role: "curator" });
  await addMember(db.prisma, curatorUser.id, projectId, "editor");
  curator = await principalOf(db.prisma, curatorUser.id);
  const otherUser = await createUser(db.prisma, { role: "curator" });
  await addMember(db.prisma, otherUser.id, otherProjectId, "editor");
  await addMember(db.prisma, otherUser.id, projectId, "reader");
  otherCurator = await principalOf(db.prisma, otherUser.id);
});

afterEach(() => {
  if (previousEnv.MNEMO_IMPORT_MAX_ZIP_BYTES === undefined) delete process.env.MNEMO_IMPORT_MAX_ZIP_BYTES;
  else process.env.MNEMO_IMPORT_MAX_ZIP_BYTES = previousEnv.MNEMO_IMPORT_MAX_ZIP_BYTES;
  resetConfig();
});

afterAll(async () => {
  await db.close();
  if (previousEnv.MNEMO_STORAGE_DIR === undefined) delete process.env.MNEMO_STORAGE_DIR;
  else process.env.MNEMO_STORAGE_DIR = previousEnv.MNEMO_STORAGE_DIR;
  resetConfig();
});

describe(`media from an uploaded zip (${testDatabaseMode()})`, () => {
  it("dry-runs: files found by path or unique name; missing, wrong-kind and ambiguous files reported per row and field; nothing written", async () => {
    const before = await leftovers();
    const file = csvFile([
      "ref,title,photo,recording",
      "z-1,Root name,front.png,audio/tape-1.wav",
      "z-2,Bare name in a folder,back.png,tape-1.wav",
      "z-3,Path,scans/back.png,",
      "z-4,Missing,absent.png,",
      "z-5,Wrong kind,notes.txt,front.png",
      "z-6,Ambiguous,same.png,",
      "z-7,Climbing,../front.png,",
    ]);
    const result = await dryRunImport(db.prisma, curator, file, plan(), { mediaZip: collectionZip() });
    expect(result).toMatchObject({ rows: 7, valid: 3, creates: 3 });
    expect(result.problems).toEqual([
      { row: 4, column: "photo", field: "photo", message: "Photo names the file “absent.png”, which is not in the zip" },
      { row: 5, column: "photo", field: "photo", message: "Photo names “notes.txt”, which is not an image Mnemo can store" },
      { row: 5, column: "recording", field: "recording", message: "Recording names “front.png”, which is not an audio file Mnemo can store" },
      {
        row: 6,
        column: "photo",
        field: "photo",
        message: "Photo names “same.png”, which is in the zip 2 times (a/same.png, b/same.png); give its path inside the zip",
      },
      { row: 7, column: "photo", field: "photo", message: "Photo names the file “../front.png”, which is not in the zip" },
    ]);
    expect(await leftovers()).toEqual(before);
  });

  it("imports the rows' files from the staged zip, which outlives a crashed worker and goes when the job is done", async () => {
    const file = csvFile(["ref,title,photo,recording", "i-1,First,front.png,tape-1.wav", "i-2,Second,scans/back.png,", "i-3,Missing,absent.png,"]);
    const before = await leftovers();
    const { jobId, dryRun } = await startImport(db.prisma, curator, file, plan(), { storageDir, mediaZip: collectionZip() });
    expect(dryRun).toMatchObject({ valid: 2, problems: [{ row: 3 }] });
    const staged = join(storageDir, "imports", `${jobId}.media.zip`);
    expect(existsSync(staged)).toBe(true);
    // The first worker writes one batch and stops (a crash); the zip stays for the next one.
    await runImportJobs(db.prisma, { storageDir, workerId: "crashing", batchSize: 1, maxBatches: 1 });
    expect(await getImportJob(db.prisma, curator, jobId)).toMatchObject({ status: "running", processed: 1, created: 1 });
    expect(existsSync(staged)).toBe(true);
    await runImportJobs(db.prisma, { storageDir, workerId: "taking-over", batchSize: 1, staleAfterMs: 0 });
    expect(await getImportJob(db.prisma, curator, jobId)).toMatchObject({ status: "done", created: 2, skipped: 1 });
    expect(existsSync(staged)).toBe(false);
    expect((await leftovers()).staged).toBe(before.staged);

    const records = await db.prisma.record.findMany({
      where: { sectionId: section.id, externalId: { in: ["i-1", "i-2"] } },
      include: { media: true },
      orderBy: { externalId: "asc" },
    });
    expect(records.map((record) => record.media.map((media) => [media.fieldKey, media.kind, media.originalName]).sort())).toEqual([
      [
        ["photo", "image", "front.png"],
        ["recording", "audio", "tape-1.wav"],
      ],
      [["photo", "image", "back.png"]],
    ]);
    const first = records[0]?.values as Record<string, unknown>;
    expect(first.photo).toBe(records[0]?.media.find((media) => media.fieldKey === "photo")?.id);
    // Only the imported rows' files were stored: nothing orphaned, and each file is in storage.
    expect(await db.prisma.media.count({ where: { projectId, recordId: null } })).toBe(0);
    for (const media of records.flatMap((record) => record.media)) expect(existsSync(join(storageDir, media.storageKey))).toBe(true);
  });

  it("removes the staged zip of a job that fails (its importer lost the project)", async () => {
    const user = await createUser(db.prisma, { role: "curator" });
    await addMember(db.prisma, user.id, projectId, "editor");
    const leaving = await principalOf(db.prisma, user.id);
    const { jobId } = await startImport(db.prisma, leaving, csvFile(["ref,title,photo,recording", "f-1,Failing,front.png,"]), plan(), {
      storageDir,
      mediaZip: collectionZip(),
    });
    const staged = join(storageDir, "imports", `${jobId}.media.zip`);
    expect(existsSync(staged)).toBe(true);
    await db.prisma.membership.deleteMany({ where: { userId: user.id } });
    await runImportJobs(db.prisma, { storageDir, workerId: "failing" });
    expect(await getImportJob(db.prisma, leaving, jobId)).toMatchObject({ status: "failed", created: 0 });
    expect(existsSync(staged)).toBe(false);
  });

  it("sweeps staged files of abandoned imports (no job, or a job that ended), and leaves a waiting job's and fresh ones", async () => {
    const importsDir = join(storageDir, "imports");
    const { jobId: waitingId } = await startImport(db.prisma, curator, csvFile(["ref,title,photo,recording", "w-1,Waiting,front.png,"]), plan(), {
      storageDir,
      mediaZip: collectionZip(),
    });
    const doneJob = await db.prisma.importJob.findFirstOrThrow({ where: { status: "done" }, select: { id: true } });
    const orphan = randomUUID();
    const fresh = randomUUID();
    for (const name of [`${orphan}`, `${orphan}.media.zip`, `${doneJob.id}.media.zip`, `${fresh}.media.zip`, "notes.txt"])
      writeFileSync(join(importsDir, name), "staged");
    const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
    for (const name of [`${orphan}`, `${orphan}.media.zip`, `${doneJob.id}.media.zip`, `${waitingId}`, `${waitingId}.media.zip`, "notes.txt"])
      utimesSync(join(importsDir, name), old, old);
    const removed = await sweepImportFiles(db.prisma, { storageDir });
    expect(removed.sort()).toEqual([`${doneJob.id}.media.zip`, `${orphan}`, `${orphan}.media.zip`].sort());
    for (const name of [`${waitingId}`, `${waitingId}.media.zip`, `${fresh}.media.zip`, "notes.txt"])
      expect(existsSync(join(importsDir, name)), name).toBe(true);
    rmSync(join(importsDir, `${fresh}.media.zip`));
    rmSync(join(importsDir, "notes.txt"));
    await runImportJobs(db.prisma, { storageDir, workerId: "after-sweep" });
    expect(await getImportJob(db.prisma, curator, waitingId)).toMatchObject({ status: "done", created: 1 });
  });

  it("refuses a curator who cannot edit the project with not-found, before the zip is read, staging and writing nothing", async () => {
    const before = await leftovers();
    const file = csvFile(["ref,title,photo,recording", "x-1,Denied,front.png,"]);
    for (const run of [
      () => dryRunImport(db.prisma, otherCurator, file, plan(), { mediaZip: collectionZip() }),
      () => startImport(db.prisma, otherCurator, file, plan(), { storageDir, mediaZip: collectionZip() }),
      // Even a zip that is not one: access is decided first, so nothing about it is told.
      () => startImport(db.prisma, otherCurator, file, plan(), { storageDir, mediaZip: { fileName: "x.zip", bytes: new TextEncoder().encode("no zip") } }),
    ]) {
      const error = await appErrorOf(run());
      expect(error.code).toBe("not_found");
      expect(error.message).toBe("Not found.");
    }
    expect(await leftovers()).toEqual(before);
  });

  it("refuses bad zips whole, naming the zip and the rule, with nothing staged or written", async () => {
    const file = csvFile(["ref,title,photo,recording", "b-1,Bad,front.png,"]);
    const before = await leftovers();
    const refusal = async (mediaZip: ImportFile, mediaZipLimits?: MediaZipLimits) => {
      const dry = await appErrorOf(dryRunImport(db.prisma, curator, file, plan(), { mediaZip, mediaZipLimits }));
      const started = await appErrorOf(startImport(db.prisma, curator, file, plan(), { storageDir, mediaZip, mediaZipLimits }));
      expect(started.message).toBe(dry.message);
      expect(dry.fieldErrors?.mediaZip).toEqual([dry.message]);
      return `${dry.code}: ${dry.message}`;
    };
    expect(await refusal({ fileName: "photos.csv", bytes: file.bytes })).toBe(
      "bad_request: The media zip “photos.csv” is not a zip file (it has no central directory).",
    );
    expect(
      await refusal(
        zipFile([
          { name: "front.png", bytes: png },
          { name: "../../etc/cron.d/evil", bytes: "x" },
        ]),
      ),
    ).toBe("bad_request: The media zip “media.zip” holds an entry named “../../etc/cron.d/evil”, which points outside the zip; nothing was imported.");
    expect(await refusal(zipFile([{ name: "/tmp/front.png", bytes: png }]))).toMatch(/“\/tmp\/front.png”, which points outside the zip/);
    expect(await refusal(zipFile([{ name: "front.png", bytes: "/etc/passwd", unixMode: 0o120777 }]))).toBe(
      "bad_request: The media zip “media.zip” entry “front.png” is a symbolic link; put the file itself in the zip.",
    );
    expect(await refusal(zipFile([{ name: "front.png", bytes: png, encrypted: true }]))).toBe(
      "bad_request: The media zip “media.zip” entry “front.png” is encrypted; Mnemo reads only unencrypted zips.",
    );
    expect(await refusal({ fileName: "empty.zip", bytes: new Uint8Array() })).toBe("bad_request: The media zip is empty.");

    const small: MediaZipLimits = { maxEntries: 3, maxUnpackedBytes: 4096 };
    process.env.MNEMO_IMPORT_MAX_ZIP_BYTES = "2048";
    resetConfig();
    expect(await refusal(zipFile(["a", "b", "c", "d"].map((name) => ({ name: `${name}.png`, bytes: "x" }))), small)).toBe(
      "bad_request: The media zip “media.zip” holds 4 entries; an import takes at most 3.",
    );
    // A bomb by its declared sizes: 1 MB of zeros deflate to about a kilobyte.
    expect(await refusal(zipFile([{ name: "zeros.png", bytes: new Uint8Array(1024 * 1024) }]), small)).toBe(
      "bad_request: The media zip “media.zip” unpacks to more than 4096 bytes (the import limit for a zip's contents).",
    );
    expect(
      await refusal(
        zipFile([
          { name: "front.png", bytes: png, method: "store" },
          { name: "noise.bin", bytes: new Uint8Array(3000).map((_, index) => (index * 7919) % 251), method: "store" },
        ]),
      ),
    ).toMatch(/^payload_too_large: The media zip is 3\.\d KB; a zip is limited to 2\.0 KB/);
    expect(await leftovers()).toEqual(before);
  });

  it("reports, per row, an entry that inflates past its declared size (a lying bomb), storing nothing", async () => {
    const before = await leftovers();
    const file = csvFile(["ref,title,photo,recording", "l-1,Liar,front.png,", "l-2,Honest,scans/back.png,"]);
    const mediaZip = zipFile([
      { name: "front.png", bytes: new Uint8Array(8 * 1024 * 1024), declaredSize: 200 },
      { name: "scans/back.png", bytes: png },
    ]);
    const result = await dryRunImport(db.prisma, curator, file, plan(), { mediaZip });
    expect(result.valid).toBe(1);
    expect(result.problems).toEqual([
      {
        row: 1,
        column: "photo",
        field: "photo",
        message: "Photo (“front.png”): The zip entry “front.png” unpacks to more than its declared 200 bytes; refused.",
      },
    ]);
    expect(await leftovers()).toEqual(before);
  });

  it("refuses a media folder and a zip together", async () => {
    const admin = await principalOf(db.prisma, (await createUser(db.prisma, { role: "admin" })).id);
    const error = await appErrorOf(
      dryRunImport(db.prisma, admin, csvFile(["ref,title", "t-1,Both"]), { ...plan(), mediaFolder: "scans" }, { mediaZip: collectionZip() }),
    );
    expect([error.code, error.message]).toEqual(["bad_request", "Name a media folder or attach a media zip, not both."]);
  });
});

describe(`a media zip through the /import page's actions and the JSON API (${testDatabaseMode()})`, () => {
  function pageAction<T>(principal: Principal, step: (form: FormData, principal: Principal) => Promise<T>) {
    return (form: FormData): Promise<ActionResult<T>> =>
      runAuthorizedAction(
        z.instanceof(FormData),
        (parsed, context) => step(parsed, context.principal),
        async () => principal,
        form,
      );
  }
  const pageForm = (csv: string, zip?: File) => {
    const form = new FormData();
    form.set("file", new File([csv], "photos.csv", { type: "text/csv" }));
    form.set("plan", JSON.stringify(plan()));
    form.set("mediaZip", zip ?? new File([], "", { type: "application/octet-stream" }));
    return form;
  };
  const zipAsFile = (zip: ImportFile) => new File([Buffer.from(zip.bytes)], zip.fileName, { type: "application/zip" });

  it("dry-runs and starts from the page's form with the zip, and treats an empty file input as no zip", async () => {
    const csv = "ref,title,photo,recording\r\np-1,From the page,scans/back.png,\r\n";
    const checked = await pageAction(curator, (form, signedIn) => dryRunImportUpload(db.prisma, signedIn, form))(pageForm(csv, zipAsFile(collectionZip())));
    expect(checked).toMatchObject({ status: "ok", data: { rows: 1, valid: 1, problems: [] } });
    const noZip = await pageAction(curator, (form, signedIn) => dryRunImportUpload(db.prisma, signedIn, form))(pageForm(csv));
    expect(noZip).toMatchObject({
      status: "ok",
      data: { valid: 0, problems: [{ row: 1, field: "photo", message: "Photo names a file, but the import has no media folder or media zip" }] },
    });
    const notZip = await pageAction(curator, (form, signedIn) => dryRunImportUpload(db.prisma, signedIn, form))(
      pageForm(csv, new File(["plain text"], "media.zip")),
    );
    expect(notZip).toMatchObject({
      status: "error",
      code: "bad_request",
      fieldErrors: { mediaZip: ["The media zip “media.zip” is not a zip file (it has no central directory)."] },
    });

    const started = await pageAction(curator, (form, signedIn) => startImportUpload(db.prisma, signedIn, form))(pageForm(csv, zipAsFile(collectionZip())));
    expect(started.status).toBe("ok");
    if (started.status !== "ok") return;
    await runImportJobs(db.prisma, { storageDir, workerId: "page" });
    expect(await getImportJob(db.prisma, curator, started.data.jobId)).toMatchObject({ status: "done", created: 1 });
    expect(existsSync(join(storageDir, "imports", `${started.data.jobId}.media.zip`))).toBe(false);
  });

  it("takes the zip as base64 over the API, and refuses text that is not base64", async () => {
    const token = (await createApiToken(db.prisma, curator, { name: "zip importer", expiresInDays: 30, scopes: ["read", "write"] })).token;
    const call = async (input: Record<string, unknown>) => {
      const response = await callApi(apiDepsWithoutModels(db, origin), "create_import", input, { origin, token });
      return {
        status: response.status,
        json: (await response.json()) as Record<string, unknown> & { error?: { message: string; fieldErrors?: Record<string, string[]> } },
      };
    };
    const input = {
      sectionSlug: section.slug,
      projectId,
      format: "csv",
      content: "ref,title,photo,recording\na-1,Over the API,front.png,audio/tape-1.wav\na-2,Missing,gone.png,\n",
      mapping: plan().mapping,
      mediaZip: Buffer.from(collectionZip().bytes).toString("base64"),
      dryRun: true,
    };
    const checked = await call(input);
    expect(checked.status).toBe(200);
    expect(checked.json.result).toMatchObject({
      rows: 2,
      valid: 1,
      problems: [{ row: 2, field: "photo", message: "Photo names the file “gone.png”, which is not in the zip" }],
    });
    const garbled = await call({ ...input, mediaZip: "not base64!" });
    expect(garbled.status).toBe(400);
    expect(garbled.json.error?.fieldErrors?.mediaZip).toEqual(["The media zip must be base64 (standard alphabet, padded)."]);
    const started = await call({ ...input, dryRun: false });
    expect(started.status).toBe(200);
    await runImportJobs(db.prisma, { storageDir, workerId: "api" });
    expect(await getImportJob(db.prisma, curator, started.json.jobId as string)).toMatchObject({ status: "done", created: 1, skipped: 1 });
  });
});

describe(`the user guide's media zip sample (${testDatabaseMode()})`, () => {
  it("dry-runs into the demo's museum objects with exactly its two bad rows, and imports the other four with their photos", async () => {
    const objects = await createSection(db.prisma, museumObjectSection.fields);
    const sample: ImportFile = { fileName: "objects-with-photos.csv", bytes: readFileSync("samples/import/objects-with-photos.csv") };
    const mediaZip: ImportFile = { fileName: "object-photos.zip", bytes: readFileSync("samples/import/object-photos.zip") };
    const preview = await previewImport(db.prisma, curator, sample, objects.slug);
    expect(preview.suggestedMapping).toEqual({
      externalIdColumn: "ID",
      columns: { Title: "title", Artist: "artist", "Year made": "yearMade", Typology: "typology", Front: "front" },
    });
    const samplePlan: ImportPlan = { sectionSlug: objects.slug, projectId, mapping: preview.suggestedMapping };
    const result = await dryRunImport(db.prisma, curator, sample, samplePlan, { mediaZip });
    expect(result.problems.map((problem) => [problem.row, problem.message])).toEqual([
      [4, "Front names the file “photos/evening-boats.jpg”, which is not in the zip"],
      [5, "Front names “notes/catalogue.txt”, which is not an image Mnemo can store"],
    ]);
    const { jobId } = await startImport(db.prisma, curator, sample, samplePlan, { storageDir, mediaZip });
    await runImportJobs(db.prisma, { storageDir, workerId: "sample" });
    expect(await getImportJob(db.prisma, curator, jobId)).toMatchObject({ status: "done", created: 4, skipped: 2 });
    const media = await db.prisma.media.findMany({ where: { record: { sectionId: objects.id } }, select: { originalName: true, view: true } });
    expect(media.map((file) => file.originalName).sort()).toEqual(["boat.jpg", "harbour-dawn.jpg", "lighthouse.png", "net-mender.jpg"]);
    expect(new Set(media.map((file) => file.view))).toEqual(new Set(["front"]));
  });
});
