import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Principal, publicReader, systemPrincipal, withPublicProjects } from "../../lib/acl";
import type { FieldDefinition } from "../../lib/archive/field-definitions";
import { iiifCollection } from "../../lib/archive/iiif/collections";
import { collectionResponse, manifestResponse } from "../../lib/archive/iiif/iiif-responses";
import type { AnnotationPage, Canvas, Manifest } from "../../lib/archive/iiif/presentation";
import { presentationContentType } from "../../lib/archive/iiif/presentation";
import { createRenditionCache } from "../../lib/archive/iiif/rendition-cache";
import { defaultImageServiceSettings } from "../../lib/archive/iiif/image-request";
import { createImageService, imageBaseRedirect, imageInfoResponse, imageResponse } from "../../lib/archive/iiif/serve-image";
import { validatePresentation } from "../../lib/archive/iiif/validate-presentation";
import { recordManifest } from "../../lib/archive/iiif/record-manifest";
import { deleteRecord } from "../../lib/archive/delete-record";
import { removeStoredFiles, storeMedia, writeMediaFile } from "../../lib/archive/media-storage";
import { publicProjectIds } from "../../lib/archive/public-projects";
import { parseConfig } from "../../lib/config";
import { saveRecord } from "../../lib/archive/save-record";
import type { Database } from "../../lib/db/database";
import { captionsResponse } from "../../lib/http/captions-response";
import { errorResponse } from "../../lib/http/error-response";
import type { CaptionTranslator } from "../../lib/rag/embed/caption-translation";
import { appErrorOf } from "../support/app-error-of";
import { addMember, coinFields, createProject, createSection, createUser, pngBytes, principalOf, temporaryStorageDir } from "../support/factories";
import { openTestDatabase, testDatabaseMode } from "../support/test-database";

/**
 * IIIF through its services, as the /iiif routes call them: a coin's Manifest has two Canvases
 * labelled with its faces and their image services; an interview's a time-based Canvas with its
 * transcript as supplementing annotations on `#t=` fragments and its index as Ranges; a scanned
 * document a Canvas per page. Every Manifest and Collection passes the Presentation 3 checks.
 * The public reader gets the public project's records, manifests, images and captions, and for
 * anything else exactly the missing record's 404; collections list only readable records and page
 * when large; the Image API serves info.json, sized renditions (cached) and refuses bad requests
 * with 400; a principal with no project gets nothing.
 */
/** Renders: every image the IIIF service decodes from a stored file (the cache's misses). */
const renders = vi.hoisted(() => ({ count: 0 }));
vi.mock("../../lib/archive/image-limits", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../lib/archive/image-limits")>();
  return {
    ...original,
    openImage: (...args: Parameters<typeof original.openImage>) => {
      if (typeof args[0] === "string") renders.count++;
      return original.openImage(...args);
    },
  };
});

const origin = "https://archive.example";
const missingId = "00000000-0000-4000-8000-000000000000";

const interviewFields: FieldDefinition[] = [
  { key: "title", label: "Title", type: "text", required: true, listed: true },
  { key: "language", label: "Language", type: "category", options: ["en", "es", "ca"] },
  { key: "summary", label: "Summary", type: "longtext" },
  { key: "recording", label: "Recording", type: "media", mediaKind: "audio" },
  { key: "transcript", label: "Transcript", type: "transcript", mediaField: "recording" },
  { key: "index", label: "Index", type: "segments", mediaField: "recording" },
];
const scanFields: FieldDefinition[] = [
  { key: "title", label: "Title", type: "text", required: true, listed: true },
  { key: "scan", label: "Scanned pages", type: "scan" },
];

let db: Database;
let storageDir: string;
let publicProject: { id: string; slug: string };
let membersProject: { id: string; slug: string };
let coinSection: { id: string; slug: string };
let interviewSection: { slug: string };
let reader: Principal;
let nobody: Principal;
let anonymous: Principal;
const ids = { coin: "", membersCoin: "", interview: "", membersInterview: "", scanned: "", obverse: "", reverse: "", membersObverse: "", pdf: "" };

/** The original-language track only: translation is not what these tests are about. */
const noTranslator: CaptionTranslator = { languageOf: async () => "ca", offersEnglish: async () => false, englishTurns: async () => null };

async function storeImage(projectId: string, width: number, height: number): Promise<string> {
  return (
    await storeMedia(db.prisma, systemPrincipal, {
      projectId,
      file: { name: "face.png", bytes: await pngBytes(width, height) },
      expectedKind: "image",
      storageDir,
      maxBytes: 10 * 1024 * 1024,
    })
  ).id;
}

async function saveCoin(projectId: string, title: string): Promise<{ id: string; obverse: string; reverse: string }> {
  const obverse = await storeImage(projectId, 64, 60);
  const reverse = await storeImage(projectId, 62, 58);
  const saved = await saveRecord(db.prisma, systemPrincipal, {
    sectionSlug: coinSection.slug,
    projectId,
    values: { title, metal: "silver", date: { from: -44, to: -42 }, obverse, reverse },
  });
  return { id: saved.id, obverse, reverse };
}

/** A recording's row as the worker leaves it (probed, with its duration); the file is not read here. */
async function recordingMedia(projectId: string): Promise<string> {
  const id = randomUUID();
  await db.prisma.media.create({
    data: {
      id,
      projectId,
      kind: "audio",
      mime: "audio/ogg",
      size: 1000,
      durationSeconds: 95.5,
      originalName: "interview.ogg",
      storageKey: `test/${id}.ogg`,
      sha256: "0".repeat(64),
      intake: "ready",
    },
  });
  return id;
}

async function saveInterview(projectId: string, title: string): Promise<string> {
  const recording = await recordingMedia(projectId);
  const saved = await saveRecord(db.prisma, systemPrincipal, {
    sectionSlug: interviewSection.slug,
    projectId,
    values: {
      title,
      language: "ca",
      summary: "Records of the flooded valley.",
      recording,
      transcript: [
        { speaker: "Entrevistadora", start: 0, end: 4.5, text: "On vau néixer?" },
        { speaker: "Roser Vidal", start: 4.8, end: 16.25, text: "Al poble, al costat de l'església." },
      ],
      index: [
        { start: 0, end: 40, title: "Infància", synopsis: "El poble abans del pantà.", keywords: ["església"], partialTranscript: "" },
        { start: 40, end: 95.5, title: "La inundació", synopsis: "", keywords: [], partialTranscript: "" },
      ],
    },
  });
  return saved.id;
}

/** A two-page PDF as the OCR worker leaves it: page images taken out, each page's size known. */
async function saveScannedDocument(projectId: string, section: { slug: string }): Promise<{ id: string; pdf: string }> {
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
      sha256: "1".repeat(64),
    },
  });
  for (const page of [1, 2]) {
    const bytes = await pngBytes(90 + page * 10, 120);
    const written = await writeMediaFile(storageDir, randomUUID(), "png", bytes);
    await db.prisma.mediaPage.create({
      data: {
        mediaId: pdf,
        page,
        width: 90 + page * 10,
        height: 120,
        text: `page ${page}`,
        status: "read",
        imageKey: written.storageKey,
        imageMime: "image/png",
      },
    });
  }
  const saved = await saveRecord(db.prisma, systemPrincipal, {
    sectionSlug: section.slug,
    projectId,
    values: { title: "A letter from the valley", scan: pdf },
  });
  return { id: saved.id, pdf };
}

const manifestOf = (principal: Principal, recordId: string) => recordManifest(db.prisma, principal, { recordId, origin, storageDir });
/** The image service of most tests: the default limits, and a render allowance they never reach. */
const service = createImageService(parseConfig({ MNEMO_IIIF_ANONYMOUS_RENDERS_PER_MINUTE: "100000" }));
const image = (principal: Principal, imageId: string, region: string, size: string, quality = "default.jpg", rotation = "0") =>
  imageResponse(db.prisma, principal, { imageId, storageDir, region, size, rotation, quality, service, clientAddress: "192.0.2.1" });

beforeAll(async () => {
  db = await openTestDatabase();
  storageDir = temporaryStorageDir();
  publicProject = await createProject(db.prisma);
  membersProject = await createProject(db.prisma);
  await db.prisma.project.update({ where: { id: publicProject.id }, data: { isPublic: true, publicSince: new Date() } });
  coinSection = await createSection(db.prisma, coinFields);
  interviewSection = await createSection(db.prisma, interviewFields);
  const scanSection = await createSection(db.prisma, scanFields);
  const coin = await saveCoin(publicProject.id, "Denarius of Caesar");
  Object.assign(ids, { coin: coin.id, obverse: coin.obverse, reverse: coin.reverse });
  const membersCoin = await saveCoin(membersProject.id, "Members' denarius");
  Object.assign(ids, { membersCoin: membersCoin.id, membersObverse: membersCoin.obverse });
  ids.interview = await saveInterview(publicProject.id, "Les campanes sota l'aigua");
  ids.membersInterview = await saveInterview(membersProject.id, "La mina tancada");
  const scanned = await saveScannedDocument(membersProject.id, scanSection);
  Object.assign(ids, { scanned: scanned.id, pdf: scanned.pdf });
  const readerUser = await createUser(db.prisma);
  await addMember(db.prisma, readerUser.id, membersProject.id);
  reader = withPublicProjects(await principalOf(db.prisma, readerUser.id), await publicProjectIds(db.prisma));
  nobody = await principalOf(db.prisma, (await createUser(db.prisma)).id);
  anonymous = publicReader(await publicProjectIds(db.prisma));
});

afterAll(async () => {
  await db.close();
});

describe(`IIIF manifests (${testDatabaseMode()})`, () => {
  it("list a coin's two faces as image canvases with their image services, and validate", async () => {
    const manifest = await manifestOf(reader, ids.coin);
    expect(validatePresentation(manifest)).toEqual([]);
    expect(manifest.id).toBe(`${origin}/iiif/${ids.coin}/manifest`);
    expect(manifest.label).toEqual({ none: ["Denarius of Caesar"] });
    expect(manifest.items.map((canvas) => [canvas.label, canvas.width, canvas.height])).toEqual([
      [{ en: ["Obverse"] }, 64, 60],
      [{ en: ["Reverse"] }, 62, 58],
    ]);
    const body = manifest.items[0]!.items[0]!.items[0]!.body;
    expect(body).toMatchObject({
      type: "Image",
      id: `${origin}/iiif/image/${ids.obverse}/full/max/0/default.jpg`,
      service: [{ id: `${origin}/iiif/image/${ids.obverse}`, type: "ImageService3", profile: "level1" }],
    });
    expect(manifest.metadata).toEqual(
      expect.arrayContaining([
        { label: { en: ["Metal"] }, value: { none: ["silver"] } },
        { label: { en: ["Date"] }, value: { none: ["44 BC – 42 BC"] } },
      ]),
    );
    expect(manifest.homepage).toEqual([expect.objectContaining({ id: `${origin}/records/${ids.coin}`, format: "text/html" })]);
    expect(manifest.partOf?.map((part) => part.id)).toEqual([
      `${origin}/iiif/collection/section/${coinSection.slug}`,
      `${origin}/iiif/collection/project/${publicProject.slug}`,
    ]);
  });

  it("give an interview a time-based canvas, its transcript as supplementing annotations on #t= fragments and its index as ranges", async () => {
    const manifest = await manifestOf(reader, ids.interview);
    expect(validatePresentation(manifest)).toEqual([]);
    expect(manifest.label).toEqual({ ca: ["Les campanes sota l'aigua"] });
    expect(manifest.summary).toEqual({ ca: ["Records of the flooded valley."] });
    const [canvas] = manifest.items as [Canvas];
    expect(canvas.duration).toBe(95.5);
    expect(canvas.items[0]!.items[0]!.body).toMatchObject({ type: "Sound", format: "audio/ogg", duration: 95.5 });
    const annotations = (canvas.annotations![0] as AnnotationPage).items;
    expect(annotations.map((annotation) => [annotation.motivation, annotation.target])).toEqual([
      ["supplementing", `${canvas.id}#t=0,4.5`],
      ["supplementing", `${canvas.id}#t=4.8,16.25`],
    ]);
    expect(annotations[1]!.body).toEqual({
      type: "TextualBody",
      value: "Roser Vidal: Al poble, al costat de l'església.",
      format: "text/plain",
      language: "ca",
    });
    expect(canvas.rendering).toEqual([expect.objectContaining({ id: `${origin}/api/records/${ids.interview}/captions/transcript.vtt`, format: "text/vtt" })]);
    const [index] = manifest.structures!;
    expect(index!.items.map((range) => ("label" in range ? range.label : null))).toEqual([{ ca: ["Infància"] }, { ca: ["La inundació"] }]);
    expect(index!.items[1]).toMatchObject({ items: [{ id: `${canvas.id}#t=40,95.5`, type: "Canvas" }] });
  });

  it("give a scanned document a canvas per page, each with its page's image service", async () => {
    const manifest = await manifestOf(reader, ids.scanned);
    expect(validatePresentation(manifest)).toEqual([]);
    expect(manifest.items.map((canvas) => [canvas.label, canvas.width, canvas.height])).toEqual([
      [{ en: ["Scanned pages, page 1"] }, 100, 120],
      [{ en: ["Scanned pages, page 2"] }, 110, 120],
    ]);
    expect(manifest.items[1]!.items[0]!.items[0]!.body).toMatchObject({ service: [{ id: `${origin}/iiif/image/${ids.pdf}~p2` }] });
  });

  it("serve the public reader the public project's records, and for any other exactly the missing record's 404", async () => {
    expect((await manifestOf(anonymous, ids.coin)).items).toHaveLength(2);
    expect(((await manifestOf(anonymous, ids.interview)).items[0]!.annotations![0] as AnnotationPage).items).toHaveLength(2);
    const missing = await appErrorOf(manifestOf(anonymous, missingId));
    expect(missing.code).toBe("not_found");
    for (const id of [ids.membersCoin, ids.membersInterview, ids.scanned]) expect(await appErrorOf(manifestOf(anonymous, id))).toEqual(missing);
    expect(await appErrorOf(manifestOf(anonymous, "not-an-id"))).toEqual(missing);
    // Its images and captions follow the same rule.
    expect((await image(anonymous, ids.obverse, "full", "max")).status).toBe(200);
    expect(await appErrorOf(image(anonymous, ids.membersObverse, "full", "max"))).toEqual(await appErrorOf(image(anonymous, missingId, "full", "max")));
    expect(await appErrorOf(image(anonymous, `${ids.pdf}~p1`, "full", "max"))).toEqual(missing);
    expect((await captionsResponse(db.prisma, anonymous, { recordId: ids.interview, file: "transcript.vtt" }, noTranslator)).status).toBe(200);
    expect(await appErrorOf(captionsResponse(db.prisma, anonymous, { recordId: ids.membersInterview, file: "transcript.vtt" }, noTranslator))).toEqual(
      await appErrorOf(captionsResponse(db.prisma, anonymous, { recordId: missingId, file: "transcript.vtt" }, noTranslator)),
    );
  });

  it("name linked records in the metadata only for those who may read them", async () => {
    const people = await createSection(db.prisma, [{ key: "name", label: "Name", type: "text", required: true }]);
    const portraits = await createSection(db.prisma, [
      { key: "title", label: "Title", type: "text", required: true },
      { key: "sitter", label: "Sitter", type: "relation", targetSection: people.slug },
      { key: "photo", label: "Photograph", type: "image", view: "front" },
    ]);
    const sitter = await saveRecord(db.prisma, systemPrincipal, {
      sectionSlug: people.slug,
      projectId: membersProject.id,
      values: { name: "Joana Ferrer, members only" },
    });
    const photo = await storeImage(publicProject.id, 40, 50);
    const portrait = await saveRecord(db.prisma, systemPrincipal, {
      sectionSlug: portraits.slug,
      projectId: publicProject.id,
      values: { title: "Portrait", sitter: sitter.id, photo },
    });
    const sitterOf = (manifest: Manifest) => manifest.metadata?.find((entry) => entry.label.en?.[0] === "Sitter")?.value;
    expect(sitterOf(await manifestOf(reader, portrait.id))).toEqual({ none: ["Joana Ferrer, members only"] });
    const seenAnonymously = await manifestOf(anonymous, portrait.id);
    expect(sitterOf(seenAnonymously)).toBeUndefined();
    expect(JSON.stringify(seenAnonymously)).not.toContain(sitter.id);
    expect(JSON.stringify(seenAnonymously)).not.toContain("Joana");
  });

  it("answer as JSON-LD with the Presentation 3 profile", async () => {
    const response = await manifestResponse(db.prisma, anonymous, { recordId: ids.coin, origin, storageDir });
    expect(response.headers.get("content-type")).toBe(presentationContentType);
    expect(((await response.json()) as Manifest).items).toHaveLength(2);
  });
});

describe(`IIIF collections (${testDatabaseMode()})`, () => {
  const manifestIds = async (principal: Principal, kind: "section" | "project", slug: string) =>
    (await iiifCollection(db.prisma, principal, { kind, slug, origin })).items.map((item) => item.id);

  it("list only the records the principal may read", async () => {
    const section = await iiifCollection(db.prisma, reader, { kind: "section", slug: coinSection.slug, origin });
    expect(validatePresentation(section)).toEqual([]);
    expect(section.items.map((item) => item.label)).toEqual([{ none: ["Denarius of Caesar"] }, { none: ["Members' denarius"] }]);
    expect(await manifestIds(anonymous, "section", coinSection.slug)).toEqual([`${origin}/iiif/${ids.coin}/manifest`]);
    expect(await manifestIds(anonymous, "project", publicProject.slug)).toEqual(
      expect.arrayContaining([`${origin}/iiif/${ids.coin}/manifest`, `${origin}/iiif/${ids.interview}/manifest`]),
    );
    expect((await manifestIds(reader, "project", membersProject.slug)).sort()).toEqual(
      [ids.membersCoin, ids.membersInterview, ids.scanned].map((id) => `${origin}/iiif/${id}/manifest`).sort(),
    );
  });

  it("answer a project the principal cannot read exactly as an unknown one", async () => {
    const unknown = await appErrorOf(iiifCollection(db.prisma, anonymous, { kind: "project", slug: "no-such-project", origin }));
    expect(unknown.code).toBe("not_found");
    expect(await appErrorOf(iiifCollection(db.prisma, anonymous, { kind: "project", slug: membersProject.slug, origin }))).toEqual(unknown);
    expect(await appErrorOf(iiifCollection(db.prisma, anonymous, { kind: "section", slug: "no-such-section", origin }))).toEqual(unknown);
    const response = await collectionResponse(db.prisma, reader, { kind: "project", slug: membersProject.slug, page: "x", origin }).catch(
      (error: unknown) => error,
    );
    expect(response).toEqual(unknown);
  });

  it("page a large collection by sub-collections, every page valid and every record once", async () => {
    const top = await iiifCollection(db.prisma, reader, { kind: "project", slug: membersProject.slug, origin, pageSize: 2 });
    expect(validatePresentation(top)).toEqual([]);
    expect(top.items.map((item) => [item.id, item.type])).toEqual([
      [`${origin}/iiif/collection/project/${membersProject.slug}/1`, "Collection"],
      [`${origin}/iiif/collection/project/${membersProject.slug}/2`, "Collection"],
    ]);
    const pages = await Promise.all(
      [1, 2].map((page) => iiifCollection(db.prisma, reader, { kind: "project", slug: membersProject.slug, origin, pageSize: 2, page })),
    );
    for (const page of pages) expect(validatePresentation(page)).toEqual([]);
    expect(pages.flatMap((page) => page.items.map((item) => item.id)).sort()).toEqual((await manifestIds(reader, "project", membersProject.slug)).sort());
    expect((await appErrorOf(iiifCollection(db.prisma, reader, { kind: "project", slug: membersProject.slug, origin, pageSize: 2, page: 3 }))).code).toBe(
      "not_found",
    );
  });
});

describe(`the IIIF Image API (${testDatabaseMode()})`, () => {
  it("describes an image in info.json and redirects the service's base to it", async () => {
    const response = await imageInfoResponse(db.prisma, reader, { imageId: ids.obverse, storageDir, serviceId: `${origin}/iiif/image/${ids.obverse}` });
    expect(response.headers.get("content-type")).toBe('application/ld+json;profile="http://iiif.io/api/image/3/context.json"');
    expect(await response.json()).toMatchObject({ id: `${origin}/iiif/image/${ids.obverse}`, type: "ImageService3", profile: "level1", width: 64, height: 60 });
    const redirect = await imageBaseRedirect(db.prisma, reader, { imageId: ids.obverse, storageDir, origin });
    expect([redirect.status, redirect.headers.get("location")]).toEqual([303, `${origin}/iiif/image/${ids.obverse}/info.json`]);
  });

  it("renders the sizes asked, from the cache the second time", async () => {
    const first = await image(reader, ids.obverse, "full", "32,");
    expect([first.status, first.headers.get("content-type"), first.headers.get("mnemo-iiif-cache")]).toEqual([200, "image/jpeg", "miss"]);
    expect(await sharp(Buffer.from(await first.arrayBuffer())).metadata()).toMatchObject({ format: "jpeg", width: 32, height: 30 });
    // The same rendition asked another way is the same cached file.
    const second = await image(reader, ids.obverse, "0,0,64,60", ",30");
    expect(second.headers.get("mnemo-iiif-cache")).toBe("hit");
    const cropped = await image(reader, ids.obverse, "square", "!20,20", "gray.png");
    expect(await sharp(Buffer.from(await cropped.arrayBuffer())).metadata()).toMatchObject({ format: "png", width: 20, height: 20 });
    const page = await image(reader, `${ids.pdf}~p2`, "full", "max");
    expect(await sharp(Buffer.from(await page.arrayBuffer())).metadata()).toMatchObject({ width: 110, height: 120 });
  });

  it("keeps renditions until their image goes with its record", async () => {
    const coin = await saveCoin(membersProject.id, "Denarius to be deleted");
    expect((await image(reader, coin.obverse, "full", "16,")).headers.get("mnemo-iiif-cache")).toBe("miss");
    const renditions = join(storageDir, "iiif-cache", coin.obverse);
    expect(existsSync(renditions)).toBe(true);
    const version = (await db.prisma.record.findUniqueOrThrow({ where: { id: coin.id } })).version;
    // As the record page's delete action does: the rows in the transaction, the files after.
    const { storageKeys } = await deleteRecord(db.prisma, systemPrincipal, { id: coin.id, version });
    await removeStoredFiles(storageDir, storageKeys);
    expect(existsSync(renditions)).toBe(false);
  });

  it("refuses malformed requests with 400 (valid but unrendered ones are 501: iiif-tiles.test.ts), and unknown pages like missing images", async () => {
    for (const [region, size, quality, rotation] of [
      ["pct:0,0,x,50", "max", "default.jpg", "0"],
      ["0,0,0,10", "max", "default.jpg", "0"],
      ["full", "128,", "default.jpg", "0"],
      ["full", "max", "default.jpg", "-90"],
      ["full", "max", "default.bmp", "0"],
    ] as const) {
      expect((await appErrorOf(image(reader, ids.obverse, region, size, quality, rotation))).status).toBe(400);
    }
    const missing = await appErrorOf(image(reader, missingId, "full", "max"));
    expect(await appErrorOf(image(reader, `${ids.pdf}~p9`, "full", "max"))).toEqual(missing);
    // A PDF itself is no image; its pages are.
    expect(await appErrorOf(image(reader, ids.pdf, "full", "max"))).toEqual(missing);
    expect(await appErrorOf(image(reader, `${ids.obverse}/../x`, "full", "max"))).toEqual(missing);
  });
});

describe(`the IIIF Image API's limits, cache and render allowance (${testDatabaseMode()})`, () => {
  const rendered = async (response: Response) => sharp(Buffer.from(await response.arrayBuffer())).metadata();

  it("declares its limits in info.json: the image's own size times the upscale factor, at most the largest side", async () => {
    const info = async (settings = service.settings) =>
      (await imageInfoResponse(db.prisma, anonymous, { imageId: ids.obverse, storageDir, serviceId: `${origin}/iiif/image/${ids.obverse}`, settings }).then(
        (response) => response.json(),
      )) as Record<string, unknown>;
    expect(await info()).toMatchObject({ width: 64, height: 60, maxWidth: 128, maxHeight: 120 });
    expect(await info({ ...defaultImageServiceSettings, maxUpscale: 1 })).toMatchObject({ maxWidth: 64, maxHeight: 60 });
  });

  it("refuses ^ beyond them with a 400 before rendering anything, and renders up to them", async () => {
    const before = renders.count;
    const refused = await appErrorOf(image(anonymous, ids.obverse, "full", "^4096,4096", "default.png"));
    expect([refused.status, refused.message]).toEqual([
      400,
      "The size 4096×4096 is larger than this image is served (at most 128×120, as its info.json says).",
    ]);
    expect((await appErrorOf(image(anonymous, ids.obverse, "full", "^pct:400", "default.png"))).status).toBe(400);
    expect(renders.count).toBe(before);
    expect(await rendered(await image(anonymous, ids.obverse, "full", "^max", "default.png"))).toMatchObject({ width: 128, height: 120 });
    expect(await rendered(await image(anonymous, ids.obverse, "full", "^!4096,4096", "default.png"))).toMatchObject({ width: 128, height: 120 });
  });

  it("serves a request the same as one rendered before from the cache, by its canonical form, with its canonical Link", async () => {
    const imageId = await storeImage(publicProject.id, 64, 60);
    const ask = (region: string, size: string, quality: string, ifNoneMatch?: string) =>
      imageResponse(db.prisma, anonymous, {
        imageId,
        storageDir,
        region,
        size,
        rotation: "0",
        quality,
        service,
        clientAddress: "192.0.2.1",
        serviceId: `${origin}/iiif/image/${imageId}`,
        ifNoneMatch,
      });
    const before = renders.count;
    const first = await ask("full", "max", "default.png");
    expect([first.status, first.headers.get("mnemo-iiif-cache"), renders.count - before]).toEqual([200, "miss", 1]);
    expect(first.headers.get("link")).toContain(`<${origin}/iiif/image/${imageId}/full/max/0/default.png>;rel="canonical"`);
    for (const [region, size, quality] of [
      ["full", "64,60", "default.png"],
      ["0,0,64,60", "64,", "color.png"],
      ["0,0,500,500", ",60", "default.png"],
      ["full", "pct:100", "color.png"],
      ["full", "^64,60", "default.png"],
    ]) {
      const again = await ask(region!, size!, quality!);
      expect([again.headers.get("mnemo-iiif-cache"), again.headers.get("etag")]).toEqual(["hit", first.headers.get("etag")]);
      expect(again.headers.get("link")).toContain(`/full/max/0/default.png>;rel="canonical"`);
    }
    expect(renders.count - before).toBe(1);
    // A browser that holds it revalidates (access is checked again) and gets a 304.
    expect((await ask("full", "max", "default.png", first.headers.get("etag")!)).status).toBe(304);
    // Another rendition is rendered once; a changed file is rendered afresh.
    await ask("full", "32,", "default.png");
    await ask("full", "32,", "default.png");
    expect(renders.count - before).toBe(2);
    await db.prisma.media.update({ where: { id: imageId }, data: { sha256: "f".repeat(64) } });
    expect((await ask("full", "max", "default.png")).headers.get("mnemo-iiif-cache")).toBe("miss");
    expect(renders.count - before).toBe(3);
  });

  it("stops serving a cached image to the public reader the moment its record moves to a restricted project", async () => {
    const coin = await saveCoin(publicProject.id, "Denarius about to move");
    expect((await image(anonymous, coin.obverse, "full", "max")).headers.get("mnemo-iiif-cache")).toBe("miss");
    expect((await image(anonymous, coin.obverse, "full", "max")).headers.get("mnemo-iiif-cache")).toBe("hit");
    const row = await db.prisma.record.findUniqueOrThrow({ where: { id: coin.id }, include: { section: true } });
    await saveRecord(db.prisma, systemPrincipal, {
      id: coin.id,
      version: row.version,
      sectionSlug: row.section.slug,
      projectId: membersProject.id,
      values: row.values as Record<string, unknown>,
    });
    const before = renders.count;
    const missing = await appErrorOf(image(anonymous, missingId, "full", "max"));
    expect(await appErrorOf(image(anonymous, coin.obverse, "full", "max"))).toEqual(missing);
    expect(await appErrorOf(image(anonymous, coin.obverse, "full", "max", "default.jpg"))).toEqual(missing);
    expect(await appErrorOf(imageInfoResponse(db.prisma, anonymous, { imageId: coin.obverse, storageDir, serviceId: "x" }))).toEqual(missing);
    // A member of the restricted project still gets it, from the same cache.
    expect((await image(reader, coin.obverse, "full", "max")).headers.get("mnemo-iiif-cache")).toBe("hit");
    expect(renders.count).toBe(before);
  });

  it("answers 429 with Retry-After after N renders from one address without signing in, never for a signed-in reader", async () => {
    let now = 1_000_000;
    const limited = createImageService(parseConfig({ MNEMO_IIIF_ANONYMOUS_RENDERS_PER_MINUTE: "3" }), () => now);
    const imageId = await storeImage(publicProject.id, 80, 80);
    const ask = (principal: Principal, size: string, clientAddress: string | null) =>
      imageResponse(db.prisma, principal, {
        imageId,
        storageDir,
        region: "full",
        size,
        rotation: "0",
        quality: "default.jpg",
        service: limited,
        clientAddress,
      });
    for (const size of ["10,", "11,", "12,"]) expect((await ask(anonymous, size, "203.0.113.9")).status).toBe(200);
    const refused = await appErrorOf(ask(anonymous, "13,", "203.0.113.9"));
    expect([refused.code, refused.retryAfterSeconds]).toEqual(["rate_limited", 20]);
    const answer = errorResponse(refused);
    expect([answer.status, answer.headers.get("retry-after")]).toEqual([429, "20"]);
    expect(((await answer.json()) as { error: { message: string } }).error.message).toMatch(/without signing in\. Try again in 20 s, or sign in\./);
    // Served from the cache is no render; another address has its own allowance; an IPv6 /64 is one address.
    expect((await ask(anonymous, "10,", "203.0.113.9")).headers.get("mnemo-iiif-cache")).toBe("hit");
    expect((await ask(anonymous, "13,", "203.0.113.10")).status).toBe(200);
    for (const size of ["20,", "21,", "22,"]) await ask(anonymous, size, "2001:db8:1:2::1");
    expect((await appErrorOf(ask(anonymous, "23,", "2001:db8:1:2::ffff"))).code).toBe("rate_limited");
    // A signed-in reader from the limited address renders on.
    for (const size of ["30,", "31,", "32,", "33,", "34,"]) expect((await ask(reader, size, "203.0.113.9")).status).toBe(200);
    now += 20_000;
    expect((await ask(anonymous, "14,", "203.0.113.9")).status).toBe(200);
  });

  it("keeps the cached renditions within their byte budget, the least recently served going first, across restarts", async () => {
    const directory = temporaryStorageDir();
    const bytes = Buffer.alloc(1000, 1);
    const file = (name: string) => ({ folder: join("iiif-cache", randomUUID(), "image"), sourceTag: "abc", name: `abc-${name}.png` });
    const cache = createRenditionCache(2500);
    const [a, b, c] = [file("a"), file("b"), file("c")];
    await cache.write(directory, a, bytes);
    await cache.write(directory, b, bytes);
    expect(await cache.read(directory, a)).not.toBeNull();
    await cache.write(directory, c, bytes);
    const onDisk = (entry: typeof a) => existsSync(join(directory, entry.folder, entry.name));
    expect([onDisk(a), onDisk(b), onDisk(c)]).toEqual([true, false, true]);
    // A new process counts what is on disk before writing more.
    const restarted = createRenditionCache(2500);
    await restarted.write(directory, file("d"), bytes);
    expect([onDisk(a), onDisk(c)].filter(Boolean)).toHaveLength(1);
  });
});

describe(`a principal with no project (${testDatabaseMode()})`, () => {
  it("gets nothing: no manifest, collection or image", async () => {
    const missing = await appErrorOf(manifestOf(nobody, missingId));
    for (const id of [ids.coin, ids.interview, ids.scanned]) expect(await appErrorOf(manifestOf(nobody, id))).toEqual(missing);
    expect(await appErrorOf(iiifCollection(db.prisma, nobody, { kind: "section", slug: coinSection.slug, origin }))).toEqual(missing);
    expect(await appErrorOf(iiifCollection(db.prisma, nobody, { kind: "project", slug: publicProject.slug, origin }))).toEqual(missing);
    expect(await appErrorOf(image(nobody, ids.obverse, "full", "max"))).toEqual(missing);
    expect(await appErrorOf(imageInfoResponse(db.prisma, nobody, { imageId: `${ids.pdf}~p1`, storageDir, serviceId: "x" }))).toEqual(missing);
  });
});
