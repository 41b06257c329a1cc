import { beforeAll, describe, expect, it } from "vitest";
import { type Principal, systemPrincipal } from "../../lib/acl";
import type { FieldDefinition } from "../../lib/archive/field-definitions";
import { openImage } from "../../lib/archive/image-limits";
import { storeMedia } from "../../lib/archive/media-storage";
import { saveRecord } from "../../lib/archive/save-record";
import { mediaResponse } from "../../lib/archive/serve-media";
import type { Database } from "../../lib/db/database";
import { createHashEmbedder } from "../../lib/rag/embed/hash-embedder";
import type { IndexSpace } from "../../lib/rag/index/index-spaces";
import { readPendingScans } from "../../lib/rag/index/read-scans";
import { runWorker } from "../../lib/rag/index/run-worker";
import { searchArchive } from "../../lib/rag/search/search-archive";
import { characterErrorRate, imagePdf, renderScannedPage } from "../../prisma/seed/scanned-pages";
import { closeAfterAll } from "../support/close-after-all";
import { createProject, createSection, readerNobodyAdmin, saveAllGroup, temporaryStorageDir, testIndexSpace } from "../support/factories";
import { openTestDatabase, testDatabaseMode } from "../support/test-database";

/**
 * Scanned pages end to end: a two-page PDF of page images is stored for a record, the index
 * worker reads it with tesseract (pdfimages, one page at a time), its words become passages
 * that know their page, keyword search finds them with that page, and the page image is served
 * only to readers of the record's project — to anyone else it is the same not_found as a page
 * or a file that does not exist.
 */
const embedder = createHashEmbedder({ dimension: 64 });
const fields: FieldDefinition[] = [
  { key: "title", label: "Title", type: "text", required: true },
  { key: "scan", label: "Scanned pages", type: "scan" },
];
const pageOne = ["El novembre de 1965 es van tancar les comportes de la presa", "i l'aigua del Segrell va començar a pujar pels prats."];
const pageTwo = ["A la primavera següent només en sobresortia el campanar.", "Els veïns tornaven al fang a buscar la seva casa."];

let db: Database;
let space: IndexSpace;
let storageDir: string;
let projectId: string;
let recordId: string;
let mediaId: string;
let sectionSlug: string;
let reader: Principal;
let nobody: Principal;

beforeAll(async () => {
  db = await openTestDatabase();
  storageDir = temporaryStorageDir();
  space = await testIndexSpace(db.sql, embedder);
  const section = await createSection(db.prisma, fields);
  await saveAllGroup(db.prisma, db.sql, section.slug, ["title", "scan"]);
  sectionSlug = section.slug;
  projectId = (await createProject(db.prisma)).id;
  ({ reader, nobody } = await readerNobodyAdmin(db.prisma, projectId));
  const pages = [];
  for (const [index, lines] of [pageOne, pageTwo].entries()) {
    const jpeg = await renderScannedPage(lines, { angle: index === 0 ? 0.8 : -1.1, noise: 0.004, seed: `ocr-test-${index}`, format: "jpeg" });
    const { width = 0, height = 0 } = await openImage(jpeg).metadata();
    pages.push({ jpeg, width, height });
  }
  const stored = await storeMedia(db.prisma, systemPrincipal, {
    projectId,
    file: { name: "sant-roma.pdf", bytes: imagePdf(pages) },
    expectedKind: "scan",
    storageDir,
    maxBytes: 20 * 1024 * 1024,
  });
  mediaId = stored.id;
  recordId = (
    await saveRecord(db.prisma, systemPrincipal, { sectionSlug: section.slug, projectId, values: { title: "Les campanes sota l'aigua", scan: mediaId } })
  ).id;
  await runWorker({
    prisma: db.prisma,
    sql: db.sql,
    embedder,
    space,
    drain: true,
    idleMs: 10,
    scans: { storageDir, ocr: { languages: "spa+cat+eng", minConfidence: 80, timeoutMs: 120_000 } },
  });
}, 240_000);

closeAfterAll(() => db);

describe(`OCR of scanned pages (${testDatabaseMode()})`, () => {
  it("stores a PDF as a document and reads each of its pages with word boxes", async () => {
    const media = await db.prisma.media.findUniqueOrThrow({ where: { id: mediaId } });
    expect(media).toMatchObject({ kind: "document", mime: "application/pdf", recordId, fieldKey: "scan" });
    const pages = await db.prisma.mediaPage.findMany({ where: { mediaId }, orderBy: { page: "asc" } });
    expect(pages.map((page) => [page.page, page.status, page.width, page.height])).toEqual([
      [1, "read", 1748, 2480],
      [2, "read", 1748, 2480],
    ]);
    expect(characterErrorRate(pageOne.join("\n"), pages[0]?.text ?? "")).toBeLessThan(0.03);
    expect(characterErrorRate(pageTwo.join("\n"), pages[1]?.text ?? "")).toBeLessThan(0.03);
    expect(pages[0]?.language).toBe("ca");
    expect(pages[0]?.meanConfidence).toBeGreaterThan(80);
    const words = pages[1]?.words as { t: string; x: number; y: number; w: number; h: number }[];
    const bell = words.find((word) => word.t.startsWith("campanar"));
    // The first line sits at the top margin of the page (170 px), turned by about a degree.
    expect(bell?.y).toBeGreaterThan(150);
    expect(bell?.y).toBeLessThan(400);
    expect(pages.every((page) => page.imageKey)).toBe(true);
  });

  it("finds a page's words by keyword search, with the passage's page", async () => {
    const context = { sql: db.sql, embedder, space, prepare: { detect: async () => ({ language: "ca", confidence: 1 }) } };
    const result = await searchArchive(context, reader, { query: "campanar", mode: "keyword", limit: 5 });
    expect(result.hits).toHaveLength(1);
    expect(result.hits[0]).toMatchObject({ recordId, passage: { page: 2 } });
    const first = await searchArchive(context, reader, { query: "comportes", mode: "keyword", limit: 5 });
    expect(first.hits[0]?.passage.page).toBe(1);
    expect((await searchArchive(context, nobody, { query: "campanar", mode: "keyword", limit: 5 })).hits).toEqual([]);
  });

  it("serves a page image only to readers; anyone else gets the same not_found as a missing page", async () => {
    const request = { id: mediaId, range: null, method: "GET" as const, storageDir, page: 2 };
    const response = await mediaResponse(db.prisma, reader, request);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/jpeg");
    const image = await openImage(Buffer.from(await response.arrayBuffer())).metadata();
    expect([image.width, image.height]).toEqual([1748, 2480]);
    // The PDF itself is handed over as a file, never shown inline.
    expect((await mediaResponse(db.prisma, reader, { ...request, page: undefined })).headers.get("content-disposition")).toMatch(/^attachment/);
    const missingPage = await mediaResponse(db.prisma, reader, { ...request, page: 3 }).catch((error: unknown) => error);
    const denied = await mediaResponse(db.prisma, nobody, request).catch((error: unknown) => error);
    const missingFile = await mediaResponse(db.prisma, reader, { ...request, id: "00000000-0000-4000-8000-000000000000" }).catch((error: unknown) => error);
    for (const error of [missingPage, denied, missingFile]) expect(error).toMatchObject({ code: "not_found", message: (missingPage as Error).message });
  });

  it("starts no further scan once a batch's time is spent, and queues the rest for the next pass", async () => {
    const ids: string[] = [];
    for (const word of ["primer", "segon"]) {
      const png = await openImage(await renderScannedPage([`Full ${word}`], { angle: 0, noise: 0, seed: word }))
        .extract({ left: 0, top: 0, width: 900, height: 400 })
        .png()
        .toBuffer();
      const stored = await storeMedia(db.prisma, systemPrincipal, {
        projectId,
        file: { name: `${word}.png`, bytes: new Uint8Array(png) },
        expectedKind: "scan",
        storageDir,
        maxBytes: 20 * 1024 * 1024,
      });
      ids.push((await saveRecord(db.prisma, systemPrincipal, { sectionSlug, projectId, values: { title: `Full ${word}`, scan: stored.id } })).id);
    }
    await db.sql.query(`UPDATE index_queue SET status = 'running', locked_by = 'w', locked_at = now() WHERE record_id = ANY($1::text[])`, [ids]);
    const read = await readPendingScans(db.sql, { storageDir, ocr: { languages: "spa+cat+eng", minConfidence: 0, timeoutMs: 60_000 }, budgetMs: 0 }, ids);
    expect(read).toMatchObject({ pages: 1, failed: 0, deferred: 1 });
    const queue = await db.sql.query<{ record_id: string; status: string; reason: string; locked_by: string | null }>(
      `SELECT record_id, status, reason, locked_by FROM index_queue WHERE record_id = ANY($1::text[])`,
      [ids],
    );
    const withPages = await db.prisma.media.findMany({ where: { recordId: { in: ids }, pages: { some: {} } }, select: { recordId: true } });
    expect(withPages).toHaveLength(1);
    const left = ids.find((id) => id !== withPages[0]?.recordId);
    expect(queue.find((row) => row.record_id === left)).toMatchObject({ status: "pending", reason: "scan.unread", locked_by: null });
    expect(queue.find((row) => row.record_id === withPages[0]?.recordId)).toMatchObject({ status: "running", locked_by: "w" });
  });

  it("reads nothing when tesseract did not answer, queues the records for a later pass, and reads them then", async () => {
    const png = await openImage(await renderScannedPage(["Full tercer"], { angle: 0, noise: 0, seed: "tercer" }))
      .extract({ left: 0, top: 0, width: 900, height: 400 })
      .png()
      .toBuffer();
    const stored = await storeMedia(db.prisma, systemPrincipal, {
      projectId,
      file: { name: "tercer.png", bytes: new Uint8Array(png) },
      expectedKind: "scan",
      storageDir,
      maxBytes: 20 * 1024 * 1024,
    });
    const id = (await saveRecord(db.prisma, systemPrincipal, { sectionSlug, projectId, values: { title: "Full tercer", scan: stored.id } })).id;
    await db.sql.query(`UPDATE index_queue SET status = 'running', locked_by = 'w', locked_at = now() WHERE record_id = $1`, [id]);
    const ocr = { languages: "spa+cat+eng", minConfidence: 0, timeoutMs: 60_000 };
    // A probe that timed out on a busy machine says nothing about whether tesseract is installed.
    const lines: string[] = [];
    const unsure = await readPendingScans(
      db.sql,
      { storageDir, ocr, probe: async () => ({ state: "unsure", reason: "tesseract failed: timed out after 15 s" }) },
      [id],
      (line) => lines.push(line),
    );
    expect(unsure).toEqual({ pages: 0, failed: 0, deferred: 1 });
    expect(lines.join("\n")).toContain("did not answer");
    const [queued] = await db.sql.query<{ status: string; reason: string; later: boolean }>(
      `SELECT status, reason, available_at > now() AS later FROM index_queue WHERE record_id = $1`,
      [id],
    );
    expect(queued).toEqual({ status: "pending", reason: "scan.unread", later: true });
    // Not installed at all: left unread, not queued again (it would never end).
    await db.sql.query(`UPDATE index_queue SET status = 'running', locked_by = 'w', locked_at = now() WHERE record_id = $1`, [id]);
    expect(await readPendingScans(db.sql, { storageDir, ocr, probe: async () => ({ state: "missing" }) }, [id])).toEqual({ pages: 0, failed: 0, deferred: 0 });
    expect((await db.sql.query<{ status: string }>(`SELECT status FROM index_queue WHERE record_id = $1`, [id]))[0]?.status).toBe("running");
    // The next pass, with tesseract answering, reads the page.
    expect(await readPendingScans(db.sql, { storageDir, ocr }, [id])).toMatchObject({ pages: 1, failed: 0, deferred: 0 });
  });

  it("removes the page images with their scan when the record lets it go", async () => {
    const media = await db.prisma.media.findUniqueOrThrow({ where: { id: mediaId }, include: { pages: true } });
    const record = await db.prisma.record.findUniqueOrThrow({ where: { id: recordId }, include: { section: true } });
    const saved = await saveRecord(db.prisma, systemPrincipal, {
      id: recordId,
      version: record.version,
      sectionSlug: record.section.slug,
      projectId,
      values: { title: record.title },
    });
    expect([...saved.removedStorageKeys].sort()).toEqual([media.storageKey, ...media.pages.map((page) => page.imageKey ?? "")].sort());
    expect(await db.prisma.mediaPage.count({ where: { mediaId } })).toBe(0);
  });

  it("takes TIFF only as a scan, never as an image field's picture", async () => {
    const tiff = new Uint8Array(
      await openImage(await renderScannedPage(["x"], { angle: 0, noise: 0, seed: "t" }))
        .resize(400)
        .tiff()
        .toBuffer(),
    );
    const store = (expectedKind: "image" | "scan") =>
      storeMedia(db.prisma, systemPrincipal, { projectId, file: { name: "page.tif", bytes: tiff }, expectedKind, storageDir, maxBytes: 20 * 1024 * 1024 });
    await expect(store("image")).rejects.toMatchObject({ code: "unsupported_media_type" });
    expect(await store("scan")).toMatchObject({ kind: "image", mime: "image/tiff" });
  });
});
