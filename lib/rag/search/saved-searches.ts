import "server-only";
import { z } from "zod";
import { type Principal, isAnonymous, isSystem, savedSearchScopeWhere } from "../../acl";
import { countRecordsSince } from "../../archive/list-records";
import type { PrismaClient } from "../../db/generated/client";
import { AppError, notFound, parseInput } from "../../errors";
import { isUuid } from "../../ids";
import { storableTextIssues } from "../../storable-text";
import { type RecordListViewDeps, resolveRecordList } from "./record-list-view";
import { maxSavedSearchNameLength } from "./saved-search-limits";
import { type SavedSearchParams, normaliseSavedSearchParams, readSavedSearchParams, savedSearchHref } from "./saved-search-params";

/**
 * Saved searches: a user's named record-list state (query, mode, section, project, filters,
 * sort — never the page), its link, and how many records arrived since they last opened it.
 * A saved search is its user's alone: anyone else — an admin included — gets "not found" for
 * it, exactly as for an id that does not exist (savedSearchScopeWhere in lib/acl). Not audited:
 * like ask threads it is a reader's own bookmark, changing nothing anyone else can see.
 */
/** Per user: keeps the page, and the searches its counts run, bounded. */
export const maxSavedSearchesPerUser = 100;
/** "New since last visit" counts up to this and then says "100+". */
export const newSinceLastVisitCap = 100;

const nameSchema = z
  .string({ error: "Name the search." })
  .trim()
  .min(1, "Name the search.")
  .max(maxSavedSearchNameLength, `A name can be at most ${maxSavedSearchNameLength} characters long.`);

export const newSavedSearchSchema = z
  .object({
    name: nameSchema,
    params: z.record(z.string().max(64), z.unknown(), { error: "Send the list's parameters as an object." }).default({}),
  })
  .superRefine(storableTextIssues);

export const renameSavedSearchSchema = z.object({ name: nameSchema }).superRefine(storableTextIssues);

export interface SavedSearchSummary {
  id: string;
  name: string;
  params: SavedSearchParams;
  /** The record list with these params. */
  href: string;
  createdAt: Date;
  lastVisitedAt: Date;
}

/** With its count: null when the search cannot run now (the reason in `problem`). */
export interface SavedSearchWithNews extends SavedSearchSummary {
  newSinceLastVisit: { count: number; capped: boolean } | null;
  problem?: string;
}

function summaryOf(row: { id: string; name: string; params: unknown; createdAt: Date; lastVisitedAt: Date }): SavedSearchSummary {
  const params = readSavedSearchParams(row.params);
  return { id: row.id, name: row.name, params, href: savedSearchHref(params), createdAt: row.createdAt, lastVisitedAt: row.lastVisitedAt };
}

function assertPerson(principal: Principal): void {
  if (isSystem(principal) || isAnonymous(principal)) throw new AppError("forbidden", "Sign in to save searches.");
}

const duplicateMessage = "You already have a saved search with this name; choose another.";
function duplicateName(): AppError {
  return new AppError("conflict", duplicateMessage, { fieldErrors: { name: [duplicateMessage] } });
}

/** Whether an error is the database refusing a second row with the same (user, name). */
function isDuplicateName(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "P2002";
}

async function assertNameFree(prisma: PrismaClient, principal: Principal, name: string, exceptId?: string): Promise<void> {
  // Names differing only in case would read as the same search in the list.
  const taken = await prisma.savedSearch.findFirst({
    where: { ...savedSearchScopeWhere(principal), name: { equals: name, mode: "insensitive" }, ...(exceptId ? { id: { not: exceptId } } : {}) },
    select: { id: true },
  });
  if (taken) throw duplicateName();
}

/**
 * Saves the list's state under a name: the params normalised (saved-search-params.ts), the
 * saving itself counted as a visit (the user has just seen the list).
 */
export async function createSavedSearch(prisma: PrismaClient, principal: Principal, input: unknown): Promise<SavedSearchSummary> {
  assertPerson(principal);
  const data = parseInput(newSavedSearchSchema, input);
  const params = normaliseSavedSearchParams(data.params);
  await assertNameFree(prisma, principal, data.name);
  const owned = await prisma.savedSearch.count({ where: savedSearchScopeWhere(principal) });
  if (owned >= maxSavedSearchesPerUser) {
    throw new AppError("conflict", `You have ${maxSavedSearchesPerUser} saved searches, the most one person can keep; delete one first.`);
  }
  try {
    const row = await prisma.savedSearch.create({ data: { userId: principal.userId, name: data.name, params } });
    return summaryOf(row);
  } catch (error) {
    if (isDuplicateName(error)) throw duplicateName();
    throw error;
  }
}

/** The principal's own saved searches, by name. */
export async function listSavedSearches(prisma: PrismaClient, principal: Principal): Promise<SavedSearchSummary[]> {
  const rows = await prisma.savedSearch.findMany({ where: savedSearchScopeWhere(principal), orderBy: [{ name: "asc" }, { id: "asc" }] });
  return rows.map(summaryOf);
}

/** One of the principal's saved searches; anyone else's, a malformed id and a missing one are the same 404. */
export async function getSavedSearch(prisma: PrismaClient, principal: Principal, id: string): Promise<SavedSearchSummary> {
  if (!isUuid(id)) throw notFound();
  const row = await prisma.savedSearch.findFirst({ where: { id, ...savedSearchScopeWhere(principal) } });
  if (!row) throw notFound();
  return summaryOf(row);
}

export async function renameSavedSearch(prisma: PrismaClient, principal: Principal, id: string, input: unknown): Promise<SavedSearchSummary> {
  if (!isUuid(id)) throw notFound();
  const data = parseInput(renameSavedSearchSchema, input);
  await getSavedSearch(prisma, principal, id);
  await assertNameFree(prisma, principal, data.name, id);
  try {
    const updated = await prisma.savedSearch.updateMany({ where: { id, ...savedSearchScopeWhere(principal) }, data: { name: data.name } });
    if (updated.count === 0) throw notFound();
  } catch (error) {
    if (isDuplicateName(error)) throw duplicateName();
    throw error;
  }
  return getSavedSearch(prisma, principal, id);
}

export async function deleteSavedSearch(prisma: PrismaClient, principal: Principal, id: string): Promise<void> {
  if (!isUuid(id)) throw notFound();
  const deleted = await prisma.savedSearch.deleteMany({ where: { id, ...savedSearchScopeWhere(principal) } });
  if (deleted.count === 0) throw notFound();
}

/** Opens a saved search: records the visit (the "new" count starts again from now) and gives the list's link. */
export async function openSavedSearch(prisma: PrismaClient, principal: Principal, id: string): Promise<string> {
  if (!isUuid(id)) throw notFound();
  const updated = await prisma.savedSearch.updateMany({ where: { id, ...savedSearchScopeWhere(principal) }, data: { lastVisitedAt: new Date() } });
  if (updated.count === 0) throw notFound();
  return (await getSavedSearch(prisma, principal, id)).href;
}

/**
 * How many records the principal can read NOW that match the saved search and arrived (were
 * created, or moved to another project) after its last visit, up to newSinceLastVisitCap + 1.
 * The search runs exactly as the list runs it (resolveRecordList: the filters validated, a text
 * query searched by the same search, its ranked hits pinned), and the count is taken over
 * readable records only, access first in the SQL — a record moved into a project the user
 * cannot read leaves the count, whatever it matched when the search was saved.
 */
export async function countNewSinceLastVisit(
  deps: RecordListViewDeps,
  principal: Principal,
  saved: SavedSearchSummary,
): Promise<Pick<SavedSearchWithNews, "newSinceLastVisit" | "problem">> {
  const { view, listQuery } = await resolveRecordList(deps, principal, saved.params);
  if (!listQuery) return { newSinceLastVisit: null, problem: view.problem ?? view.searchProblem?.message ?? "This search cannot run now." };
  const count = await countRecordsSince(deps.sql, principal, listQuery, {
    since: saved.lastVisitedAt,
    cap: newSinceLastVisitCap,
    pinnedIds: view.search?.pinnedIds,
  });
  return { newSinceLastVisit: { count: Math.min(count, newSinceLastVisitCap), capped: count > newSinceLastVisitCap } };
}

/** The principal's saved searches, each with its "new since last visit" count (run one after another: searches may load a model). */
export async function listSavedSearchesWithNews(deps: RecordListViewDeps, principal: Principal): Promise<SavedSearchWithNews[]> {
  const searches = await listSavedSearches(deps.prisma, principal);
  const withNews: SavedSearchWithNews[] = [];
  for (const saved of searches) withNews.push({ ...saved, ...(await countNewSinceLastVisit(deps, principal, saved)) });
  return withNews;
}
