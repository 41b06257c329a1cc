import "server-only";
import { z } from "zod";
import { type Principal, isAnonymous } from "../acl";
import { getRecord, type RecordDetail } from "../archive/get-record";
import {
  autocompleteParameters,
  contentSearchContentType,
  contentSearchUrls,
  knownMotivations,
  searchList1,
  searchPage2,
  searchParameters,
  termList1,
  termPage2,
} from "../archive/iiif/content-search";
import type { ImageServiceSettings } from "../archive/iiif/image-request";
import { type Manifest, iiifUrls } from "../archive/iiif/presentation";
import { recordManifest, recordingFieldOf, storedSegments } from "../archive/iiif/record-manifest";
import { storedTurns } from "../archive/record-captions";
import type { OcrWord } from "../archive/ocr/tesseract-tsv";
import { getScanPages } from "../archive/scan-pages";
import { throttleKey } from "../auth/client-address";
import type { Config } from "../config";
import type { PrismaClient } from "../db/generated/client";
import { AppError, isAppError, notFound, parseInput } from "../errors";
import { queryTextSchema } from "../query-length";
import { type RateLimiter, createRateLimiter } from "../rate-limit";
import { readMatchThresholds } from "../rag/ask/ask-settings";
import { queryTerms } from "../rag/search/highlight";
import { type PassageToPlace, type RecordLayout, completeTerms, placePassage } from "../rag/search/place-iiif-hits";
import { type SearchContext, type SearchResult, searchArchive } from "../rag/search/search-archive";

/**
 * IIIF Content Search 2.0 and 1.0 for a record's Manifest (`/iiif/<id>/search`, `/search/v1`,
 * `/autocomplete`, `/autocomplete/v1`). Access is the Manifest's: the record is read through
 * recordManifest (a public project's record anonymously, else the reader's projects), and a
 * record that is unreadable, unknown or has no Manifest with text is the one not_found. Hits are
 * the archive's hybrid search restricted to that record (passages the words match, or close
 * enough in meaning to count as a good match), placed on Canvases by placePassage. The public
 * reader gets MNEMO_IIIF_ANONYMOUS_RENDERS_PER_MINUTE searches a minute per address, then 429.
 */
export interface IiifSearchDependencies {
  prisma: PrismaClient;
  search: () => Promise<SearchContext>;
  config: Pick<Config, "MNEMO_IIIF_ANONYMOUS_RENDERS_PER_MINUTE">;
}

export interface IiifSearchRequest {
  recordId: string;
  /** The request's URL as the client sent it (the answer's id): origin, path and query. */
  url: URL;
  origin: string;
  storageDir: string;
  imageSettings?: ImageServiceSettings;
  clientAddress: string | null;
  limiter: RateLimiter;
  version: 1 | 2;
}

/** Hits a search answers at most (one page: the archive's search limit). */
const maxHits = 50;

const motivationSchema = z
  .string()
  .trim()
  .max(200, "motivation is too long.")
  .transform((value) => value.split(/\s+/).filter(Boolean))
  .refine((values) => values.every((value) => (knownMotivations as readonly string[]).includes(value)), {
    message: `motivation must be one or more of: ${knownMotivations.join(", ")}.`,
  });

const searchQuerySchema = z.object({
  q: queryTextSchema({ what: "A search", missing: "A search needs some text: give it as q.", tooShort: "A search needs some text: give it as q." }),
  motivation: motivationSchema.optional(),
});

const autocompleteQuerySchema = z.object({
  q: queryTextSchema({
    what: "A term to complete",
    missing: "Autocomplete needs the start of a word: give it as q.",
    tooShort: "Autocomplete needs the start of a word: give it as q.",
  }).pipe(z.string().max(100, "A term to complete can be at most 100 characters long.")),
  motivation: motivationSchema.optional(),
  min: z.coerce
    .number({ error: "min must be a whole number from 1." })
    .int("min must be a whole number from 1.")
    .min(1, "min must be a whole number from 1.")
    .max(100_000)
    .optional(),
});

/**
 * The query's parameters: each known one at most once (400 otherwise), and the names of those
 * Mnemo does not filter by (`date`, `user`: its hits carry neither) or does not know, which the
 * specs say to ignore and name in `ignored`.
 */
function readParameters(url: URL, used: readonly string[], defined: readonly string[]): { values: Record<string, string>; ignored: string[] } {
  const values: Record<string, string> = {};
  const ignored = new Set<string>();
  for (const [name, value] of url.searchParams) {
    if (!used.includes(name)) {
      if (value !== "" || !defined.includes(name)) ignored.add(name.slice(0, 40));
      continue;
    }
    if (name in values) throw new AppError("bad_request", `Give ${name} once.`, { fieldErrors: { [name]: [`Give ${name} once.`] } });
    values[name] = value;
  }
  return { values, ignored: [...ignored].slice(0, 20) };
}

// One limiter per process (Next.js may bundle this module more than once).
const processLimiter = Symbol.for("mnemo.iiifSearchLimiter");

/** The process's allowance of anonymous searches per address. */
export function processSearchLimiter(config: Pick<Config, "MNEMO_IIIF_ANONYMOUS_RENDERS_PER_MINUTE">): RateLimiter {
  const holder = globalThis as unknown as Record<symbol, RateLimiter | undefined>;
  holder[processLimiter] ??= createRateLimiter({ perMinute: config.MNEMO_IIIF_ANONYMOUS_RENDERS_PER_MINUTE });
  return holder[processLimiter];
}

/** Counts one search for the public reader at this address; beyond the limit a 429 with Retry-After. Before access: the same for every record. */
function takeAnonymousSearch(principal: Principal, limiter: RateLimiter, clientAddress: string | null): void {
  if (!isAnonymous(principal)) return;
  const decision = limiter.take(`iiif-search:${clientAddress ? throttleKey(clientAddress) : "unknown"}`);
  if (decision.allowed) return;
  throw new AppError("rate_limited", `Too many IIIF searches from this address without signing in. Try again in ${decision.retryAfterSeconds} s, or sign in.`, {
    retryAfterSeconds: decision.retryAfterSeconds,
  });
}

/** The record and its Manifest when the Manifest declares search; else the one not_found. */
async function searchableRecord(prisma: PrismaClient, principal: Principal, request: IiifSearchRequest): Promise<{ record: RecordDetail; manifest: Manifest }> {
  const manifest = await recordManifest(prisma, principal, {
    recordId: request.recordId,
    origin: request.origin,
    storageDir: request.storageDir,
    imageSettings: request.imageSettings,
  });
  if (!manifest.service?.length) throw notFound();
  return { record: await getRecord(prisma, principal, request.recordId), manifest };
}

/** The Canvases the record's texts belong to, as the Manifest names them. */
async function recordLayout(prisma: PrismaClient, principal: Principal, record: RecordDetail, manifest: Manifest, origin: string): Promise<RecordLayout> {
  const urls = iiifUrls(origin);
  const canvasIds = new Set(manifest.items.map((canvas) => canvas.id));
  const { fields } = record.section;
  const timed: RecordLayout["timed"] = new Map();
  const scans: RecordLayout["scans"] = new Map();
  const pagesByMedia = fields.some((field) => field.type === "scan") ? await getScanPages(prisma, principal, record.id) : {};
  for (const field of fields) {
    const recording = recordingFieldOf(fields, field);
    if (recording) {
      const canvasId = urls.recordPart(record.id, "canvas", recording.key);
      if (!canvasIds.has(canvasId)) continue;
      const items =
        field.type === "transcript"
          ? storedTurns(record.values[field.key]).map((turn) => ({
              start: turn.start,
              end: turn.end,
              text: turn.speaker ? `${turn.speaker}: ${turn.text}` : turn.text,
            }))
          : storedSegments(record.values[field.key]).map((segment) => ({
              start: segment.start,
              end: segment.end,
              text: [segment.title, segment.synopsis, segment.keywords.join("; "), segment.partialTranscript].filter(Boolean).join(" — "),
            }));
      timed.set(field.key, { canvasId, items });
    } else if (field.type === "scan") {
      const mediaId = record.values[field.key];
      const pages = new Map<number, { canvasId: string; words: NonNullable<ReturnType<typeof pageWords>> }>();
      for (const page of typeof mediaId === "string" ? (pagesByMedia[mediaId] ?? []) : []) {
        const canvasId = urls.recordPart(record.id, "canvas", field.key, `p${page.page}`);
        if (canvasIds.has(canvasId)) pages.set(page.page, { canvasId, words: pageWords(page.words) });
      }
      scans.set(field.key, pages);
    }
  }
  return { timed, scans, firstCanvasId: manifest.items[0]!.id };
}

/** OCR words as stored, kept only where they have a box. */
function pageWords(words: readonly { t: unknown; x: unknown; y: unknown; w: unknown; h: unknown; c: unknown }[]): OcrWord[] {
  return words.filter(
    (word) => typeof word.t === "string" && [word.x, word.y, word.w, word.h].every((value) => typeof value === "number" && Number.isFinite(value)),
  ) as OcrWord[];
}

/** The record's passages for the query: hybrid (words when meaning is unavailable), words or a good match of meaning. */
async function recordPassages(dependencies: IiifSearchDependencies, principal: Principal, recordId: string, query: string): Promise<SearchResult["hits"]> {
  const context = await dependencies.search();
  const input = { query, limit: maxHits, recordIds: [recordId], collapse: "passage" as const };
  let result: SearchResult;
  try {
    result = await searchArchive(context, principal, { ...input, mode: "hybrid" });
  } catch (error) {
    if (!(isAppError(error) && error.code === "unavailable")) throw error;
    result = await searchArchive(context, principal, { ...input, mode: "keyword" });
  }
  const thresholds = await readMatchThresholds(context.sql);
  return result.hits.filter((hit) => hit.recordId === recordId && (hit.legs.includes("words") || (hit.similarity ?? 0) >= thresholds.good));
}

function jsonLd(body: unknown): Response {
  return new Response(JSON.stringify(body), {
    headers: { "content-type": contentSearchContentType, "cache-control": "private, no-cache", "x-content-type-options": "nosniff" },
  });
}

/** Whether the request's motivations take in this version's annotations (transcriptions: supplementing in 2.0, painting in 1.0). */
function motivationMatches(motivations: readonly string[] | undefined, version: 1 | 2): boolean {
  if (!motivations?.length) return true;
  return version === 2 ? motivations.some((value) => value === "supplementing" || value === "non-painting") : motivations.includes("painting");
}

export async function iiifSearchResponse(dependencies: IiifSearchDependencies, principal: Principal, request: IiifSearchRequest): Promise<Response> {
  takeAnonymousSearch(principal, request.limiter, request.clientAddress);
  const { values, ignored } = readParameters(request.url, ["q", "motivation"], searchParameters);
  const query = parseInput(searchQuerySchema, values);
  const { record, manifest } = await searchableRecord(dependencies.prisma, principal, request);
  const passages = motivationMatches(query.motivation, request.version) ? await recordPassages(dependencies, principal, record.id, query.q) : [];
  const layout = await recordLayout(dependencies.prisma, principal, record, manifest, request.origin);
  const fieldKeys = new Map(
    (
      await dependencies.prisma.chunk.findMany({
        where: { id: { in: passages.map((hit) => hit.passage.chunkId) }, recordId: record.id },
        select: { id: true, fieldKeys: true },
      })
    ).map((row) => [row.id, row.fieldKeys]),
  );
  const terms = queryTerms(query.q);
  const hits = passages
    .flatMap((hit) => {
      const passage: PassageToPlace = {
        chunkId: hit.passage.chunkId,
        text: hit.passage.text,
        language: hit.passage.language,
        fieldKeys: fieldKeys.get(hit.passage.chunkId) ?? [],
        page: hit.passage.page,
        pageEnd: hit.passage.pageEnd,
        timeStart: hit.passage.timeStart,
        timeEnd: hit.passage.timeEnd,
      };
      return placePassage(passage, layout, terms);
    })
    .slice(0, maxHits * 4);
  const id = `${request.origin.replace(/\/+$/, "")}${request.url.pathname}${request.url.search}`;
  const hitBase = iiifUrls(request.origin).recordPart(record.id, "search-hits");
  return jsonLd(request.version === 2 ? searchPage2({ id, hitBase, hits, ignored }) : searchList1({ id, hitBase, hits, ignored }));
}

export async function iiifAutocompleteResponse(dependencies: IiifSearchDependencies, principal: Principal, request: IiifSearchRequest): Promise<Response> {
  takeAnonymousSearch(principal, request.limiter, request.clientAddress);
  const { values, ignored } = readParameters(request.url, ["q", "motivation", "min"], autocompleteParameters);
  const query = parseInput(autocompleteQuerySchema, values);
  const { record, manifest } = await searchableRecord(dependencies.prisma, principal, request);
  const layout = await recordLayout(dependencies.prisma, principal, record, manifest, request.origin);
  const texts = [
    ...[...layout.timed.values()].flatMap((item) => item.items.map((entry) => entry.text)),
    ...[...layout.scans.values()].flatMap((pages) => [...pages.values()].map((page) => page.words.map((word) => word.t).join(" "))),
    ...record.section.fields.flatMap((field) =>
      field.type === "longtext" && typeof record.values[field.key] === "string" ? [record.values[field.key] as string] : [],
    ),
  ];
  const terms = motivationMatches(query.motivation, request.version) ? completeTerms(texts, query.q, { min: query.min }) : [];
  const id = `${request.origin.replace(/\/+$/, "")}${request.url.pathname}${request.url.search}`;
  const searchUrl = contentSearchUrls(iiifUrls(request.origin).recordPart(record.id));
  return jsonLd(request.version === 2 ? termPage2({ id, terms, ignored }) : termList1({ id, searchUrl: searchUrl.search1, terms, ignored }));
}
