import "server-only";
import { z } from "zod";
import type { Principal } from "../../acl";
import type { PrismaClient } from "../../db/generated/client";
import { maxQueryLength } from "../../query-length";
import { searchModes, type SearchContext } from "../search/search-archive";
import { resolveRecordSearch } from "../search/resolve-search";

/**
 * What the chat panel sends as its scope, read from the page the user is on: sections by slug,
 * projects, records, or the record list's current search — which resolves to the same ranked
 * records the list shows (the cached resolution), so "these search results" means exactly them.
 */
export const panelScopeSchema = z
  .object({
    sectionSlugs: z.array(z.string().min(1).max(64)).max(20).optional(),
    projectIds: z.array(z.string().min(1).max(64)).max(20).optional(),
    recordIds: z.array(z.string().min(1).max(64)).max(500).optional(),
    search: z
      .object({
        q: z.string().trim().min(1).max(maxQueryLength),
        mode: z.enum(searchModes).catch("hybrid"),
        section: z.string().max(64).optional(),
        project: z.string().max(64).optional(),
      })
      .optional(),
  })
  .default({});

export type PanelScope = z.input<typeof panelScopeSchema>;

export async function resolvePanelScope(
  prisma: PrismaClient,
  search: SearchContext,
  principal: Principal,
  raw: unknown,
): Promise<{ sectionIds?: string[]; projectIds?: string[]; recordIds?: string[] }> {
  const parsed = panelScopeSchema.safeParse(raw);
  // An unreadable scope narrows to nothing rather than widening to everything.
  if (!parsed.success) return { recordIds: [] };
  const scope = parsed.data;
  const slugs = [...(scope.sectionSlugs ?? []), ...(scope.search?.section ? [scope.search.section] : [])];
  const sections = slugs.length > 0 ? await prisma.section.findMany({ where: { slug: { in: slugs } }, select: { id: true } }) : [];
  const sectionIds = slugs.length > 0 ? sections.map((section) => section.id) : undefined;
  const projectIds = scope.projectIds ?? (scope.search?.project ? [scope.search.project] : undefined);
  let recordIds = scope.recordIds;
  if (scope.search) {
    const resolved = await resolveRecordSearch(search, principal, { query: scope.search.q, mode: scope.search.mode, sectionIds, projectIds });
    recordIds = recordIds ? recordIds.filter((id) => resolved.pinnedIds.includes(id)) : resolved.pinnedIds;
  }
  return {
    ...(sectionIds ? { sectionIds: sectionIds.length > 0 ? sectionIds : ["-"] } : {}),
    ...(projectIds ? { projectIds } : {}),
    ...(recordIds ? { recordIds } : {}),
  };
}
