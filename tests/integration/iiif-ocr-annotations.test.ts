import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Principal, publicReader, systemPrincipal, withPublicProjects } from "../../lib/acl";
import type { FieldDefinition } from "../../lib/archive/field-definitions";
import { scanPageAnnotationsResponse } from "../../lib/archive/iiif/iiif-responses";
import { presentationContentType } from "../../lib/archive/iiif/presentation";
import { recordManifest } from "../../lib/archive/iiif/record-manifest";
import { scanPageAnnotations } from "../../lib/archive/iiif/scan-page-annotations";
import { validatePresentation } from "../../lib/archive/iiif/validate-presentation";
import { writeMediaFile } from "../../lib/archive/media-storage";
import type { OcrWord } from "../../lib/archive/ocr/tesseract-tsv";
import { publicProjectIds } from "../../lib/archive/public-projects";
import { saveRecord } from "../../lib/archive/save-record";
import type { Database } from "../../lib/db/database";
import { appErrorOf } from "../support/app-error-of";
import { addMember, createProject, createSection, createUser, pngBytes, principalOf, temporaryStorageDir } from "../support/factories";
import { openTestDatabase, testDatabaseMode } from "../support/test-database";

/**
 * A scan's pages carry the text OCR read as IIIF annotations: each page's Canvas names an
 * AnnotationPage (/iiif/<record>/annotations/<field>/p<N>) of one supplementing annotation per
 * OCR line on the line's #xywh= box, valid against the Manifest. Read as the Manifest is: the
 * public reader gets a public project's pages, and for any other record, field or page exactly
 * the missing record's 404; a page not written p<N> is a 400.
 */
const origin = "https://archive.example";
const missingId = "00000000-0000-4000-8000-000000000000";
const scanFields: FieldDefinition[] = [
  { key: "title", label: "Title", type: "text", required: true, listed: true },
  { key: "scan", label: "Scanned pages", type: "scan" },
];

let db: Database;
let storageDir: string;
let reader: Principal;
let anonymous: Principal;
let nobody: Principal;
const ids = { letter: "", membersLetter: "" };

/** Page 1 as tesseract read it: two lines of words, their boxes and line numbers. */
const pageWords: OcrWord[] = [
  { t: "Dear", x: 24, y: 25, w: 18, h: 9, c: 95, n: 1 },
  { t: "Margaret,", x: 46, y: 25, w: 40, h: 10, c: 93, n: 1 },
  { t: "wooden", x: 24, y: 45, w: 30, h: 9, c: 90, n: 2 },
  { t: "needles", x: 58, y: 44, w: 34, h: 10, c: 91, n: 2 },
];

async function saveLetter(projectId: string, sectionSlug: string): Promise<string> {
  const pdf = randomUUID();
  await db.prisma.media.create({
    data: {
      id: pdf,
      projectId,
      kind: "document",
      mime: "application/pdf",
      size: 1000,
      originalName: "letter.pdf",
      storageKey: `test/${pdf}.pdf`,
      sha256: "2".repeat(64),
    },
  });
  for (const page of [1, 2]) {
    const written = await writeMediaFile(storageDir, randomUUID(), "png", await pngBytes(100, 120));
    await db.prisma.mediaPage.create({
      data: {
        mediaId: pdf,
        page,
        width: 100,
        height: 120,
        text: page === 1 ? "Dear Margaret,\nwooden needles" : "",
        words: page === 1 ? (pageWords as object[]) : [],
        language: "en",
        status: "read",
        imageKey: written.storageKey,
        imageMime: "image/png",
      },
    });
  }
  return (await saveRecord(db.prisma, systemPrincipal, { sectionSlug, projectId, values: { title: "A letter about nets", scan: pdf } })).id;
}

const annotationsOf = (principal: Principal, recordId: string, field = "scan", page = "p1") =>
  scanPageAnnotations(db.prisma, principal, { recordId, field, page, origin });

beforeAll(async () => {
  db = await openTestDatabase();
  storageDir = temporaryStorageDir();
  const publicProject = await createProject(db.prisma);
  const membersProject = await createProject(db.prisma);
  await db.prisma.project.update({ where: { id: publicProject.id }, data: { isPublic: true, publicSince: new Date() } });
  const section = await createSection(db.prisma, scanFields);
  ids.letter = await saveLetter(publicProject.id, section.slug);
  ids.membersLetter = await saveLetter(membersProject.id, section.slug);
  const user = await createUser(db.prisma);
  await addMember(db.prisma, user.id, membersProject.id);
  reader = withPublicProjects(await principalOf(db.prisma, user.id), await publicProjectIds(db.prisma));
  anonymous = publicReader(await publicProjectIds(db.prisma));
  nobody = await principalOf(db.prisma, (await createUser(db.prisma)).id);
});

afterAll(async () => {
  await db.close();
});

describe(`a scan's OCR as IIIF annotations (${testDatabaseMode()})`, () => {
  it("names each read page's AnnotationPage from its Canvas, and serves its lines as supplementing #xywh= annotations valid against the Manifest", async () => {
    const manifest = await recordManifest(db.prisma, reader, { recordId: ids.membersLetter, origin, storageDir });
    expect(validatePresentation(manifest)).toEqual([]);
    const pageId = `${origin}/iiif/${ids.membersLetter}/annotations/scan/p1`;
    const canvasId = `${origin}/iiif/${ids.membersLetter}/canvas/scan/p1`;
    expect(manifest.items.map((canvas) => canvas.annotations)).toEqual([[{ id: pageId, type: "AnnotationPage" }], undefined]);
    const page = await annotationsOf(reader, ids.membersLetter);
    expect(validatePresentation(page, { manifest })).toEqual([]);
    expect(page).toMatchObject({ "@context": "http://iiif.io/api/presentation/3/context.json", id: pageId, type: "AnnotationPage" });
    expect(page.items.map((annotation) => [annotation.motivation, annotation.target, annotation.body])).toEqual([
      ["supplementing", `${canvasId}#xywh=24,25,62,10`, { type: "TextualBody", value: "Dear Margaret,", format: "text/plain", language: "en" }],
      ["supplementing", `${canvasId}#xywh=24,44,68,10`, { type: "TextualBody", value: "wooden needles", format: "text/plain", language: "en" }],
    ]);
    // A page with no text has an empty page (its Canvas names none).
    expect((await annotationsOf(reader, ids.membersLetter, "scan", "p2")).items).toEqual([]);
    const response = await scanPageAnnotationsResponse(db.prisma, anonymous, { recordId: ids.letter, field: "scan", page: "p1", origin });
    expect(response.headers.get("content-type")).toBe(presentationContentType);
    expect(((await response.json()) as { items: unknown[] }).items).toHaveLength(2);
  });

  it("answers a record one may not read, a field that is no scan and a page it does not have exactly as a missing record, and a malformed page with 400", async () => {
    const missing = await appErrorOf(annotationsOf(anonymous, missingId));
    expect(missing.code).toBe("not_found");
    expect((await annotationsOf(anonymous, ids.letter)).items).toHaveLength(2);
    expect(await appErrorOf(annotationsOf(anonymous, ids.membersLetter))).toEqual(missing);
    expect(await appErrorOf(annotationsOf(nobody, ids.letter))).toEqual(await appErrorOf(annotationsOf(nobody, missingId)));
    expect(await appErrorOf(annotationsOf(nobody, ids.membersLetter))).toEqual(missing);
    expect(await appErrorOf(annotationsOf(anonymous, "not-an-id"))).toEqual(missing);
    expect(await appErrorOf(annotationsOf(reader, ids.membersLetter, "title"))).toEqual(missing);
    expect(await appErrorOf(annotationsOf(reader, ids.membersLetter, "nothing"))).toEqual(missing);
    expect(await appErrorOf(annotationsOf(reader, ids.membersLetter, "scan", "p9"))).toEqual(missing);
    for (const page of ["1", "p0", "page1", "p1.json", "p-1"]) {
      const refused = await appErrorOf(annotationsOf(reader, ids.membersLetter, "scan", page));
      expect([refused.code, refused.message]).toEqual(["bad_request", `The page "${page}" is malformed: write it p1, p2… as the Canvas names it.`]);
    }
  });
});
