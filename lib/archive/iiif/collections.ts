import "server-only";
import { type Principal, canReadProject, projectScopeWhere } from "../../acl";
import type { Prisma, PrismaClient } from "../../db/generated/client";
import { notFound } from "../../errors";
import { type Collection, collection, iiifUrls, languageMap, plainValue } from "./presentation";

/**
 * Collections of Manifests: one per section (`/iiif/collection/section/<slug>`) and one per
 * project (`/iiif/collection/project/<slug>`), listing the records the principal may read that
 * have something to show (an image, a recording, a scanned page), by title. Over
 * `collectionPageSize` records a collection lists its pages instead, each a Collection of at most
 * that many Manifests (`…/<slug>/<page>`; Presentation 3 pages by sub-collections). A project the
 * principal cannot read, an unknown slug, a section or project with nothing readable to show and
 * a page past the end are one not_found.
 */
export const collectionPageSize = 500;

/** Records with a Manifest: a readable image, a recording, or a scan with a page image. */
const showable: Prisma.RecordWhereInput = {
  media: {
    some: {
      OR: [
        { kind: "image", imageCheck: { in: ["pending", "decoded"] } },
        { kind: { in: ["audio", "video"] } },
        { kind: "document", pages: { some: { width: { gt: 0 } } } },
      ],
    },
  },
};

type Scope = { kind: "section" | "project"; slug: string; name: string; summary?: string; where: Prisma.RecordWhereInput };

async function sectionScope(prisma: PrismaClient, principal: Principal, slug: string): Promise<Scope> {
  const section = await prisma.section.findUnique({ where: { slug }, select: { id: true, name: true, description: true } });
  if (!section) throw notFound();
  return {
    kind: "section",
    slug,
    name: section.name,
    summary: section.description || undefined,
    where: { sectionId: section.id, ...projectScopeWhere(principal), ...showable },
  };
}

async function projectScope(prisma: PrismaClient, principal: Principal, slug: string): Promise<Scope> {
  const project = await prisma.project.findUnique({ where: { slug }, select: { id: true, name: true, description: true } });
  if (!project || !canReadProject(principal, project.id)) throw notFound();
  return { kind: "project", slug, name: project.name, summary: project.description || undefined, where: { projectId: project.id, ...showable } };
}

export async function iiifCollection(
  prisma: PrismaClient,
  principal: Principal,
  input: { kind: "section" | "project"; slug: string; page?: number; origin: string; pageSize?: number },
): Promise<Collection> {
  const pageSize = input.pageSize ?? collectionPageSize;
  const scope = input.kind === "section" ? await sectionScope(prisma, principal, input.slug) : await projectScope(prisma, principal, input.slug);
  const urls = iiifUrls(input.origin);
  const idOf = (page?: number) => (scope.kind === "section" ? urls.sectionCollection(scope.slug, page) : urls.projectCollection(scope.slug, page));
  const total = await prisma.record.count({ where: scope.where });
  const pages = Math.ceil(total / pageSize);
  if (total === 0 || (input.page !== undefined && input.page > pages)) throw notFound();
  const label = languageMap(scope.name, "en");
  const summary = scope.summary ? languageMap(plainValue(scope.summary), "en") : undefined;

  if (input.page === undefined && pages > 1) {
    return collection({
      id: idOf(),
      label,
      summary,
      items: Array.from({ length: pages }, (_, index) => {
        const first = index * pageSize + 1;
        const last = Math.min(total, (index + 1) * pageSize);
        return { id: idOf(index + 1), type: "Collection", label: languageMap(`${scope.name}: records ${first}–${last} of ${total}`, "en") };
      }),
    });
  }
  const page = input.page ?? 1;
  const records = await prisma.record.findMany({
    where: scope.where,
    select: { id: true, title: true },
    orderBy: [{ title: "asc" }, { id: "asc" }],
    skip: (page - 1) * pageSize,
    take: pageSize,
  });
  return collection({
    id: idOf(input.page),
    label: input.page === undefined ? label : languageMap(`${scope.name}: page ${page} of ${pages}`, "en"),
    summary,
    partOf: input.page === undefined ? undefined : [{ id: idOf(), type: "Collection", label }],
    items: records.map((record) => ({ id: urls.manifest(record.id), type: "Manifest", label: languageMap(record.title) })),
  });
}
