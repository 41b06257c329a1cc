import "server-only";
import { getConfig } from "../config";
import type { PrismaClient } from "../db/generated/client";
import { type ExpiringCache, createExpiringCache } from "../expiring-cache";
import { AppError } from "../errors";
import { unstorableTextProblem } from "../storable-text";
import { type FieldDefinition, sectionFieldsSchema } from "./field-definitions";

export interface SectionSummary {
  id: string;
  slug: string;
  name: string;
  description: string;
  fields: FieldDefinition[];
  egressPolicy: "local_only" | "allow_external";
}

function toSummary(row: {
  id: string;
  slug: string;
  name: string;
  description: string;
  fields: unknown;
  egressPolicy: "local_only" | "allow_external";
}): SectionSummary {
  return { ...row, fields: sectionFieldsSchema.parse(row.fields) };
}

/** Sections are the archive's structure, not its content: every signed-in user may list them. */
export async function listSections(prisma: PrismaClient): Promise<SectionSummary[]> {
  const rows = await prisma.section.findMany({ orderBy: [{ position: "asc" }, { name: "asc" }] });
  return rows.map(toSummary);
}

export async function getSectionBySlug(prisma: PrismaClient, slug: string): Promise<SectionSummary> {
  // A slug the database cannot even compare (a NUL in the URL) names no section either.
  const row = unstorableTextProblem(slug) ? null : await prisma.section.findUnique({ where: { slug } });
  if (!row) throw new AppError("bad_request", `There is no section called "${slug.slice(0, 80)}".`);
  return toSummary(row);
}

// On globalThis: one cache per process, whichever chunk of a bundle a caller sits in.
const cacheKey = Symbol.for("mnemo.sections");
const holder = globalThis as { [cacheKey]?: ExpiringCache<SectionSummary[]> };
const sectionCache = (holder[cacheKey] ??= createExpiringCache<SectionSummary[]>({
  ttlMs: () => getConfig().MNEMO_SECTION_CACHE_MS ?? 30_000,
  copy: (sections) => structuredClone(sections),
}));

/**
 * The sections for what reads them on every request (the record list and its filters, the
 * API's section list): parsed once and kept by this process for MNEMO_SECTION_CACHE_MS (default
 * 30 s). They are the same for every signed-in user, so nothing of anyone's is kept. An edit
 * through this process (egress policy, Dublin Core mapping, object context, a restored backup)
 * forgets them at once; another process shows it within the cache time. The index worker and
 * the administration read them fresh (listSections).
 */
export async function listSectionsCached(prisma: PrismaClient): Promise<SectionSummary[]> {
  return sectionCache.get(prisma, "all", () => listSections(prisma));
}

/** One section by slug from the cached list; a slug it lacks is looked up (a section made since), and found, renews the list. */
export async function getSectionBySlugCached(prisma: PrismaClient, slug: string): Promise<SectionSummary> {
  const cached = (await listSectionsCached(prisma)).find((section) => section.slug === slug);
  if (cached) return cached;
  const section = await getSectionBySlug(prisma, slug);
  forgetSections(prisma);
  return section;
}

/** A section changed (or may have): this process reads the sections again on the next request. */
export function forgetSections(prisma: PrismaClient): void {
  sectionCache.forget(prisma);
}

/** Every section's slug and name, in the archive's order: for a choice of section. */
export async function listSectionNames(prisma: PrismaClient): Promise<{ slug: string; name: string }[]> {
  return prisma.section.findMany({ orderBy: [{ position: "asc" }], select: { slug: true, name: true } });
}

/** The id of the section called `slug`, or null when there is none. */
export async function findSectionId(prisma: PrismaClient, slug: string): Promise<string | null> {
  const section = await prisma.section.findUnique({ where: { slug }, select: { id: true } });
  return section?.id ?? null;
}

/** A section's settings that its admin page shows: the egress policy and the stored object context (unparsed). */
export async function readSectionSettings(
  prisma: PrismaClient,
  sectionId: string,
): Promise<{ objectContext: unknown; egressPolicy: SectionSummary["egressPolicy"] } | null> {
  return prisma.section.findUnique({ where: { id: sectionId }, select: { objectContext: true, egressPolicy: true } });
}
