"use client";

import { BusyButton } from "@/components/busy-button";
import { useServerAction } from "@/components/use-server-action";
import { useRef, useState } from "react";
import type { AdminProject } from "@/lib/admin/people/list-projects-with-members";
import type { AdminUser } from "@/lib/admin/people/list-users";
import {
  createProjectAction,
  createUserAction,
  resetPasswordAction,
  setMembershipAction,
  setProjectPublicAction,
  setUserActiveAction,
  setUserRoleAction,
} from "./actions";
import { ActionForm } from "@/components/action-form";
import { LabelledField } from "@/components/labelled-field";
import { TextField } from "@/components/text-field";

export function CreateUserClient() {
  const { pending, run, feedback, fieldErrors } = useServerAction();
  const [form, setForm] = useState({ email: "", name: "", role: "researcher", password: "" });
  const field = (key: keyof typeof form, label: string, type = "text") => (
    <TextField
      id={`new-user-${key}`}
      label={label}
      type={type}
      value={form[key]}
      errors={fieldErrors[key]}
      onValueChange={(value) => setForm({ ...form, [key]: value })}
      autoComplete={type === "password" ? "new-password" : "off"}
    />
  );
  return (
    <ActionForm
      aria-label="New user"
      className="grid grid-cols-1 gap-3 sm:grid-cols-5 sm:items-end"
      onSubmit={() =>
        run(
          () => createUserAction(form),
          `Created ${form.email.trim().toLowerCase()}.`,
          () => setForm({ email: "", name: "", role: "researcher", password: "" }),
        )
      }
    >
      {field("email", "Email", "email")}
      {field("name", "Name")}
      <LabelledField htmlFor="new-user-role" label="Role">
        <select id="new-user-role" className="field-input" value={form.role} onChange={(event) => setForm({ ...form, role: event.target.value })}>
          <option value="researcher">Researcher</option>
          <option value="curator">Curator</option>
          <option value="admin">Administrator</option>
        </select>
      </LabelledField>
      {field("password", "Initial password (12+ characters)", "password")}
      <BusyButton type="submit" className="btn btn-primary" busy={pending}>
        Create user
      </BusyButton>
      <div className="sm:col-span-5">{feedback}</div>
    </ActionForm>
  );
}

export function UserRowClient({ user, self }: { user: AdminUser; self: boolean }) {
  const { pending, run, feedback } = useServerAction();
  const [password, setPassword] = useState("");
  const [resetting, setResetting] = useState(false);
  const resetToggleRef = useRef<HTMLButtonElement>(null);
  return (
    <tr className="border-b border-stone-100 align-top" data-testid="user-row">
      <th scope="row" className="py-2 pr-3 text-left font-medium">
        {user.name}
        <div className="text-xs font-normal text-stone-500">{user.email}</div>
        {!user.active && <span className="mt-1 inline-block rounded bg-stone-200 px-1.5 text-xs text-stone-700">deactivated</span>}
      </th>
      <td className="py-2 pr-3">
        <label className="sr-only" htmlFor={`role-${user.id}`}>
          Role of {user.email}
        </label>
        <select
          id={`role-${user.id}`}
          className="field-input mt-0"
          value={user.role}
          disabled={self}
          aria-disabled={pending || undefined}
          onChange={(event) => run(() => setUserRoleAction({ userId: user.id, role: event.target.value }), `${user.email} is now ${event.target.value}.`)}
        >
          <option value="researcher">Researcher</option>
          <option value="curator">Curator</option>
          <option value="admin">Administrator</option>
        </select>
      </td>
      <td className="py-2 pr-3 text-xs text-stone-600">
        {user.memberships.map((membership) => `${membership.projectName} (${membership.role})`).join(", ") || "no projects"}
      </td>
      <td className="py-2">
        <div className="flex flex-wrap gap-2">
          {!self && (
            <BusyButton
              type="button"
              className="btn"
              busy={pending}
              onClick={() =>
                run(
                  () => setUserActiveAction({ userId: user.id, active: !user.active }),
                  user.active ? `${user.email} is deactivated; their sessions have ended.` : `${user.email} may sign in again.`,
                )
              }
            >
              {user.active ? "Deactivate" : "Reactivate"}
            </BusyButton>
          )}
          <button ref={resetToggleRef} type="button" className="btn" aria-expanded={resetting} onClick={() => setResetting((open) => !open)}>
            Reset password…
          </button>
        </div>
        {resetting && (
          <ActionForm
            className="mt-2 flex gap-2"
            onSubmit={(form) => {
              run(
                () => resetPasswordAction({ userId: user.id, password }),
                `New password set for ${user.email}; their sessions have ended.`,
                () => {
                  setPassword("");
                  setResetting(false);
                  // The form closes: focus goes back to the button that opened it, not to the body.
                  if (form.contains(document.activeElement)) resetToggleRef.current?.focus();
                },
              );
            }}
          >
            <label className="sr-only" htmlFor={`password-${user.id}`}>
              New password for {user.email}
            </label>
            <input
              id={`password-${user.id}`}
              type="password"
              autoComplete="new-password"
              className="field-input mt-0"
              placeholder="New password (12+ characters)"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
            <BusyButton type="submit" className="btn btn-primary" busy={pending}>
              Set
            </BusyButton>
          </ActionForm>
        )}
        {feedback}
      </td>
    </tr>
  );
}

export function CreateProjectClient() {
  const { pending, run, feedback, fieldErrors } = useServerAction();
  const [form, setForm] = useState({ slug: "", name: "", description: "", restricted: false });
  return (
    <ActionForm
      aria-label="New project"
      className="grid grid-cols-1 gap-3 sm:grid-cols-4 sm:items-end"
      onSubmit={() =>
        run(
          () => createProjectAction(form),
          `Created project ${form.name}.`,
          () => setForm({ slug: "", name: "", description: "", restricted: false }),
        )
      }
    >
      {(["slug", "name", "description"] as const).map((key) => (
        <TextField
          key={key}
          id={`new-project-${key}`}
          label={key === "slug" ? "Slug" : key === "name" ? "Name" : "Description"}
          value={form[key]}
          errors={fieldErrors[key]}
          onValueChange={(value) => setForm({ ...form, [key]: value })}
        />
      ))}
      <div className="flex items-center gap-3">
        <label className="flex items-center gap-1 text-sm">
          <input type="checkbox" checked={form.restricted} onChange={(event) => setForm({ ...form, restricted: event.target.checked })} />
          Restricted
        </label>
        <BusyButton type="submit" className="btn btn-primary" busy={pending}>
          Create project
        </BusyButton>
      </div>
      <div className="sm:col-span-4">{feedback}</div>
    </ActionForm>
  );
}

export function ProjectMembersClient({ project }: { project: AdminProject }) {
  const { pending, run, feedback, fieldErrors } = useServerAction();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<"reader" | "editor">("reader");
  const emailRef = useRef<HTMLInputElement>(null);
  return (
    <div data-testid={`members-${project.slug}`}>
      <ul className="space-y-1 text-sm">
        {project.members.length === 0 && <li className="text-stone-500">No members yet.</li>}
        {project.members.map((member) => (
          <li key={member.userId} className="flex flex-wrap items-center gap-2">
            <span className="min-w-48">
              {member.name} <span className="text-xs text-stone-500">{member.email}</span>
              {!member.active && <span className="ml-1 text-xs text-stone-500">(deactivated)</span>}
            </span>
            <label className="sr-only" htmlFor={`member-${project.id}-${member.userId}`}>
              Role of {member.email} in {project.name}
            </label>
            <select
              id={`member-${project.id}-${member.userId}`}
              className="field-input mt-0 w-auto"
              value={member.role}
              aria-disabled={pending || undefined}
              onChange={(event) =>
                run(
                  () => setMembershipAction({ projectId: project.id, userId: member.userId, role: event.target.value as "reader" | "editor" }),
                  `${member.email} is now ${event.target.value} of ${project.name}.`,
                )
              }
            >
              <option value="reader">reader</option>
              <option value="editor">editor</option>
            </select>
            <BusyButton
              type="button"
              className="btn px-2 py-0.5"
              busy={pending}
              onClick={() =>
                run(() => setMembershipAction({ projectId: project.id, userId: member.userId, role: null }), `${member.email} removed from ${project.name}.`)
              }
            >
              Remove
            </BusyButton>
          </li>
        ))}
      </ul>
      <ActionForm
        className="mt-2 flex flex-wrap items-end gap-2"
        onSubmit={(form) => {
          run(
            () => setMembershipAction({ projectId: project.id, email, role }),
            `${email} added to ${project.name} as ${role}.`,
            () => {
              setEmail("");
              // The emptied field disables Add: keep focus in the form, ready for the next email.
              if (form.contains(document.activeElement)) emailRef.current?.focus();
            },
          );
        }}
      >
        <LabelledField htmlFor={`add-member-${project.id}`} label="Add a member by email">
          <input
            ref={emailRef}
            id={`add-member-${project.id}`}
            type="email"
            className="field-input"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            aria-invalid={fieldErrors.email ? true : undefined}
          />
        </LabelledField>
        <label className="sr-only" htmlFor={`add-role-${project.id}`}>
          Role
        </label>
        <select
          id={`add-role-${project.id}`}
          className="field-input w-auto"
          value={role}
          onChange={(event) => setRole(event.target.value as "reader" | "editor")}
        >
          <option value="reader">reader</option>
          <option value="editor">editor</option>
        </select>
        <BusyButton type="submit" className="btn" busy={pending} disabled={!email.trim()}>
          Add
        </BusyButton>
      </ActionForm>
      {feedback}
    </div>
  );
}

/** The project's public switch: a checkbox that saves at once and says what public means. */
export function ProjectPublicClient({ project, statement }: { project: Pick<AdminProject, "slug" | "name" | "isPublic" | "restricted">; statement: string }) {
  const { pending, run, feedback } = useServerAction();
  const id = `public-${project.slug}`;
  return (
    <div className="mt-2 text-sm">
      <label htmlFor={id} className="inline-flex items-center gap-2">
        <input
          id={id}
          type="checkbox"
          checked={project.isPublic}
          disabled={project.restricted && !project.isPublic}
          aria-describedby={`${id}-help`}
          aria-disabled={pending || undefined}
          onChange={(event) => {
            const isPublic = event.target.checked;
            run(
              () => setProjectPublicAction({ projectSlug: project.slug, isPublic }),
              isPublic ? `${project.name} is public.` : `${project.name} is no longer public.`,
            );
          }}
        />
        Public (IIIF, OAI-PMH and media without signing in)
      </label>
      <p id={`${id}-help`} className="text-xs text-stone-500">
        {project.restricted && !project.isPublic ? "A restricted project cannot be public." : statement}
      </p>
      {feedback}
    </div>
  );
}
