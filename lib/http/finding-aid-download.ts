import "server-only";
import type { Principal } from "../acl";
import { type XmlFile, personAuthorityRecord, projectFindingAid } from "../archive/finding-aids/export-finding-aids";
import type { PrismaClient } from "../db/generated/client";

/**
 * The finding aids as files the browser saves and archival systems (AtoM, ArchivesSpace) import:
 * XML with a file name, never cached (what a reader may read changes with their memberships).
 */
export function xmlDownload(file: XmlFile): Response {
  return new Response(file.body, {
    headers: {
      "content-type": "application/xml; charset=utf-8",
      "content-disposition": `attachment; filename="${file.fileName}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}

/** GET /api/projects/<slug>/ead3 and /api/v1/projects/<slug>/ead3: the project as an EAD3 finding aid. */
export async function projectEad3Response(
  prisma: PrismaClient,
  principal: Principal,
  request: Request,
  options: { slug: string; origin: string; agency?: string },
): Promise<Response> {
  const url = `${options.origin.replace(/\/+$/, "")}${new URL(request.url).pathname}`;
  return xmlDownload(await projectFindingAid(prisma, principal, { ...options, url }));
}

/** GET /api/records/<id>/eac-cpf and /api/v1/records/<id>/eac-cpf: a person as an EAC-CPF record. */
export async function personEacCpfResponse(
  prisma: PrismaClient,
  principal: Principal,
  options: { id: string; origin: string; agency?: string },
): Promise<Response> {
  return xmlDownload(await personAuthorityRecord(prisma, principal, options));
}
