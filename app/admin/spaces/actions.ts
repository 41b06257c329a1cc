"use server";

import { z } from "zod";
import { authorizedAction } from "@/lib/http/authorized";
import { calibrateSpaceFusion, resetSpaceFusion } from "@/lib/admin/fusion-calibration";
import { activateSpace, compareSpaces, registerCandidateSpace, rollbackSpace } from "@/lib/admin/model-switch";

const spaceId = z.string().max(64);

/** Measures hybrid fusion weights of a space on the golden sets and stores them (admins only). */
export const calibrateFusionAction = authorizedAction(
  z.object({ spaceId, goldenSetId: z.string().max(64).optional() }),
  async (input, { principal, runtime }) => {
    const { prisma, sql } = runtime.database;
    return calibrateSpaceFusion(prisma, sql, principal, { spaceId: input.spaceId, goldenSetId: input.goldenSetId });
  },
);

/** Returns a space to equal fusion weights (admins only). */
export const resetFusionAction = authorizedAction(z.object({ spaceId }), async (input, { principal, runtime }) => {
  const { sql } = runtime.database;
  await resetSpaceFusion(sql, principal, input);
  return { ok: true };
});

export const registerSpaceAction = authorizedAction(z.object({ config: z.unknown() }), async (input, { principal, runtime }) => {
  const { sql } = runtime.database;
  return registerCandidateSpace(sql, principal, input.config);
});

export const compareSpacesAction = authorizedAction(
  z.object({ goldenSetId: z.string().max(64), candidateId: z.string().max(64), mode: z.string().max(20) }),
  async (input, { principal, runtime }) => {
    const { prisma, sql } = runtime.database;
    return compareSpaces(prisma, sql, principal, input);
  },
);

export const activateSpaceAction = authorizedAction(z.object({ spaceId }), async (input, { principal, runtime }) => {
  const { sql } = runtime.database;
  await activateSpace(sql, principal, input.spaceId);
  return { ok: true };
});

// Called without input; an empty object is accepted too, as before.
export const rollbackSpaceAction = authorizedAction(z.object({}).or(z.void()), async (_input, { principal, runtime }) => {
  const { sql } = runtime.database;
  return rollbackSpace(sql, principal);
});
