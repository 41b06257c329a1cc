import "server-only";
import { z } from "zod";
import { type Principal, actorIdOf, assertAdmin } from "../acl";
import { isUuid } from "../ids";
import { hashPassword } from "../auth/passwords";
import type { Prisma, PrismaClient } from "../db/generated/client";
import { AppError, notFound } from "../errors";

/**
 * People and policy, for admins: users (create, change role, reset password, deactivate),
 * projects and their members with roles, and each section's egress policy. Every change is
 * audited. Deactivating a user or resetting their password bumps their session version, which
 * ends every session they have at their next request. Anyone but an admin: not found.
 */

const actorOf = (principal: Principal) => (actorIdOf(principal));

async function audit(tx: Prisma.TransactionClient | PrismaClient, principal: Principal, action: string, targetType: string, targetId: string | null, details: Record<string, unknown>, projectId?: string) {
  await tx.auditEvent.create({ data: { actorId: actorOf(principal), action, targetType, targetId, projectId: projectId ?? null, details: details as Prisma.InputJsonValue } });
}

const passwordSchema = z.string().min(12, "Passwords must be at least 12 characters.").max(200, "Passwords must be at most 200 characters.");
const roleSchema = z.enum(["admin", "curator", "researcher"], { error: "Choose a role: admin, curator or researcher." });
const idSchema = z.string().refine(isUuid, "Unknown id.");

export const newUserSchema = z.object({
  email: z.string().trim().toLowerCase().max(200, "At most 200 characters.").pipe(z.email("Give a valid email address.")),
  name: z.string().trim().min(1, "Give a name.").max(120, "At most 120 characters."),
  role: roleSchema,
  password: passwordSchema,
});

export const newProjectSchema = z.object({
  slug: z.string().regex(/^[a-z][a-z0-9-]{1,47}$/, "Slug: 2–48 lowercase letters, digits and dashes, starting with a letter."),
  name: z.string().trim().min(1, "Give a name.").max(120),
  description: z.string().trim().max(2000).default(""),
  restricted: z.boolean().default(false),
});

function invalid(error: z.ZodError): AppError {
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of error.issues) (fieldErrors[issue.path.join(".") || "_form"] ??= []).push(issue.message);
  return new AppError("bad_request", error.issues.map((issue) => issue.message).join(" "), { fieldErrors });
}

function parse<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw invalid(parsed.error);
  return parsed.data;
}

export interface AdminUser {
  id: string;
  email: string;
  name: string;
  role: "admin" | "curator" | "researcher";
  active: boolean;
  createdAt: Date;
  memberships: { projectId: string; projectName: string; role: "reader" | "editor" }[];
}

export async function listUsers(prisma: PrismaClient, principal: Principal): Promise<AdminUser[]> {
  assertAdmin(principal);
  const users = await prisma.user.findMany({ orderBy: [{ active: "desc" }, { email: "asc" }], include: { memberships: { include: { project: { select: { name: true } } } } } });
  return users.map((user) => ({
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    active: user.active,
    createdAt: user.createdAt,
    memberships: user.memberships.map((membership) => ({ projectId: membership.projectId, projectName: membership.project.name, role: membership.role })),
  }));
}

export async function createUserAsAdmin(prisma: PrismaClient, principal: Principal, input: unknown): Promise<{ id: string }> {
  assertAdmin(principal);
  const data = parse(newUserSchema, input);
  if (await prisma.user.findUnique({ where: { email: data.email } })) {
    throw new AppError("bad_request", "A user with this email already exists.", { fieldErrors: { email: ["A user with this email already exists."] } });
  }
  const passwordHash = await hashPassword(data.password);
  return prisma.$transaction(async (tx) => {
    const user = await tx.user.create({ data: { email: data.email, name: data.name, role: data.role, passwordHash } });
    await audit(tx, principal, "user.create", "user", user.id, { email: data.email, role: data.role });
    return { id: user.id };
  });
}

async function findUser(prisma: PrismaClient, userId: unknown) {
  const id = parse(idSchema, userId);
  const user = await prisma.user.findUnique({ where: { id } });
  if (!user) throw notFound();
  return user;
}

export async function setUserRole(prisma: PrismaClient, principal: Principal, input: { userId: string; role: unknown }): Promise<void> {
  assertAdmin(principal);
  const user = await findUser(prisma, input.userId);
  const role = parse(roleSchema, input.role);
  if (user.id === principal.userId && role !== "admin") throw new AppError("bad_request", "You cannot remove your own administrator role; ask another admin.");
  await prisma.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { role } });
    await audit(tx, principal, "user.role", "user", user.id, { email: user.email, before: user.role, after: role });
  });
}

/** A new password; every session of the user ends. */
export async function resetPassword(prisma: PrismaClient, principal: Principal, input: { userId: string; password: unknown }): Promise<void> {
  assertAdmin(principal);
  const user = await findUser(prisma, input.userId);
  const password = parse(passwordSchema, input.password);
  const passwordHash = await hashPassword(password);
  await prisma.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { passwordHash, sessionVersion: { increment: 1 } } });
    await audit(tx, principal, "user.password_reset", "user", user.id, { email: user.email });
  });
}

/** Deactivating ends every session of the user at once; reactivating lets them sign in again. */
export async function setUserActive(prisma: PrismaClient, principal: Principal, input: { userId: string; active: boolean }): Promise<void> {
  assertAdmin(principal);
  const user = await findUser(prisma, input.userId);
  if (user.id === principal.userId && !input.active) throw new AppError("bad_request", "You cannot deactivate yourself.");
  await prisma.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { active: input.active, ...(input.active ? {} : { sessionVersion: { increment: 1 } }) } });
    await audit(tx, principal, input.active ? "user.activate" : "user.deactivate", "user", user.id, { email: user.email });
  });
}

export interface AdminProject {
  id: string;
  slug: string;
  name: string;
  description: string;
  restricted: boolean;
  records: number;
  members: { userId: string; email: string; name: string; role: "reader" | "editor"; userRole: string; active: boolean }[];
}

export async function listProjectsWithMembers(prisma: PrismaClient, principal: Principal): Promise<AdminProject[]> {
  assertAdmin(principal);
  const projects = await prisma.project.findMany({
    orderBy: { name: "asc" },
    include: { memberships: { include: { user: true }, orderBy: { user: { email: "asc" } } }, _count: { select: { records: true } } },
  });
  return projects.map((project) => ({
    id: project.id,
    slug: project.slug,
    name: project.name,
    description: project.description,
    restricted: project.restricted,
    records: project._count.records,
    members: project.memberships.map((membership) => ({
      userId: membership.userId,
      email: membership.user.email,
      name: membership.user.name,
      role: membership.role,
      userRole: membership.user.role,
      active: membership.user.active,
    })),
  }));
}

export async function createProjectAsAdmin(prisma: PrismaClient, principal: Principal, input: unknown): Promise<{ id: string }> {
  assertAdmin(principal);
  const data = parse(newProjectSchema, input);
  if (await prisma.project.findUnique({ where: { slug: data.slug } })) {
    throw new AppError("bad_request", "A project with this slug already exists.", { fieldErrors: { slug: ["A project with this slug already exists."] } });
  }
  return prisma.$transaction(async (tx) => {
    const project = await tx.project.create({ data });
    await audit(tx, principal, "project.create", "project", project.id, { slug: data.slug, restricted: data.restricted }, project.id);
    return { id: project.id };
  });
}

/** Adds, changes (reader/editor) or, with role null, removes a membership. */
export async function setMembership(prisma: PrismaClient, principal: Principal, input: { projectId: string; email?: string; userId?: string; role: "reader" | "editor" | null }): Promise<void> {
  assertAdmin(principal);
  const projectId = parse(idSchema, input.projectId);
  const project = await prisma.project.findUnique({ where: { id: projectId } });
  if (!project) throw notFound();
  const user = input.userId
    ? await findUser(prisma, input.userId)
    : await prisma.user.findUnique({ where: { email: (input.email ?? "").trim().toLowerCase() } });
  if (!user) throw new AppError("bad_request", "There is no user with this email.", { fieldErrors: { email: ["There is no user with this email."] } });
  const role = input.role === null ? null : parse(z.enum(["reader", "editor"], { error: "Choose reader or editor." }), input.role);
  await prisma.$transaction(async (tx) => {
    const before = await tx.membership.findUnique({ where: { userId_projectId: { userId: user.id, projectId } } });
    if (role === null) {
      if (before) await tx.membership.delete({ where: { userId_projectId: { userId: user.id, projectId } } });
    } else {
      await tx.membership.upsert({ where: { userId_projectId: { userId: user.id, projectId } }, create: { userId: user.id, projectId, role }, update: { role } });
    }
    await audit(tx, principal, role === null ? "membership.remove" : before ? "membership.change" : "membership.add", "project", projectId, { email: user.email, before: before?.role ?? null, after: role }, projectId);
  });
}

export const egressStatements = {
  local_only: "Text and images of this section never leave this server: external embedding, reranking, generation and image models are not sent them, and answers drawing on it are answered by the offline models only.",
  allow_external: "Text and images of this section may be sent to the external providers configured for this server (embedding, reranking, generation, image models), at indexing and at answer time.",
} as const;

export async function setSectionEgress(prisma: PrismaClient, principal: Principal, input: { sectionSlug: string; policy: unknown }): Promise<void> {
  assertAdmin(principal);
  const policy = parse(z.enum(["local_only", "allow_external"], { error: "Choose local_only or allow_external." }), input.policy);
  const section = await prisma.section.findUnique({ where: { slug: input.sectionSlug } });
  if (!section) throw notFound();
  await prisma.$transaction(async (tx) => {
    await tx.section.update({ where: { id: section.id }, data: { egressPolicy: policy } });
    await audit(tx, principal, "section.egress", "section", section.id, { section: section.slug, before: section.egressPolicy, after: policy });
  });
}
