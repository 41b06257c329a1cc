import type { Metadata } from "next";
import Link from "next/link";
import { getIndexHealth } from "@/lib/admin/index-health";
import { listReindexJobs } from "@/lib/admin/reindex-jobs";
import { authorizedAdminPage } from "@/app/admin/authorized-admin-page";
import { formatAge, formatDateTime } from "@/components/format";
import { IndexActionsClient, JobProgressClient } from "./index-actions-client";
import { DataTable } from "@/components/data-table";
import { PageHeader } from "@/components/page-header";
import { PageSection } from "@/components/page-section";

export const metadata: Metadata = { title: "Administration" };

/** The pages an admin reaches from here, in the order of the navigation. */
const adminPages = [
  ["/admin/people", "People and projects"],
  ["/admin/audit", "Audit log"],
  ["/admin/spaces", "Index spaces and model switch"],
  ["/admin/thresholds", "Answer thresholds"],
  ["/golden", "Golden sets"],
] as const;

/**
 * The admin overview: the active index space and its coverage, every section's index health
 * with links to its embed groups and object context, reindexing with progress that survives a
 * reload. Anyone but an admin gets the not-found page.
 */
export default async function AdminPage() {
  const { principal, runtime } = await authorizedAdminPage("/admin");
  const { sql } = runtime.database;
  const [health, jobs] = await Promise.all([getIndexHealth(sql, principal), listReindexJobs(sql, principal)]);
  const running = jobs.filter((job) => job.finishedAt === null);
  const failed = health.sections.reduce((sum, section) => sum + section.failed, 0);
  const coverage = health.coverage.records ? health.coverage.indexed / health.coverage.records : 1;

  return (
    <div>
      <PageHeader title="Administration" />
      <nav aria-label="Administration" className="mt-2 flex flex-wrap gap-4 text-sm">
        {adminPages.map(([href, label]) => (
          <Link key={href} href={href} className="link">
            {label}
          </Link>
        ))}
      </nav>
      <PageSection id="index" title="Index" className="mt-6 rounded-lg border border-stone-200 bg-white p-4">
        <p className="mt-1 text-sm text-stone-700">
          Active space:{" "}
          <span className="font-medium" data-testid="active-space">
            {health.active?.name ?? "none yet"}
          </span>{" "}
          · {health.coverage.indexed} of {health.coverage.records} records indexed ({Math.floor(coverage * 100)}%)
        </p>
        <div className="mt-3 space-y-3">
          {running.map((job) => (
            <JobProgressClient key={job.id} jobId={job.id} label={`Reindexing ${job.sectionName ?? "every record"}`} />
          ))}
        </div>
        <div className="mt-3">
          <IndexActionsClient failed={failed} scopeLabel="everything" />
        </div>
        {jobs.some((job) => job.finishedAt) && (
          <details className="mt-3 text-sm">
            <summary className="cursor-pointer text-stone-700">Recent reindexes</summary>
            <ul className="mt-2 space-y-1 text-stone-600">
              {jobs
                .filter((job) => job.finishedAt)
                .map((job) => (
                  <li key={job.id}>
                    {job.sectionName ?? "Every record"}: {job.total} records, {job.failed} failed, finished{" "}
                    {job.finishedAt ? formatDateTime(job.finishedAt) : ""}
                  </li>
                ))}
            </ul>
          </details>
        )}
      </PageSection>

      <PageSection id="sections" title="Sections" className="mt-8">
        <DataTable
          columns={[
            "Section",
            { label: "Records", numeric: true },
            { label: "Indexed", numeric: true },
            { label: "Pending", numeric: true },
            { label: "Failed", numeric: true },
            { label: "Oldest pending", numeric: true },
            "Embed groups",
          ]}
          className="mt-3"
          testId="index-health"
        >
          {health.sections.map((section) => (
            <tr key={section.sectionId} className="border-b border-stone-100">
              <th scope="row" className="py-2 pr-3 font-medium">
                <Link href={`/admin/sections/${section.sectionSlug}`} className="link">
                  {section.sectionName}
                </Link>
              </th>
              <td className="py-2 pr-3 text-right tabular-nums">{section.records}</td>
              <td className="py-2 pr-3 text-right tabular-nums">{section.indexed}</td>
              <td className="py-2 pr-3 text-right tabular-nums">{section.pending + section.running}</td>
              <td className={`py-2 pr-3 text-right tabular-nums ${section.failed ? "font-semibold text-red-700" : ""}`}>{section.failed}</td>
              <td className="py-2 pr-3 text-right tabular-nums">{formatAge(section.oldestPendingSeconds)}</td>
              <td className="py-2 text-stone-600">{section.groups.map((group) => `${group.label} (${group.chunks})`).join(", ") || "none"}</td>
            </tr>
          ))}
        </DataTable>
      </PageSection>

      <PageSection id="spaces" title="Index spaces" className="mt-8">
        <ul className="mt-2 space-y-1 text-sm">
          {health.spaces.map((space) => (
            <li key={space.id}>
              <span className="font-medium">{space.name}</span> · {space.status} · {space.chunks} passages
              {space.activatedAt && ` · active since ${formatDateTime(space.activatedAt)}`}
            </li>
          ))}
        </ul>
      </PageSection>
    </div>
  );
}
