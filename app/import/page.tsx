import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { canEditSomeProject } from "@/lib/acl";
import { listImportJobs } from "@/lib/archive/import";
import { listEditableProjects } from "@/lib/archive/list-projects";
import { listSections } from "@/lib/archive/sections";
import { authorizedPage } from "@/lib/http/authorized";
import { importMaxBytes, importPageFormMaxBytes, importZipMaxBytes } from "@/lib/http/import-upload";
import { formatDateTime } from "@/components/format";
import { DataTable } from "@/components/data-table";
import { PageHeader } from "@/components/page-header";
import { ImportClient, type ImportSection } from "./import-client";
import { ImportJobProgressClient } from "./import-job-progress-client";

export const metadata: Metadata = { title: "Import" };

const statusLabels = { queued: "Queued", running: "Running", done: "Done", failed: "Failed" } as const;

/**
 * Bulk import into a section of a project: upload, preview and mapping, a dry run that lists
 * every problem, then a job that imports the valid rows while the page follows its progress.
 * For admins and curators who edit some project; anyone else gets the not-found page.
 */
export default async function ImportPage() {
  const { principal, runtime } = await authorizedPage("/import");
  if (!canEditSomeProject(principal)) notFound();
  const { prisma } = runtime.database;
  const [sections, projects, jobs] = await Promise.all([
    listSections(prisma),
    listEditableProjects(prisma, principal),
    listImportJobs(prisma, principal, { limit: 20 }),
  ]);
  const sectionOptions: ImportSection[] = sections.map((section) => ({
    slug: section.slug,
    name: section.name,
    fields: section.fields.map((field) => ({ key: field.key, label: field.label, type: field.type })),
  }));
  const sectionNames = new Map(sections.map((section) => [section.slug, section.name]));
  const projectNames = new Map(projects.map((project) => [project.id, project.name]));

  return (
    <div>
      <PageHeader title="Import">
        Bring records in from a CSV, JSON or JSON Lines file, an EAD3 finding aid or an EAC-CPF record (UTF-8). Check it first: the dry run lists every problem
        and writes nothing. The import then adds the valid rows in the background; with an external id column, importing the file again updates those records
        instead of duplicating them.
      </PageHeader>
      {sections.length === 0 || projects.length === 0 ? (
        <p className="notice mt-6">{sections.length === 0 ? "There are no sections to import into yet." : "There is no project you may import into yet."}</p>
      ) : (
        <div className="mt-4">
          <ImportClient
            sections={sectionOptions}
            projects={projects.map((project) => ({ id: project.id, name: project.name }))}
            maxBytes={importMaxBytes()}
            zipMaxBytes={importZipMaxBytes()}
            formMaxBytes={importPageFormMaxBytes}
          />
        </div>
      )}

      <section className="mt-10" aria-labelledby="recent-imports">
        <h2 id="recent-imports" className="text-xl font-semibold">
          {principal.role === "admin" ? "Recent imports" : "Your recent imports"}
        </h2>
        {jobs.length === 0 ? (
          <p className="notice mt-3">No imports yet.</p>
        ) : (
          <DataTable
            columns={[
              "File",
              "Into",
              "Status",
              { label: "Rows", numeric: true },
              { label: "Created", numeric: true },
              { label: "Updated", numeric: true },
              { label: "Unchanged", numeric: true },
              { label: "Skipped", numeric: true },
              "Started",
            ]}
            className="mt-3"
            testId="import-jobs"
          >
            {jobs.map((job) => {
              const records = new URLSearchParams({ section: job.sectionSlug, project: job.projectId });
              return (
                <tr key={job.id} className="border-b border-stone-100 align-top">
                  <th scope="row" className="py-2 pr-3 font-medium">
                    {job.fileName}
                  </th>
                  <td className="py-2 pr-3">
                    <Link href={`/records?${records}`} className="link">
                      {sectionNames.get(job.sectionSlug) ?? job.sectionSlug} · {projectNames.get(job.projectId) ?? "a project"}
                    </Link>
                  </td>
                  <td className="py-2 pr-3">
                    {job.status === "queued" || job.status === "running" ? (
                      <ImportJobProgressClient jobId={job.id} compact />
                    ) : (
                      <>
                        {statusLabels[job.status]}
                        {job.error && <span className="block text-xs text-red-700">{job.error}</span>}
                      </>
                    )}
                  </td>
                  <td className="py-2 pr-3 text-right tabular-nums">{job.total}</td>
                  <td className="py-2 pr-3 text-right tabular-nums">{job.created}</td>
                  <td className="py-2 pr-3 text-right tabular-nums">{job.updated}</td>
                  <td className="py-2 pr-3 text-right tabular-nums">{job.unchanged}</td>
                  <td className="py-2 pr-3 text-right tabular-nums">
                    {job.skipped > 0 ? (
                      <a className="link" href={`/api/import-jobs/${job.id}/problems`} download>
                        {job.skipped}
                        <span className="sr-only"> skipped rows: download their problems as CSV</span>
                      </a>
                    ) : (
                      job.skipped
                    )}
                  </td>
                  <td className="py-2 text-stone-600">{formatDateTime(new Date(job.createdAt))}</td>
                </tr>
              );
            })}
          </DataTable>
        )}
      </section>
    </div>
  );
}
