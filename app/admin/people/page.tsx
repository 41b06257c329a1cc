import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { isAdmin } from "@/lib/acl";
import { listProjectsWithMembers, listUsers } from "@/lib/admin/people";
import { authorizedPage } from "@/lib/http/authorized";
import { LockIcon } from "@/components/lock-icon";
import { CreateProjectClient, CreateUserClient, ProjectMembersClient, UserRowClient } from "./people-client";

export const metadata: Metadata = { title: "People and projects" };

/**
 * Users (create, role, reset password, deactivate) and projects with their members. Changes
 * apply on the person's next request; deactivation and password resets end their sessions.
 */
export default async function PeoplePage() {
  const { principal, runtime } = await authorizedPage("/admin/people");
  if (!isAdmin(principal)) notFound();
  const { prisma } = runtime.database;
  const [users, projects] = await Promise.all([listUsers(prisma, principal), listProjectsWithMembers(prisma, principal)]);
  return (
    <div>
      <nav aria-label="Breadcrumb" className="text-sm text-stone-500">
        <Link href="/admin" className="link">
          Administration
        </Link>
      </nav>
      <h1 className="mt-2 text-3xl font-semibold">People and projects</h1>

      <section aria-labelledby="users-heading" className="mt-6">
        <h2 id="users-heading" className="text-xl font-semibold">
          Users
        </h2>
        <div className="mt-3 rounded-lg border border-stone-200 bg-white p-4">
          <CreateUserClient />
        </div>
        <table className="mt-4 w-full text-sm" data-testid="users">
          <thead className="border-b border-stone-200 text-left text-xs text-stone-500">
            <tr>
              <th scope="col" className="py-2 pr-3">User</th>
              <th scope="col" className="py-2 pr-3">Role</th>
              <th scope="col" className="py-2 pr-3">Projects</th>
              <th scope="col" className="py-2">Account</th>
            </tr>
          </thead>
          <tbody>
            {users.map((user) => (
              <UserRowClient key={user.id} user={user} self={user.id === principal.userId} />
            ))}
          </tbody>
        </table>
      </section>

      <section aria-labelledby="projects-heading" className="mt-10">
        <h2 id="projects-heading" className="text-xl font-semibold">
          Projects
        </h2>
        <div className="mt-3 rounded-lg border border-stone-200 bg-white p-4">
          <CreateProjectClient />
        </div>
        <div className="mt-4 space-y-4">
          {projects.map((project) => (
            <section key={project.id} aria-labelledby={`project-${project.id}`} className="rounded-lg border border-stone-200 bg-white p-4">
              <h3 id={`project-${project.id}`} className="flex items-center gap-1 font-semibold">
                {project.name}
                {project.restricted && <LockIcon label="Restricted project" />}
                <span className="text-sm font-normal text-stone-500">
                  · {project.slug} · {project.records} records
                </span>
              </h3>
              {project.description && <p className="text-sm text-stone-600">{project.description}</p>}
              <div className="mt-2">
                <ProjectMembersClient project={project} />
              </div>
            </section>
          ))}
        </div>
      </section>
    </div>
  );
}
