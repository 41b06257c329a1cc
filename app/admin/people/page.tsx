import type { Metadata } from "next";
import { listProjectsWithMembers } from "@/lib/admin/people/list-projects-with-members";
import { listUsers } from "@/lib/admin/people/list-users";
import { authorizedAdminPage } from "@/app/admin/authorized-admin-page";
import { LockIcon } from "@/components/lock-icon";
import { publicProjectStatement } from "@/lib/admin/people/set-project-public";
import { CreateProjectClient, CreateUserClient, ProjectMembersClient, ProjectPublicClient, UserRowClient } from "./people-client";
import { DataTable } from "@/components/data-table";
import { AdminPageHeader } from "@/components/page-header";
import { PageSection } from "@/components/page-section";

export const metadata: Metadata = { title: "People and projects" };

/**
 * Users (create, role, reset password, deactivate) and projects with their members. Changes
 * apply on the person's next request; deactivation and password resets end their sessions.
 */
export default async function PeoplePage() {
  const { principal, runtime } = await authorizedAdminPage("/admin/people");
  const { prisma } = runtime.database;
  const [users, projects] = await Promise.all([listUsers(prisma, principal), listProjectsWithMembers(prisma, principal)]);
  return (
    <div>
      <AdminPageHeader title="People and projects" />

      <PageSection id="users" title="Users" className="mt-6">
        <div className="mt-3 rounded-lg border border-stone-200 bg-white p-4">
          <CreateUserClient />
        </div>
        <DataTable columns={["User", "Role", "Projects", "Account"]} testId="users">
          {users.map((user) => (
            <UserRowClient key={user.id} user={user} self={user.id === principal.userId} />
          ))}
        </DataTable>
      </PageSection>

      <PageSection id="projects" title="Projects" className="mt-10">
        <div className="mt-3 rounded-lg border border-stone-200 bg-white p-4">
          <CreateProjectClient />
        </div>
        <div className="mt-4 space-y-4">
          {projects.map((project) => (
            <section key={project.id} aria-labelledby={`project-${project.id}`} className="rounded-lg border border-stone-200 bg-white p-4">
              <h3 id={`project-${project.id}`} className="flex items-center gap-1 font-semibold">
                {project.name}
                {project.restricted && <LockIcon label="Restricted project" />}
                {project.isPublic && <span className="ml-1 rounded bg-emerald-100 px-1.5 text-xs font-normal text-emerald-800">public</span>}
                <span className="text-sm font-normal text-stone-500">
                  · {project.slug} · {project.records} records
                </span>
              </h3>
              {project.description && <p className="text-sm text-stone-600">{project.description}</p>}
              <ProjectPublicClient project={project} statement={publicProjectStatement} />
              <p className="mt-1 text-sm">
                {/* A zip of the project's records, media, members and audit trail (npm run import-project restores it). */}
                <a href={`/api/admin/projects/${encodeURIComponent(project.slug)}/backup`} className="link" download data-testid={`backup-${project.slug}`}>
                  Download backup
                </a>
              </p>
              <div className="mt-2">
                <ProjectMembersClient project={project} />
              </div>
            </section>
          ))}
        </div>
      </PageSection>
    </div>
  );
}
