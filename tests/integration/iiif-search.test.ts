import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Principal, publicReader, systemPrincipal } from "../../lib/acl";
import type { FieldDefinition } from "../../lib/archive/field-definitions";
import { recordManifest } from "../../lib/archive/iiif/record-manifest";
import { validateSearchList1, validateSearchPage2, validateTermList1, validateTermPage2 } from "../../lib/archive/iiif/validate-content-search";
import { manifestCanvases, validatePresentation } from "../../lib/archive/iiif/validate-presentation";
import { writeMediaFile } from "../../lib/archive/media-storage";
import { publicProjectIds } from "../../lib/archive/public-projects";
import { saveRecord } from "../../lib/archive/save-record";
import { parseConfig } from "../../lib/config";
import type { Database } from "../../lib/db/database";
import { errorResponse } from "../../lib/http/error-response";
import { type IiifSearchRequest, iiifAutocompleteResponse, iiifSearchResponse } from "../../lib/http/iiif-search-response";
import { createRateLimiter } from "../../lib/rate-limit";
import { createHashEmbedder } from "../../lib/rag/embed/hash-embedder";
import type { IndexSpace } from "../../lib/rag/index/index-spaces";
import type { SearchContext } from "../../lib/rag/search/search-archive";
import { appErrorOf } from "../support/app-error-of";
import { drainEverySpace } from "../support/drain-every-space";
import { createProject, createSection, pngBytes, readerNobodyAdmin, saveAllGroup, temporaryStorageDir, testIndexSpace } from "../support/factories";
import { openTestDatabase, testDatabaseMode } from "../support/test-database";

/**
 * IIIF Content Search over a record's Manifest, as the /iiif/<id>/search and /autocomplete routes
 * call it: a word of an interview's turn is a hit on `#t=` of that turn, a word read by OCR a hit
 * on `#xywh=` of its box; 2.0 and 1.0 answers and the autocomplete pass the specs' shape checks
 * against the Manifest's Canvases; a stranger gets exactly the missing record's 404; bad input a
 * clear 400; the public reader a 429 beyond its allowance.
 */
const embedder = createHashEmbedder({ dimension: 64 });
const origin = "https://archive.example";
const missingId = "00000000-0000-4000-8000-000000000000";
const interviewFields: FieldDefinition[] = [
  { key: "title", label: "Title", type: "text", required: true, listed: true },
  { key: "language", label: "Language", type: "category", options: ["en", "es", "ca"] },
  { key: "recording", label: "Recording", type: "media", mediaKind: "audio" },
  { key: "transcript", label: "Transcript", type: "transcript", mediaField: "recording" },
  { key: "index", label: "Index", type: "segments", mediaField: "recording" },
];
const scanFields: FieldDefinition[] = [
  { key: "title", label: "Title", type: "text", required: true, listed: true },
  { key: "scan", label: "Scanned pages", type: "scan" },
];
const pageWords = ["Les", "campanes", "sota", "l'aigua", "del", "Segrell"].map((t, index) => ({ t, x: 10 + index * 50, y: 40, w: 45, h: 18, c: 93 }));

let db: Database;
let space: IndexSpace;
let context: SearchContext;
let reader: Principal;
let nobody: Principal;
let anonymous: Principal;
const storageDir = temporaryStorageDir();
const ids = { interview: "", scanned: "" };
const config = parseConfig({});

function request(recordId: string, path: string, query: string, options: Partial<IiifSearchRequest> = {}): IiifSearchRequest {
  return {
    recordId,
    url: new URL(`${origin}/iiif/${recordId}/${path}${query}`),
    origin,
    storageDir,
    clientAddress: "192.0.2.7",
    limiter: createRateLimiter({ perMinute: 100_000 }),
    version: path.endsWith("v1") ? 1 : 2,
    ...options,
  };
}
const dependencies = () => ({ prisma: db.prisma, search: async () => context, config });
const search = (principal: Principal, recordId: string, path: string, query: string, options?: Partial<IiifSearchRequest>) =>
  iiifSearchResponse(dependencies(), principal, request(recordId, path, query, options));
const canvasesOf = async (recordId: string) => {
  const manifest = await recordManifest(db.prisma, reader, { recordId, origin, storageDir });
  expect(validatePresentation(manifest)).toEqual([]);
  return manifestCanvases(manifest);
};

beforeAll(async () => {
  db = await openTestDatabase();
  space = await testIndexSpace(db.sql, embedder);
  context = { sql: db.sql, embedder, space, prepare: { detect: async () => ({ language: "es", confidence: 1 }) } };
  const interviews = await createSection(db.prisma, interviewFields);
  const scans = await createSection(db.prisma, scanFields);
  await saveAllGroup(db.prisma, db.sql, interviews.slug, ["title", "transcript", "index"]);
  await saveAllGroup(db.prisma, db.sql, scans.slug, ["title", "scan"]);
  const project = await createProject(db.prisma, { restricted: true });
  ({ reader, nobody } = await readerNobodyAdmin(db.prisma, project.id));
  anonymous = publicReader(await publicProjectIds(db.prisma));

  const recording = randomUUID();
  await db.prisma.media.create({
    data: {
      id: recording,
      projectId: project.id,
      kind: "audio",
      mime: "audio/ogg",
      size: 1000,
      durationSeconds: 60,
      originalName: "entrevista.ogg",
      storageKey: `test/${recording}.ogg`,
      sha256: "0".repeat(64),
      intake: "ready",
    },
  });
  ids.interview = (
    await saveRecord(db.prisma, systemPrincipal, {
      sectionSlug: interviews.slug,
      projectId: project.id,
      values: {
        title: "La moneda del pantano",
        language: "es",
        recording,
        transcript: [
          { speaker: "Entrevistador", start: 0, end: 4.45, text: "¿Cuándo entró en la mina?" },
          { speaker: "Andrés", start: 4.45, end: 19.7, text: "Entré de peón en 1963, en el lavadero." },
          { speaker: "Andrés", start: 19.7, end: 30, text: "Después vino la huelga y el cierre." },
        ],
        index: [{ start: 30, end: 60, title: "El pantano", synopsis: "Las campanas bajo el agua.", keywords: ["embalse"], partialTranscript: "" }],
      },
    })
  ).id;

  const pdf = randomUUID();
  await db.prisma.media.create({
    data: {
      id: pdf,
      projectId: project.id,
      kind: "document",
      mime: "application/pdf",
      size: 1000,
      originalName: "carta.pdf",
      storageKey: `test/${pdf}.pdf`,
      sha256: "1".repeat(64),
    },
  });
  const written = await writeMediaFile(storageDir, randomUUID(), "png", await pngBytes(400, 120));
  await db.prisma.mediaPage.create({
    data: {
      mediaId: pdf,
      page: 1,
      width: 400,
      height: 120,
      text: pageWords.map((word) => word.t).join(" "),
      words: pageWords,
      status: "read",
      language: "ca",
      imageKey: written.storageKey,
      imageMime: "image/png",
    },
  });
  ids.scanned = (
    await saveRecord(db.prisma, systemPrincipal, { sectionSlug: scans.slug, projectId: project.id, values: { title: "Carta del Segrell", scan: pdf } })
  ).id;
  await drainEverySpace(db, embedder, space);
}, 120_000);

afterAll(async () => {
  await db?.close();
});

describe(`IIIF Content Search (${testDatabaseMode()})`, () => {
  it("declares the search services on a Manifest with text", async () => {
    const manifest = await recordManifest(db.prisma, reader, { recordId: ids.interview, origin, storageDir });
    expect(manifest.service?.map((service) => ("id" in service ? service.id : service["@id"]))).toEqual([
      `${origin}/iiif/${ids.interview}/search`,
      `${origin}/iiif/${ids.interview}/search/v1`,
    ]);
  });

  it("finds a word of a transcript turn on #t= of that turn, in 2.0 and 1.0 shapes", async () => {
    const canvases = await canvasesOf(ids.interview);
    const canvas = `${origin}/iiif/${ids.interview}/canvas/recording`;
    const answer = await (await search(reader, ids.interview, "search", "?q=pe%C3%B3n&user=someone")).json();
    expect(validateSearchPage2(answer, canvases)).toEqual([]);
    expect(answer.ignored).toEqual(["user"]);
    expect(answer.items[0]).toMatchObject({
      motivation: "supplementing",
      target: `${canvas}#t=4.45,19.7`,
      body: { value: "Andrés: Entré de peón en 1963, en el lavadero." },
    });
    expect(answer.annotations[0].items[0]).toMatchObject({ motivation: "highlighting", target: { source: answer.items[0].id, selector: [{ exact: "peón" }] } });

    const list = await (await search(reader, ids.interview, "search/v1", "?q=pe%C3%B3n")).json();
    expect(validateSearchList1(list, canvases)).toEqual([]);
    expect(list.resources[0].on).toBe(`${canvas}#t=4.45,19.7`);
    expect(list.hits[0]).toMatchObject({ match: "peón", before: "Andrés: Entré de " });
    // An index segment's words are on its span too.
    const segment = await (await search(reader, ids.interview, "search", "?q=embalse")).json();
    expect(segment.items.map((item: { target: string }) => item.target)).toContain(`${canvas}#t=30,60`);
  });

  it("finds a word OCR read on #xywh= of its box, only that word marked", async () => {
    const canvases = await canvasesOf(ids.scanned);
    const answer = await (await search(reader, ids.scanned, "search", "?q=campanes")).json();
    expect(validateSearchPage2(answer, canvases)).toEqual([]);
    expect(answer.items[0]).toMatchObject({ target: `${origin}/iiif/${ids.scanned}/canvas/scan/p1#xywh=60,40,45,18`, body: { value: "campanes" } });
    expect(answer.annotations[0].items[0]).toMatchObject({
      motivation: "contextualizing",
      target: { selector: [{ prefix: "Les ", exact: "campanes", suffix: " sota l'aigua del Segrell" }] },
    });
    const list = await (await search(reader, ids.scanned, "search/v1", "?q=campanes")).json();
    expect(validateSearchList1(list, canvases)).toEqual([]);
  });

  it("completes the record's own words (2.0 TermPage, 1.0 TermList)", async () => {
    const page = await (await iiifAutocompleteResponse(dependencies(), reader, request(ids.interview, "autocomplete", "?q=lav"))).json();
    expect(validateTermPage2(page)).toEqual([]);
    expect(page.items).toEqual([{ value: "lavadero", total: 1 }]);
    const list = await (await iiifAutocompleteResponse(dependencies(), reader, request(ids.scanned, "autocomplete/v1", "?q=SEG"))).json();
    expect(validateTermList1(list)).toEqual([]);
    expect(list.terms).toEqual([{ match: "segrell", url: `${origin}/iiif/${ids.scanned}/search/v1?q=segrell`, count: 1 }]);
  });

  it("answers a stranger and the public reader exactly as for a record that does not exist", async () => {
    const missing = errorResponse(await appErrorOf(search(nobody, missingId, "search", "?q=pe%C3%B3n")));
    for (const principal of [nobody, anonymous]) {
      for (const path of ["search", "search/v1"]) {
        const denied = errorResponse(await appErrorOf(search(principal, ids.interview, path, "?q=pe%C3%B3n")));
        expect(denied.status).toBe(404);
        expect(await denied.text()).toBe(await missing.clone().text());
      }
      const autocomplete = await appErrorOf(iiifAutocompleteResponse(dependencies(), principal, request(ids.scanned, "autocomplete", "?q=seg")));
      expect(autocomplete.code).toBe("not_found");
    }
  });

  it("refuses bad input with a 400 that says what is wrong", async () => {
    const cases: [string, string, RegExp][] = [
      ["search", "", /give it as q/],
      ["search", "?q=%20%20", /give it as q/],
      ["search", `?q=${"a".repeat(1001)}`, /at most 1000 characters/],
      ["search", "?q=a&q=b", /Give q once/],
      ["search", "?q=pe%C3%B3n&motivation=singing", /motivation must be one or more of/],
      ["autocomplete", "?q=se&min=0", /min must be a whole number/],
    ];
    for (const [path, query, message] of cases) {
      const error = await appErrorOf(
        path === "search" ? search(reader, ids.interview, path, query) : iiifAutocompleteResponse(dependencies(), reader, request(ids.interview, path, query)),
      );
      expect(error.code, query).toBe("bad_request");
      expect(JSON.stringify([error.message, error.fieldErrors]), query).toMatch(message);
    }
    // A motivation these annotations do not have finds nothing.
    expect((await (await search(reader, ids.interview, "search", "?q=pe%C3%B3n&motivation=painting")).json()).items).toEqual([]);
  });

  it("gives the public reader a 429 beyond its searches a minute, whichever record", async () => {
    const limiter = createRateLimiter({ perMinute: 2 });
    for (let index = 0; index < 2; index++) expect((await appErrorOf(search(anonymous, missingId, "search", "?q=a", { limiter }))).code).toBe("not_found");
    const limited = await appErrorOf(search(anonymous, ids.interview, "search", "?q=a", { limiter }));
    expect(limited.code).toBe("rate_limited");
    expect(limited.message).toMatch(/Too many IIIF searches from this address without signing in/);
    expect((await search(reader, ids.interview, "search", "?q=pe%C3%B3n", { limiter })).status).toBe(200);
  });
});
