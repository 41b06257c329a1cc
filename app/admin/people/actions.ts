"use server";

import { z } from "zod";
import { authorizedAction } from "@/lib/http/authorized";
import { createProjectAsAdmin } from "@/lib/admin/people/create-project";
import { createUserAsAdmin } from "@/lib/admin/people/create-user";
import { resetPassword } from "@/lib/admin/people/reset-password";
import { setMembership } from "@/lib/admin/people/set-membership";
import { setProjectPublic } from "@/lib/admin/people/set-project-public";
import { setUserActive } from "@/lib/admin/people/set-user-active";
import { setUserRole } from "@/lib/admin/people/set-user-role";

const userId = z.string().max(64);

export const createUserAction = authorizedAction(
  z.object({ email: z.string().max(200), name: z.string().max(200), role: z.string().max(20), password: z.string().max(200) }),
  async (input, { principal, runtime }) => {
    const { prisma } = runtime.database;
    return createUserAsAdmin(prisma, principal, input);
  },
);

export const setUserRoleAction = authorizedAction(z.object({ userId, role: z.string().max(20) }), async (input, { principal, runtime }) => {
  const { prisma } = runtime.database;
  await setUserRole(prisma, principal, input);
  return { ok: true };
});

export const resetPasswordAction = authorizedAction(z.object({ userId, password: z.string().max(200) }), async (input, { principal, runtime }) => {
  const { prisma } = runtime.database;
  await resetPassword(prisma, principal, input);
  return { ok: true };
});

export const setUserActiveAction = authorizedAction(z.object({ userId, active: z.boolean() }), async (input, { principal, runtime }) => {
  const { prisma } = runtime.database;
  await setUserActive(prisma, principal, input);
  return { ok: true };
});

export const createProjectAction = authorizedAction(
  z.object({ slug: z.string().max(64), name: z.string().max(200), description: z.string().max(2000), restricted: z.boolean() }),
  async (input, { principal, runtime }) => {
    const { prisma } = runtime.database;
    return createProjectAsAdmin(prisma, principal, input);
  },
);

export const setMembershipAction = authorizedAction(
  z.object({ projectId: z.string().max(64), email: z.string().max(200).optional(), userId: userId.optional(), role: z.enum(["reader", "editor"]).nullable() }),
  async (input, { principal, runtime }) => {
    const { prisma } = runtime.database;
    await setMembership(prisma, principal, input);
    return { ok: true };
  },
);

export const setProjectPublicAction = authorizedAction(
  z.object({ projectSlug: z.string().max(64), isPublic: z.boolean() }),
  async (input, { principal, runtime }) => {
    const { prisma } = runtime.database;
    await setProjectPublic(prisma, principal, input);
    return { ok: true };
  },
);
