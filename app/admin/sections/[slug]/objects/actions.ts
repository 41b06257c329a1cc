"use server";

import { z } from "zod";
import { authorizedAction } from "@/lib/http/authorized";
import { saveObjectContext } from "@/lib/rag/objects/save-object-context";

/** Saves (or, with null, removes) a section's object context; admins only. */
export const saveObjectContextAction = authorizedAction(
  z.object({ sectionSlug: z.string().min(1).max(64), context: z.unknown() }),
  async (input, { principal, runtime }) => {
    const { prisma, sql } = runtime.database;
    const saved = await saveObjectContext(prisma, sql, principal, { sectionSlug: input.sectionSlug, context: input.context ?? null });
    return { queued: saved.queued, cleared: saved.context === null };
  },
);
