import type { Metadata } from "next";
import Link from "next/link";
import { listReadableProjects } from "@/lib/archive/list-projects";
import { listSections } from "@/lib/archive/sections";
import { authorizedPage } from "@/lib/http/authorized";
import { describeSavedSearch } from "@/lib/rag/search/saved-search-params";
import { listSavedSearchesWithNews, newSinceLastVisitCap } from "@/lib/rag/search/saved-searches";
import { formatDateTime } from "@/components/format";
import { DataTable } from "@/components/data-table";
import { PageHeader } from "@/components/page-header";
import { DeleteSavedSearchClient, RenameSavedSearchClient } from "./searches-client";

export const metadata: Metadata = { title: "Saved searches" };

/**
 * Your saved searches: each opens the record list as it was saved (the visit is recorded, so its
 * "new" count starts again) and says how many records you can read arrived since you last
 * opened it.
 */
export default async function SavedSearchesPage() {
  const { principal, runtime } = await authorizedPage("/account/searches");
  const { prisma, sql } = runtime.database;
  const [searches, sections, projects] = await Promise.all([
    listSavedSearchesWithNews({ prisma, sql, searchContext: runtime.search }, principal),
    listSections(prisma),
    listReadableProjects(prisma, principal),
  ]);
  const sectionNames = new Map(sections.map((section) => [section.slug, section.name]));
  const projectNames = new Map(projects.map((project) => [project.id, project.name]));
  const names = {
    section: (slug: string) => sectionNames.get(slug) ?? slug,
    // A project the user can no longer read is not named (nor its id shown).
    project: (id: string) => projectNames.get(id) ?? "you cannot read now",
  };
  return (
    <div>
      <PageHeader title="Saved searches">
        A saved search keeps the record list&apos;s search, filters and sort under a name. Open it here to see the list again; the count says how many records
        you can read were added or moved into your projects since you last opened it.
      </PageHeader>
      {searches.length === 0 ? (
        <div className="notice mt-6" data-testid="saved-searches-empty">
          <p className="font-medium text-stone-900">You have no saved searches yet.</p>
          <p className="mt-1">
            Search or filter the{" "}
            <Link href="/records" className="link">
              record list
            </Link>
            , then choose “Save this search” above the results and give it a name.
          </p>
        </div>
      ) : (
        <DataTable columns={["Name", "Search", "Saved", { label: "New since last visit", numeric: true }, "Actions"]} className="mt-6" testId="saved-searches">
          {searches.map((search) => (
            <tr key={search.id} className="border-b border-stone-100 align-top" data-testid="saved-search">
              <th scope="row" className="py-2 pr-3 font-medium">
                {/* A plain link: opening records the visit, so it must not be prefetched. */}
                <a href={`/account/searches/${search.id}/open`} className="link" data-testid="saved-search-link">
                  {search.name}
                </a>
              </th>
              <td className="py-2 pr-3 text-stone-700">{describeSavedSearch(search.params, names)}</td>
              <td className="whitespace-nowrap py-2 pr-3">{formatDateTime(search.createdAt)}</td>
              <td className="py-2 pr-3 text-right tabular-nums" data-testid="saved-search-new">
                {search.newSinceLastVisit ? (
                  <>
                    {search.newSinceLastVisit.capped ? `${newSinceLastVisitCap}+` : search.newSinceLastVisit.count} new
                    <span className="sr-only"> since {formatDateTime(search.lastVisitedAt)}</span>
                  </>
                ) : (
                  <span className="text-stone-500" title={search.problem}>
                    not counted<span className="sr-only">: {search.problem}</span>
                  </span>
                )}
              </td>
              <td className="py-2">
                <div className="flex flex-wrap items-start gap-2">
                  <RenameSavedSearchClient id={search.id} name={search.name} />
                  <DeleteSavedSearchClient id={search.id} name={search.name} />
                </div>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </div>
  );
}
