import "server-only";
import { LRUCache } from "lru-cache";
import { type Principal, passageScopeSql } from "../../acl";
import { type SearchContext, type SearchHit, type SearchMode, type SearchResult, maxSearchLimit, searchArchive } from "./search-archive";

/**
 * The record list's search: a query resolves once to a ranked list of record ids, which the
 * list then uses as a pinned filter and order. Paging, sorting and filtering the hits reuse the
 * resolved list for a few minutes instead of embedding and searching again. The key holds
 * everything that can change the answer, including who asks and what they may read, so one
 * user's hits are never served to another; and a remembered list is served only while every
 * passage it shows is still there and readable by the principal — a record moved into a project
 * they cannot read, or a passage quoting it, resolves the search again (scope is never stale);
 * and only while nothing new was indexed into the space since — during a first indexing, a
 * search made early would otherwise hide for minutes the records indexed after it.
 */
export interface ResolvedSearch {
  result: SearchResult;
  /** Hits by record id, for the rows of the list. */
  byRecord: Map<string, SearchHit>;
  pinnedIds: string[];
  resolvedAt: number;
}

const ttlMs = 5 * 60_000;
const maxEntries = 200;
// On globalThis, so a dev server's reloaded module keeps it.
const globalForCache = globalThis as unknown as { mnemoResolvedSearchCache?: LRUCache<string, ResolvedSearch> };
const cache = (globalForCache.mnemoResolvedSearchCache ??= new LRUCache<string, ResolvedSearch>({ max: maxEntries }));

export interface RecordSearchRequest {
  query: string;
  mode: SearchMode;
  sectionIds?: string[];
  projectIds?: string[];
}

function cacheKey(context: SearchContext, principal: Principal, request: RecordSearchRequest): string {
  return JSON.stringify([
    principal.userId,
    principal.role,
    [...principal.readableProjectIds].sort(),
    context.space?.id ?? null,
    request.query.trim(),
    request.mode,
    request.sectionIds ?? [],
    request.projectIds ?? [],
  ]);
}

export async function resolveRecordSearch(
  context: SearchContext,
  principal: Principal,
  request: RecordSearchRequest,
): Promise<ResolvedSearch & { cached: boolean }> {
  const key = cacheKey(context, principal, request);
  const now = Date.now();
  // get() also moves the entry to the end of the eviction order.
  const hit = cache.get(key);
  if (hit && now - hit.resolvedAt < ttlMs && (await stillReadable(context, principal, hit)) && !(await indexedSince(context, hit.resolvedAt))) {
    return { ...hit, cached: true };
  }
  const result = await searchArchive(context, principal, { ...request, limit: maxSearchLimit, collapse: "record" });
  const resolved: ResolvedSearch = {
    result,
    byRecord: new Map(result.hits.map((item) => [item.recordId, item])),
    pinnedIds: result.hits.map((item) => item.recordId),
    resolvedAt: now,
  };
  cache.set(key, resolved);
  return { ...resolved, cached: false };
}

/** Whether every passage the remembered hits show still exists and may be read, as things are now. */
async function stillReadable(context: SearchContext, principal: Principal, resolved: ResolvedSearch): Promise<boolean> {
  const chunkIds = [...new Set(resolved.result.hits.map((hit) => hit.passage.chunkId))];
  if (chunkIds.length === 0) return true;
  const params: unknown[] = [chunkIds];
  const scope = passageScopeSql(principal, "c", params);
  const [row] = await context.sql.query<{ readable: number }>(
    `SELECT count(*)::int AS readable FROM chunks c WHERE c.id = ANY($1::text[]) AND ${scope}`,
    params,
  );
  return row?.readable === chunkIds.length;
}

/** Whether a passage was written into the active space after `since` (a record indexed or re-indexed). */
async function indexedSince(context: SearchContext, since: number): Promise<boolean> {
  if (!context.space) return false;
  // created_at is a timestamp without a zone holding UTC: the ISO instant cast drops its "Z".
  const [row] = await context.sql.query<{ fresh: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM chunks WHERE index_space_id = $1 AND created_at > $2::timestamp) AS fresh`,
    [context.space.id, new Date(since).toISOString()],
  );
  return row?.fresh === true;
}

/** For tests: forget every resolved search. */
export function clearResolvedSearches(): void {
  cache.clear();
}
