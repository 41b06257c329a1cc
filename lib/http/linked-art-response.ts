import "server-only";
import { z } from "zod";
import type { Principal } from "../acl";
import { getRecord } from "../archive/get-record";
import { showsInIiif } from "../archive/iiif/presentation";
import { hasObjectContext, linkedArtContentType, linkedArtObject } from "../archive/linked-data/linked-art";
import type { PrismaClient } from "../db/generated/client";
import { notFound } from "../errors";
import { readObjectContext } from "../rag/config/object-context";

/**
 * GET /api/records/<id>/linked-art: an object's Linked Art JSON-LD (lib/archive/linked-data).
 * The record is read as its IIIF Manifest reads it (getRecord through publicRoute: the reader's
 * projects plus the public ones), so the Manifest's `seeAlso` leads wherever the Manifest does;
 * relation values name only readable records. An unreadable record, a missing one, a malformed
 * id and a record that is no object (its section has no object context) are one not_found.
 */
export const linkedArtParamsSchema = z.object({ id: z.string().max(100) });

export async function linkedArtResponse(prisma: PrismaClient, principal: Principal, input: { recordId: string; origin: string }): Promise<Response> {
  const record = await getRecord(prisma, principal, input.recordId);
  const section = await prisma.section.findUniqueOrThrow({ where: { id: record.section.id }, select: { objectContext: true } });
  if (!hasObjectContext(section.objectContext)) throw notFound();
  const document = linkedArtObject(record, {
    origin: input.origin,
    dateKey: readObjectContext(section.objectContext)?.roles.date,
    manifest: showsInIiif(record),
  });
  return new Response(JSON.stringify(document), {
    headers: { "content-type": linkedArtContentType, "cache-control": "private, no-cache", "x-content-type-options": "nosniff" },
  });
}
