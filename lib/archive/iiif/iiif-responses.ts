import "server-only";
import type { Principal } from "../../acl";
import type { PrismaClient } from "../../db/generated/client";
import { iiifCollection } from "./collections";
import type { ImageServiceSettings } from "./image-request";
import { presentationContentType } from "./presentation";
import { recordManifest } from "./record-manifest";
import { scanPageAnnotations } from "./scan-page-annotations";

/**
 * The Presentation API's answers: JSON-LD with the Presentation 3 profile. Read per request
 * (`no-cache`), so an unpublished project or a changed membership shows at once.
 */
function presentationResponse(resource: unknown): Response {
  return new Response(JSON.stringify(resource), {
    headers: { "content-type": presentationContentType, "cache-control": "private, no-cache", "x-content-type-options": "nosniff" },
  });
}

export async function manifestResponse(
  prisma: PrismaClient,
  principal: Principal,
  input: { recordId: string; origin: string; storageDir: string; imageSettings?: ImageServiceSettings },
): Promise<Response> {
  return presentationResponse(await recordManifest(prisma, principal, input));
}

export async function scanPageAnnotationsResponse(
  prisma: PrismaClient,
  principal: Principal,
  input: { recordId: string; field: string; page: string; origin: string },
): Promise<Response> {
  return presentationResponse(await scanPageAnnotations(prisma, principal, input));
}

export async function collectionResponse(
  prisma: PrismaClient,
  principal: Principal,
  input: { kind: "section" | "project"; slug: string; page?: string; origin: string },
): Promise<Response> {
  return presentationResponse(await iiifCollection(prisma, principal, { ...input, page: collectionPage(input.page) }));
}

/** A page of a collection is a positive number; anything else names no page (not_found follows). */
function collectionPage(page: string | undefined): number | undefined {
  if (page === undefined) return undefined;
  return /^[1-9]\d{0,5}$/.test(page) ? Number(page) : Number.MAX_SAFE_INTEGER;
}
