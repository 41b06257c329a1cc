import "server-only";
import type { Principal } from "../../acl";
import { getConfig } from "../../config";
import type { SqlExecutor } from "../../db/sql-executor";
import { AppError } from "../../errors";
import { searchSettings } from "../config/settings";
import { EmbeddingError, errorMessage } from "../embed/embedder";
import type { IndexSpace } from "../index/index-spaces";
import type { Bm25Parameters } from "./bm25";
import { type Leg, type LegList, fusePassages, fuseRecords, fusionWeights, lengthNormalisationFor } from "./fuse-legs";
import { type Snippet, queryTerms, snippet } from "./highlight";
import { type QueryEmbedding, embedQueryDetected, prepareQuery } from "./prepare-query";
import type { FusedItem } from "./reciprocal-rank-fusion";
import { denseLeg, keywordLeg, usesSearchSyntax } from "./retrieve-passages";
import { type Reranker, passThroughReranker, rerankCandidates, rerankSkippedNote } from "./rerank";
import { type DetailRow, passageDetails, passesGate } from "./search-gate";
import { type SearchMode, type SearchRequest, type SearchRequestInput, parseSearchRequest } from "./search-request";

/**
 * Hybrid search over the passages of the active index space: the query is embedded once (in
 * English through the translation bridge when the model is English-only), the dense and
 * keyword legs run with access in their SQL, their scores are fused (each scaled to the leg's
 * best, weighted by the space's measured share), the best candidates may be reranked, and every
 * candidate is checked again before a score, a title or a word of text leaves this module. Its
 * parts live beside it: the request (search-request.ts), the query's bridge reading and vector
 * (prepare-query.ts), fusion (fuse-legs.ts) and the gate (search-gate.ts); the tuned numbers are
 * searchSettings (lib/rag/config/settings.ts).
 */

// What callers outside search take from it, besides the search itself.
export { maxQueryLength, maxSearchLimit, searchModes, type SearchMode } from "./search-request";
export { embedQuery, prepareQuery } from "./prepare-query";
export { fuseRecords, recordRanking, type Leg } from "./fuse-legs";
export { passageDetails } from "./search-gate";

/** What a person is told when the embedding model fails; the technical reason goes to the log. */
export const meaningSearchUnavailableMessage =
  "Search by meaning is unavailable right now because the embedding service is not working. Searching by words (keyword mode) still works; try meaning again later.";

export interface SearchContext extends QueryEmbedding {
  sql: SqlExecutor;
  /** The active index space; null before anything was indexed. */
  space: IndexSpace | null;
  reranker?: Reranker;
  /** How many fused candidates the reranker sees (default: the rerankDepth setting). */
  rerankDepth?: number;
  /** BM25's parameters for the words leg instead of the settings and the space's measured b (benchmarks sweep them). */
  bm25?: Partial<Bm25Parameters>;
  /** Passages the meaning leg walks from the graph (default: MNEMO_DENSE_WALK; null: none, the page). */
  denseWalk?: number | null;
}

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

/** The HNSW beam of a dense leg (the denseEfSearch setting; docs/decisions/0003). */
export function denseEfSearch(): number {
  return searchSettings.denseEfSearch.value;
}

/**
 * How the meaning leg of a search reads the graph: the beam alone, or, with a walk
 * (MNEMO_DENSE_WALK, or the context's), a narrower beam and that many passages walked past it
 * before the nearest are kept — the walk, not the beam, then finds them (decision 0011).
 */
export function denseReading(context: Pick<SearchContext, "denseWalk">): { efSearch: number; walk?: number } {
  const walk = context.denseWalk === undefined ? getConfig().MNEMO_DENSE_WALK : context.denseWalk;
  return walk ? { efSearch: searchSettings.denseWalkEfSearch.value, walk } : { efSearch: denseEfSearch() };
}

/** The reading as benchmarks print it: "ef_search 400, walk 1500". */
export function denseReadingLabel(reading: { efSearch: number; walk?: number }): string {
  return `ef_search ${reading.efSearch}${reading.walk ? `, walk ${reading.walk}` : ""}`;
}

export interface LegResults {
  lists: LegList[];
  /** The query's detected language (null when meaning did not run). */
  language: string | null;
}

/**
 * How many passages each leg reads for a request: several passages of one record compete for one
 * row, so collapsing looks deeper.
 */
function legDepth(request: Pick<SearchRequest, "collapse" | "limit">): number {
  const pool =
    request.collapse === "record"
      ? request.limit * searchSettings.recordPoolPerResult.value + searchSettings.recordPoolExtra.value
      : request.limit * searchSettings.passagePoolPerResult.value + searchSettings.passagePoolExtra.value;
  return Math.min(searchSettings.candidatePoolMax.value, pool);
}

/** The legs a mode runs, each with access in its SQL, at the depth the page needs (legDepth). */
export async function runSearchLegs(
  context: SearchContext,
  principal: Principal,
  request: SearchRequest,
  space: IndexSpace,
  /** BM25's b for the words leg, instead of the space's measured one (calibration tries several). */
  options: { lengthNormalisation?: number } = {},
): Promise<LegResults> {
  const legOptions = {
    space,
    limit: legDepth(request),
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
  const b = options.lengthNormalisation ?? context.bm25?.b ?? lengthNormalisationFor(space.fusion, language);
  const bm25 = { ...(context.bm25?.k1 === undefined ? {} : { k1: context.bm25.k1 }), ...(b === undefined ? {} : { b }) };
  const secondPassage = space.fusion?.secondPassage;
  // The legs at once: on a server each takes a connection of its own, so hybrid waits for the
  // slower leg, not for both (the embedded database still answers them one after the other).
  const [meaning, words] = await Promise.all([
    vector ? denseLeg(context.sql, principal, vector, { ...legOptions, ...denseReading(context) }) : null,
    request.mode === "semantic" ? null : keywordLeg(context.sql, principal, keywordText(request.query, translatedText), { ...legOptions, bm25 }),
  ]);
  const lists: LegList[] = [];
  if (meaning) lists.push({ leg: "meaning", hits: meaning });
  if (words) lists.push({ leg: "words", hits: words, ...(secondPassage === undefined ? {} : { secondPassage }) });
  return { lists, language };
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

  const rerankDepth = reranker === passThroughReranker ? 0 : Math.max(request.limit, context.rerankDepth ?? searchSettings.rerankDepth.value);
  const shortlist = candidates.slice(0, Math.max(request.limit, rerankDepth));
  const details = await passageDetails(
    context.sql,
    principal,
    space.id,
    shortlist.map((candidate) => candidate.chunkId),
  );
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
