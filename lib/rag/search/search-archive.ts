import "server-only";
import { z } from "zod";
import { type Principal, canReadPassage, egressAllowedSql, passageScopeSql } from "../../acl";
import { getConfig } from "../../config";
import type { SqlExecutor } from "../../db/sql-executor";
import { AppError, parseInput } from "../../errors";
import { maxQueryLength, queryTextSchema } from "../../query-length";
import { storableTextIssues } from "../../storable-text";
import { prepareForEmbedding, type PrepareOptions, type PreparedText } from "../embed/bridge-text";
import { EmbeddingError, errorMessage, type Embedder } from "../embed/embedder";
import type { FusionCalibration, FusionSlice, IndexSpace } from "../index/index-spaces";
import { type Snippet, queryTerms, snippet } from "./highlight";
import type { FusedItem } from "./reciprocal-rank-fusion";
import { type PassageHit, denseLeg, keywordLeg, usesSearchSyntax } from "./retrieve-passages";
import { type Reranker, passThroughReranker, rerankCandidates, rerankSkippedNote } from "./rerank";
import { type ScoredList, scoreFusion } from "./score-fusion";

/**
 * Hybrid search over the passages of the active index space: the query is embedded once (in
 * English through the translation bridge when the model is English-only), the dense and
 * keyword legs run with access in their SQL, their scores are fused (each scaled to the leg's
 * best, weighted by the space's measured share), the best candidates may be reranked, and every candidate is checked again before a score,
 * a title or a word of text leaves this module.
 */
export const searchModes = ["hybrid", "semantic", "keyword"] as const;
export type SearchMode = (typeof searchModes)[number];
export { maxQueryLength };
/** What a person is told when the embedding model fails; the technical reason goes to the log. */
export const meaningSearchUnavailableMessage =
  "Search by meaning is unavailable right now because the embedding service is not working. Searching by words (keyword mode) still works; try meaning again later.";
export const maxSearchLimit = 50;

const clampLimit = (value: number) => Math.max(1, Math.min(maxSearchLimit, Math.trunc(value)));
const idList = z.array(z.string().min(1).max(64)).max(100);

/** A search request at the boundary: limits are clamped, the query is bounded, text must be storable. */
export const searchRequestSchema = z
  .object({
    query: queryTextSchema({
      what: "A search",
      missing: "A search needs some text.",
      tooShort: "Type something to search for.",
      tooLongHint: "; shorten it or use a few key words",
    }),
    mode: z.enum(searchModes).catch("hybrid"),
    limit: z.coerce.number().catch(10).transform((value) => (Number.isFinite(value) ? clampLimit(value) : 10)),
    sectionIds: idList.optional(),
    projectIds: idList.optional(),
    embedGroupId: z.string().min(1).max(64).optional(),
    recordIds: z.array(z.string().min(1).max(64)).max(500).optional(),
    collapse: z.enum(["record", "passage"]).catch("record"),
  })
  .superRefine(storableTextIssues);
export type SearchRequest = z.output<typeof searchRequestSchema>;
/** What callers pass; anything missing takes its default, anything out of range is clamped. */
export interface SearchRequestInput {
  query: string;
  mode?: SearchMode;
  limit?: number;
  sectionIds?: string[];
  projectIds?: string[];
  embedGroupId?: string;
  /** Only these records (e.g. the current search results). */
  recordIds?: string[];
  collapse?: "record" | "passage";
}

export interface SearchContext {
  sql: SqlExecutor;
  embedder: Embedder;
  /** The active index space; null before anything was indexed. */
  space: IndexSpace | null;
  reranker?: Reranker;
  /** How many fused candidates the reranker sees (default 30). */
  rerankDepth?: number;
  /** Translation bridge and language detection for the query (tests substitute them). */
  prepare?: PrepareOptions;
}

export type Leg = "meaning" | "words";

export interface SearchHit {
  recordId: string;
  recordTitle: string;
  sectionSlug: string;
  sectionName: string;
  projectId: string;
  passage: {
    chunkId: string;
    groupLabel: string;
    headingPath: string[];
    language: string;
    page: number | null;
    pageEnd: number | null;
    timeStart: number | null;
    timeEnd: number | null;
    startOffset: number;
    endOffset: number;
    /** The passage as written, around the matched words. */
    snippet: Snippet;
    /** The bridge's English translation, when it matched words the original did not. */
    translation?: Snippet;
    /** The passage's whole text, for the ask pipeline (never sent to the browser by the list). */
    text: string;
    /** The bridge's whole English translation, when the passage has one. */
    translatedText: string | null;
    /** Whether its section and every contributing section allow external providers. */
    externalAllowed: boolean;
    /** The records whose text the passage holds: an answer quoting it is kept only for their readers. */
    sourceRecordIds: string[];
  };
  /** Fused relevance scaled to 0..1: 1 is first place in every leg that ran. */
  score: number;
  /** The legs that found the passage (record mode: any passage of the record). */
  legs: Leg[];
  /** Cosine similarity of the best passage, when the meaning leg found it. */
  similarity: number | null;
}

export interface SearchResult {
  query: string;
  mode: SearchMode;
  hits: SearchHit[];
  /**
   * Which reranker ordered the hits and how many passages it was not allowed to see; when it
   * failed, a note for the reader (the hits then keep their fused order).
   */
  rerank: { name: string; applied: boolean; withheld: number; note?: string };
}

type Candidate = {
  chunkId: string;
  recordId: string;
  fused: FusedItem;
  legs: Set<Leg>;
};

export type DetailRow = {
  id: string;
  record_id: string;
  project_id: string;
  section_id: string;
  contributing_project_ids: string[];
  contributing_record_ids: string[] | null;
  text: string;
  translated_text: string | null;
  language: string;
  heading_path: string[];
  page: number | null;
  page_end: number | null;
  time_start: number | null;
  time_end: number | null;
  start_offset: number;
  end_offset: number;
  record_title: string;
  section_slug: string;
  section_name: string;
  group_label: string;
  external_ok: boolean;
};

/**
 * Records best first by one leg: by meaning, a record's closest passage; by words, its best
 * passage's score plus its second best's at a share (`secondPassage`, MNEMO_BM25_SECOND_PASSAGE,
 * 1 by default: the sum of the two) — a document's evidence rather than one fragment's (a title
 * in one passage and the matching sentence in another add up), without letting a long document
 * win by having forty passages that each share a common word. On the full demo's dev half the
 * sum of every passage ranked records at keyword nDCG@10 0.662, the best two at 0.716. On
 * SciFact, whose abstracts are one to three passages, the second passage costs what it brings:
 * the best alone scores 0.693 on the report half where the sum of two scores 0.652 (see
 * docs/quality.md, "Retrieval quality"); the archive's dev half keeps 1 (keyword 0.721 at 1,
 * 0.710 at 0.25, 0.707 at 0).
 */
export const passagesPerRecordByWords = 2;

export function recordRanking(list: { leg: Leg; hits: readonly PassageHit[]; secondPassage?: number }): string[] {
  return recordScores(list).map((entry) => entry.id);
}

/** recordRanking's records with their scores, best first. */
export function recordScores(list: { leg: Leg; hits: readonly PassageHit[]; secondPassage?: number }): { id: string; score: number }[] {
  const scores = new Map<string, number[]>();
  for (const hit of list.hits) {
    const kept = scores.get(hit.recordId) ?? [];
    kept.push(hit.score);
    scores.set(hit.recordId, kept);
  }
  const second = list.leg === "words" ? (list.secondPassage ?? getConfig().MNEMO_BM25_SECOND_PASSAGE) : 0;
  const score = (values: number[]) =>
    list.leg === "words"
      ? values
          .sort((a, b) => b - a)
          .slice(0, passagesPerRecordByWords)
          .reduce((sum, value, at) => sum + (at === 0 ? value : second * value), 0)
      : Math.max(...values);
  // Ties keep the order of each record's first passage in the leg (a stable sort over the map's
  // first-appearance order), which the leg gives by content; never by record id (see
  // reciprocal-rank-fusion.ts).
  return [...scores.entries()]
    .map(([id, values]) => [id, score(values)] as const)
    .sort((a, b) => b[1] - a[1])
    .map(([id, score]) => ({ id, score }));
}

/** Leg weights of a fusion; a leg not named weighs 1. */
export type LegWeights = Partial<Record<Leg, number>>;

/**
 * A leg's score for an item it did not list (see score-fusion.ts): every passage has a cosine, at
 * most the lowest listed; a passage the words leg did not list mostly shares no rare word.
 */
const unlisted: Record<Leg, ScoredList["unlisted"]> = { meaning: "lowest", words: "zero" };

/** Score fusion of the legs' record scores (collapse "record"). */
export function fuseRecords(lists: readonly { leg: Leg; hits: readonly PassageHit[]; secondPassage?: number }[], weights: LegWeights = {}): FusedItem[] {
  return scoreFusion(lists.map((list) => ({ leg: list.leg, items: recordScores(list), weight: weights[list.leg] ?? 1, unlisted: unlisted[list.leg] })));
}

/** Score fusion of the legs' passages (collapse "passage", and each record's best passage). */
export function fusePassages(lists: readonly { leg: Leg; hits: readonly PassageHit[] }[], weights: LegWeights = {}): FusedItem[] {
  return scoreFusion(
    lists.map((list) => ({ leg: list.leg, items: list.hits.map((hit) => ({ id: hit.chunkId, score: hit.score })), weight: weights[list.leg] ?? 1, unlisted: unlisted[list.leg] })),
  );
}

/**
 * The weights hybrid search gives its legs for a query in `language`: the space's measured
 * meaning share for that language, else its overall share, else equal weights. The weights sum
 * to 1: meaning gets the share, words the rest.
 */
export function fusionWeights(fusion: FusionCalibration | null | undefined, language: string | null): Required<LegWeights> {
  const share = (fusion && language && language in fusion.meaningShare ? fusion.meaningShare[language as FusionSlice] : undefined) ?? fusion?.meaningShare.all ?? 0.5;
  return { meaning: share, words: 1 - share };
}

/**
 * BM25's length normalisation for a query in `language`: the space's measured b for that
 * language, else its overall one, else undefined (MNEMO_BM25_B).
 */
export function lengthNormalisationFor(fusion: Pick<FusionCalibration, "lengthNormalisation"> | null | undefined, language: string | null): number | undefined {
  const measured = fusion?.lengthNormalisation;
  if (!measured) return undefined;
  return (language && language in measured ? measured[language as FusionSlice] : undefined) ?? measured.all;
}

// Queries prepared by the process's bridge, newest last: Apertium costs a second or more a run,
// and paging through results or switching modes asks for the same query again.
const preparedQueries = new Map<string, PreparedText>();
const preparedQueryLimit = 500;

/**
 * The bridge's reading of a query (language, English translation), remembered per model
 * language: the search and the ask pipeline that follows it read a question once.
 */
export async function prepareQuery(context: Pick<SearchContext, "embedder" | "prepare">, query: string): Promise<PreparedText | undefined> {
  // Tests substitute the bridge: their answers are never remembered for the process.
  if (context.prepare) return (await prepareForEmbedding([{ text: query }], context.embedder, context.prepare))[0];
  const key = `${context.embedder.language}\u0000${query}`;
  const known = preparedQueries.get(key);
  if (known) {
    preparedQueries.delete(key);
    preparedQueries.set(key, known);
    return known;
  }
  const [prepared] = await prepareForEmbedding([{ text: query }], context.embedder);
  if (prepared) {
    preparedQueries.set(key, prepared);
    if (preparedQueries.size > preparedQueryLimit) preparedQueries.delete(preparedQueries.keys().next().value!);
  }
  return prepared;
}

/** Embeds a query for the space's model: translated to English first when the model needs it. */
export async function embedQuery(context: Pick<SearchContext, "embedder" | "prepare">, query: string): Promise<Float32Array> {
  return (await embedQueryDetected(context, query)).vector;
}

/**
 * embedQuery, with the query's language as detected for the bridge ("und" when too short) and
 * the bridge's English translation of it (null when none was made).
 */
export async function embedQueryDetected(
  context: Pick<SearchContext, "embedder" | "prepare">,
  query: string,
): Promise<{ vector: Float32Array; language: string; translatedText: string | null }> {
  const prepared = await prepareQuery(context, query);
  const [vector] = await context.embedder.embed([prepared?.embeddedText ?? query], "query");
  if (!vector) throw new EmbeddingError("The embedder returned no vector for the query.", { retryable: false });
  return { vector, language: prepared?.language ?? "und", translatedText: prepared?.translatedText ?? null };
}

/**
 * What the words leg searches for: the query as typed and, for a Spanish or Catalan query, its
 * English translation too — English records (and the English translations kept beside Spanish
 * and Catalan passages) then match a query in the other languages. Search syntax (quotes, OR,
 * minus) keeps the query as typed.
 */
function keywordText(query: string, translatedText: string | null): string {
  if (!translatedText || usesSearchSyntax(query)) return query;
  return `${query}\n${translatedText}`;
}

/** The configured model must be the one that built the space, or vectors are incomparable. */
export function assertSearchable(context: SearchContext): IndexSpace {
  const space = context.space;
  if (!space) throw new AppError("unavailable", "Nothing has been indexed yet, so there is nothing to search by meaning. Keyword filters still work.");
  const { embedder } = context;
  if (embedder.provider !== space.provider || embedder.model !== space.model || embedder.dimension !== space.dimension) {
    throw new AppError(
      "unavailable",
      `The active index was built with ${space.provider}/${space.model} (${space.dimension} dimensions) but this server embeds queries with ` +
        `${embedder.provider}/${embedder.model} (${embedder.dimension}); search by meaning is unavailable until they match.`,
    );
  }
  return space;
}

/** A hit as it leaves search: the passage's details with how it was found. */
export function searchHitOf(
  row: DetailRow,
  found: { snippet: Snippet; translation?: Snippet; score: number; legs: Leg[]; similarity: number | null },
): SearchHit {
  return {
    recordId: row.record_id,
    recordTitle: row.record_title,
    sectionSlug: row.section_slug,
    sectionName: row.section_name,
    projectId: row.project_id,
    passage: {
      chunkId: row.id,
      groupLabel: row.group_label,
      headingPath: row.heading_path,
      language: row.language,
      page: row.page,
      pageEnd: row.page_end,
      timeStart: row.time_start,
      timeEnd: row.time_end,
      startOffset: row.start_offset,
      endOffset: row.end_offset,
      snippet: found.snippet,
      text: row.text,
      translatedText: row.translated_text,
      externalAllowed: row.external_ok,
      sourceRecordIds: row.contributing_record_ids?.length ? row.contributing_record_ids : [row.record_id],
      ...(found.translation ? { translation: found.translation } : {}),
    },
    score: found.score,
    legs: found.legs,
    similarity: found.similarity,
  };
}

export async function passageDetails(sql: SqlExecutor, principal: Principal, spaceId: string, chunkIds: string[]): Promise<Map<string, DetailRow>> {
  if (chunkIds.length === 0) return new Map();
  const params: unknown[] = [chunkIds, spaceId];
  const externalAllowed = egressAllowedSql({ policy: "s.egress_policy", contributingSectionIds: "c.contributing_section_ids" }, params);
  const scope = passageScopeSql(principal, "c", params);
  const rows = await sql.query<DetailRow>(
    `SELECT c.id, c.record_id, c.project_id, c.section_id, c.contributing_project_ids, c.contributing_record_ids, c.text, c.translated_text,
            c.language, c.heading_path, c.page, c.page_end, c.time_start, c.time_end, c.start_offset, c.end_offset,
            r.title AS record_title, s.slug AS section_slug, s.name AS section_name, g.label AS group_label,
            ${externalAllowed} AS external_ok
       FROM chunks c
       JOIN records r ON r.id = c.record_id
       JOIN sections s ON s.id = c.section_id
       JOIN embed_groups g ON g.id = c.embed_group_id
      WHERE c.id = ANY($1::text[]) AND c.index_space_id = $2 AND ${scope}`,
    params,
  );
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * The gate: a candidate leaves only if the principal may read its record's project and every
 * project whose text it contains, and it lies inside the requested section and project scope.
 */
function passesGate(principal: Principal, request: SearchRequest, row: DetailRow): boolean {
  if (!canReadPassage(principal, { projectId: row.project_id, contributingProjectIds: row.contributing_project_ids })) return false;
  if (request.sectionIds?.length && !request.sectionIds.includes(row.section_id)) return false;
  if (request.projectIds?.length && !request.projectIds.includes(row.project_id)) return false;
  if (request.recordIds && !request.recordIds.includes(row.record_id)) return false;
  return true;
}

/**
 * The HNSW beam of a dense leg: pgvector's largest, 1,000. At 100,000
 * passages (bench:scale) a beam of 400 found 0.86 of the exact top ten under the access filter,
 * 1,000 found 0.97–0.98 for 8 ms more a query; at the demo's size both are exact.
 */
export function denseEfSearch(): number {
  return 1000;
}

/** One leg's passages; a words list may carry the share of a record's second passage (recordScores). */
export interface LegList {
  leg: Leg;
  hits: PassageHit[];
  secondPassage?: number;
}

export interface LegResults {
  lists: LegList[];
  /** The query's detected language (null when meaning did not run). */
  language: string | null;
}

/**
 * The legs a mode runs, each with access in its SQL, at the depth the page needs: several
 * passages of one record compete for one row, so collapsing looks deeper.
 */
export async function runSearchLegs(
  context: SearchContext,
  principal: Principal,
  request: SearchRequest,
  space: IndexSpace,
  /** BM25's b for the words leg, instead of the space's measured one (calibration tries several). */
  options: { lengthNormalisation?: number } = {},
): Promise<LegResults> {
  const depth = Math.min(200, request.collapse === "record" ? request.limit * 4 + 20 : request.limit * 2 + 10);
  const legOptions = {
    space,
    limit: depth,
    sectionIds: request.sectionIds,
    projectIds: request.projectIds,
    embedGroupId: request.embedGroupId,
    recordIds: request.recordIds,
  };

  let language: string | null = null;
  let translatedText: string | null = null;
  let vector: Float32Array | null = null;
  if (request.mode !== "keyword") {
    try {
      ({ vector, language, translatedText } = await embedQueryDetected(context, request.query));
    } catch (error) {
      if (error instanceof EmbeddingError) {
        console.warn(`[search] the query could not be embedded: ${errorMessage(error)}`);
        throw new AppError("unavailable", meaningSearchUnavailableMessage, { cause: error });
      }
      throw error;
    }
  } else if (!usesSearchSyntax(request.query)) {
    // The bridge is local (detection and Apertium), so words mode does not need the embedder.
    const prepared = await prepareQuery(context, request.query);
    translatedText = prepared?.translatedText ?? null;
    language = prepared?.language ?? null;
  }
  // How much a long passage is discounted, as measured in this space for the query's language.
  const b = options.lengthNormalisation ?? lengthNormalisationFor(space.fusion, language);
  const secondPassage = space.fusion?.secondPassage;
  // The legs at once: on a server each takes a connection of its own, so hybrid waits for the
  // slower leg, not for both (the embedded database still answers them one after the other).
  const [meaning, words] = await Promise.all([
    // The graph over near-duplicate catalogue vectors needs a wide beam: on the full demo, ef 120
    // ranked records at nDCG@10 0.289 where exact search (and ef 400) scored 0.364.
    vector ? denseLeg(context.sql, principal, vector, { ...legOptions, efSearch: denseEfSearch() }) : null,
    request.mode === "semantic"
      ? null
      : keywordLeg(context.sql, principal, keywordText(request.query, translatedText), { ...legOptions, bm25: b === undefined ? undefined : { b } }),
  ]);
  const lists: LegList[] = [];
  if (meaning) lists.push({ leg: "meaning", hits: meaning });
  if (words) lists.push({ leg: "words", hits: words, ...(secondPassage === undefined ? {} : { secondPassage }) });
  return { lists, language };
}

/** Parses a search request at the boundary, naming each bad field. */
export function parseSearchRequest(input: SearchRequestInput): SearchRequest {
  return parseInput(searchRequestSchema, input);
}

export async function searchArchive(context: SearchContext, principal: Principal, input: SearchRequestInput): Promise<SearchResult> {
  const request = parseSearchRequest(input);
  const space = request.mode === "keyword" ? context.space : assertSearchable(context);
  const reranker = context.reranker ?? passThroughReranker;
  const empty: SearchResult = { query: request.query, mode: request.mode, hits: [], rerank: { name: reranker.name, applied: false, withheld: 0 } };
  if (!space) return empty;

  const { lists, language } = await runSearchLegs(context, principal, request, space);
  // Hybrid trusts each leg as far as it measured well in this space, for the query's language.
  const weights = request.mode === "hybrid" ? fusionWeights(space.fusion, language) : { meaning: 1, words: 1 };
  const fused = fusePassages(lists, weights);
  const recordOf = new Map(lists.flatMap((list) => list.hits.map((hit) => [hit.chunkId, hit.recordId] as const)));
  const similarityOf = new Map((lists.find((list) => list.leg === "meaning")?.hits ?? []).map((hit) => [hit.chunkId, hit.score]));

  // Collapse: a record's row is its best passage; the legs are those that found any of its passages.
  let candidates: Candidate[] = fused.map((item) => ({
    chunkId: item.id,
    recordId: recordOf.get(item.id)!,
    fused: item,
    legs: new Set(Object.keys(item.ranks) as Leg[]),
  }));
  if (request.collapse === "record") {
    // A record ranks by its own evidence: by meaning, its closest passage; by words, its best
    // passage plus the space's share of its second best (recordScores: a title in one passage
    // and the matching sentence in another still add up). The two record rankings are fused;
    // the row shows the record's best passage of the passage-level fusion.
    const byRecord = new Map<string, Candidate>();
    for (const candidate of candidates) {
      const best = byRecord.get(candidate.recordId);
      if (best) candidate.legs.forEach((leg) => best.legs.add(leg));
      else byRecord.set(candidate.recordId, candidate);
    }
    candidates = fuseRecords(lists, weights).map((item) => ({ ...byRecord.get(item.id)!, fused: item }));
  }

  const rerankDepth = reranker === passThroughReranker ? 0 : Math.max(request.limit, context.rerankDepth ?? 30);
  const shortlist = candidates.slice(0, Math.max(request.limit, rerankDepth));
  const details = await passageDetails(context.sql, principal, space.id, shortlist.map((candidate) => candidate.chunkId));
  const gated = shortlist.filter((candidate) => {
    const row = details.get(candidate.chunkId);
    return row !== undefined && passesGate(principal, request, row);
  });

  const reranked = await rerankCandidates(
    reranker,
    request.query,
    gated.map((candidate) => {
      const row = details.get(candidate.chunkId)!;
      return { ...candidate, id: candidate.chunkId, text: row.text, egressPolicy: row.external_ok ? ("allow_external" as const) : ("local_only" as const) };
    }),
  );

  if (reranked.error) console.warn(`[search] the ${reranker.name} reranker failed; keeping the fused order: ${reranked.error}`);

  const terms = queryTerms(request.query);
  // 1 = first place in every leg that ran, at its weight.
  const best = lists.reduce((sum, list) => sum + weights[list.leg], 0);
  const hits = reranked.ordered.slice(0, request.limit).map((candidate): SearchHit => {
    const row = details.get(candidate.chunkId)!;
    const original = snippet(row.text, terms);
    const translated = row.translated_text ? snippet(row.translated_text, terms) : undefined;
    return searchHitOf(row, {
      snippet: original,
      ...(translated && translated.highlights.length > original.highlights.length ? { translation: translated } : {}),
      score: Math.min(1, candidate.fused.score / best),
      legs: (["meaning", "words"] as const).filter((leg) => candidate.legs.has(leg)),
      similarity: similarityOf.get(candidate.chunkId) ?? null,
    });
  });
  return {
    query: request.query,
    mode: request.mode,
    hits,
    rerank: { name: reranker.name, applied: reranked.reranked, withheld: reranked.withheld, ...(reranked.error ? { note: rerankSkippedNote } : {}) },
  };
}
