import "server-only";
import type { Principal } from "../../acl";
import { type SearchContext, type SearchHit, type SearchMode, type SearchResult, maxSearchLimit, searchArchive } from "./search-archive";

/**
 * The record list's search: a query resolves once to a ranked list of record ids, which the
 * list then uses as a pinned filter and order. Paging, sorting and filtering the hits reuse the
 * resolved list for a few minutes instead of embedding and searching again. The key holds
 * everything that can change the answer, including who asks and what they may read, so one
 * user's hits are never served to another.
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
const globalForCache = globalThis as unknown as { mnemoResolvedSearches?: Map<string, ResolvedSearch> };
const cache = (globalForCache.mnemoResolvedSearches ??= new Map());

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

export async function resolveRecordSearch(context: SearchContext, principal: Principal, request: RecordSearchRequest): Promise<ResolvedSearch & { cached: boolean }> {
  const key = cacheKey(context, principal, request);
  const now = Date.now();
  const hit = cache.get(key);
  if (hit && now - hit.resolvedAt < ttlMs) {
    // Refresh its place in the eviction order.
    cache.delete(key);
    cache.set(key, hit);
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
  while (cache.size > maxEntries) cache.delete(cache.keys().next().value!);
  return { ...resolved, cached: false };
}

/** For tests: forget every resolved search. */
export function clearResolvedSearches(): void {
  cache.clear();
}
