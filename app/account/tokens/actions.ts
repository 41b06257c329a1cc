"use server";

import { z } from "zod";
import { createApiToken, revokeApiToken } from "@/lib/auth/api-tokens";
import { authorizedAction } from "@/lib/http/authorized";

const create = authorizedAction(
  z.object({ name: z.string().max(200), expiresInDays: z.number(), scopes: z.array(z.string().max(20)).max(4) }),
  async (input, { principal, runtime }) => {
    const { prisma } = runtime.database;
    const created = await createApiToken(prisma, principal, input);
    return { token: created.token, name: created.summary.name };
  },
);
/** A new personal token; its secret is in the answer and never again. */
export async function createApiTokenAction(input: { name: string; expiresInDays: number; scopes: string[] }) {
  return create(input);
}

const revoke = authorizedAction(z.object({ id: z.string().max(64) }), async (input, { principal, runtime }) => {
  const { prisma } = runtime.database;
  await revokeApiToken(prisma, principal, input.id);
  return { revoked: true };
});
/** Revokes one of your own tokens at once. */
export async function revokeApiTokenAction(input: { id: string }) {
  return revoke(input);
}
