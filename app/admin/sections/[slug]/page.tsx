import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { fieldPathOptions, listPreviewRecords } from "@/lib/admin/embed-group-admin";
import { getIndexHealth } from "@/lib/admin/index-health";
import { listReindexJobs } from "@/lib/admin/reindex-jobs";
import { readSectionSettings } from "@/lib/archive/sections";
import { authorizedAdminPage } from "@/app/admin/authorized-admin-page";
import { listEmbedGroups, sectionShapes } from "@/lib/rag/config/embed-groups";
import { readObjectContext } from "@/lib/rag/config/object-context";
import { formatAge, formatDateTime } from "@/components/format";
import { IndexActionsClient, JobProgressClient } from "../../index-actions-client";
import { egressStatements } from "@/lib/admin/people/set-section-egress";
import { EgressClient } from "./egress-client";
import { DcMappingClient } from "./dc-mapping-client";
import { getSectionDcMapping } from "@/lib/admin/section-dc-mapping";
import { EmbedGroupEditorClient } from "./embed-group-editor-client";
import { AdminPageHeader } from "@/components/page-header";
import { PageSection } from "@/components/page-section";

export const metadata: Metadata = { title: "Section" };

/**
 * One section for an admin: its index health (with the errors of failed records), reindex and
 * retry, its embed groups with the editor and live preview, and its object context.
 */
export default async function AdminSectionPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { principal, runtime } = await authorizedAdminPage(`/admin/sections/${encodeURIComponent(slug)}`);
  const { prisma, sql } = runtime.database;
  const sections = await sectionShapes(prisma);
  const section = sections.get(slug);
  if (!section) notFound();
  const [health, jobs, groups, records, row, dublinCore] = await Promise.all([
    getIndexHealth(sql, principal, { failuresPerSection: 20 }),
    listReindexJobs(sql, principal, 10),
    listEmbedGroups(prisma, section.id),
    listPreviewRecords(prisma, section.id),
    readSectionSettings(prisma, section.id),
    getSectionDcMapping(prisma, principal, section.slug),
  ]);
  const stats = health.sections.find((candidate) => candidate.sectionId === section.id);
  const running = jobs.filter((job) => job.finishedAt === null && (job.sectionId === section.id || job.sectionId === null));
  const paths = fieldPathOptions(sections, section.slug);

  return (
    <div>
      <AdminPageHeader title={section.name} />

      <PageSection id="health" title="Index health" className="mt-6 rounded-lg border border-stone-200 bg-white p-4">
        {stats ? (
          <dl className="mt-2 grid grid-cols-2 gap-2 text-sm sm:grid-cols-5" data-testid="section-health">
            {[
              ["Records", stats.records],
              ["Indexed", stats.indexed],
              ["Pending", stats.pending + stats.running],
              ["Failed", stats.failed],
              ["Oldest pending", formatAge(stats.oldestPendingSeconds)],
            ].map(([label, value]) => (
              <div key={label}>
                <dt className="text-stone-500">{label}</dt>
                <dd className="text-lg font-semibold tabular-nums">{value}</dd>
              </div>
            ))}
          </dl>
        ) : (
          <p className="mt-2 text-sm text-stone-600">No active index space yet.</p>
        )}
        <div className="mt-3 space-y-3">
          {running.map((job) => (
            <JobProgressClient key={job.id} jobId={job.id} label={`Reindexing ${job.sectionName ?? "every record"}`} />
          ))}
        </div>
        <div className="mt-3">
          <IndexActionsClient sectionSlug={section.slug} failed={stats?.failed ?? 0} scopeLabel="this section" />
        </div>
        {stats && stats.failures.length > 0 && (
          <details className="mt-3 text-sm" open>
            <summary className="cursor-pointer font-medium text-red-800">Failed records</summary>
            <ul className="mt-2 space-y-1">
              {stats.failures.map((failure) => (
                <li key={failure.recordId}>
                  <Link href={`/records/${failure.recordId}`} className="link">
                    {failure.title}
                  </Link>{" "}
                  <span className="text-stone-600">
                    — {failure.error} ({failure.attempts} attempt{failure.attempts === 1 ? "" : "s"}, {formatDateTime(failure.at)})
                  </span>
                </li>
              ))}
            </ul>
          </details>
        )}
      </PageSection>

      <PageSection id="groups" title="Embed groups" className="mt-8">
        <p className="mt-1 max-w-3xl text-sm text-stone-600">
          Which fields are embedded together and how they are cut into passages. The preview shows what a group makes of a record before you save; saving
          re-queues the section’s records.
        </p>
        <EmbedGroupEditorClient
          sectionSlug={section.slug}
          groups={groups.map((group) => ({ ...group, passages: stats?.groups.find((candidate) => candidate.groupId === group.id)?.chunks ?? 0 }))}
          paths={paths}
          records={records}
        />
      </PageSection>

      <PageSection id="egress" title="Egress policy" className="mt-8">
        <EgressClient sectionSlug={section.slug} current={row?.egressPolicy ?? "local_only"} statements={egressStatements} />
      </PageSection>

      <PageSection id="dublin-core" title="Dublin Core (OAI-PMH)" className="mt-8">
        <DcMappingClient
          key={JSON.stringify(dublinCore.mapping)}
          sectionSlug={section.slug}
          elements={dublinCore.elements}
          fields={dublinCore.fields}
          mapping={dublinCore.mapping}
          custom={dublinCore.custom}
        />
      </PageSection>

      <PageSection id="objects" title="Object context" className="mt-8">
        <p className="mt-1 text-sm text-stone-600">
          {readObjectContext(row?.objectContext)
            ? "Records of this section are objects: compared by image, with proposals. "
            : "Records of this section are not objects. "}
          <Link href={`/admin/sections/${section.slug}/objects`} className="link">
            Edit the object context
          </Link>
        </p>
      </PageSection>
    </div>
  );
}
