import "server-only";
import { z } from "zod";
import type { PrismaClient } from "../../db/generated/client";
import { type Principal, canReadProject } from "../../acl";
import { AppError } from "../../errors";
import { type SearchHit, maxQueryLength, searchArchive } from "../../rag/search/search-archive";
import { type ApiCitation, toCitation } from "../api-schemas";
import type { OperationContext } from "./operation";

/** The input pieces several operations share, and the lookups behind them. */
export const id = z.string().min(1).max(64);
export const recordIdInput = id.describe("A record's id (as returned by search or read_record).");
export const queryInput = z
  .string()
  .trim()
  .min(1, "Send some text to search for.")
  .max(maxQueryLength, `A query can be at most ${maxQueryLength} characters long.`)
  .describe("What to look for, in English, Spanish or Catalan; meaning matches across languages.");
export const sectionsInput = z.array(id).max(50).optional().describe("Only these sections, by slug (see list_sections).");
export const projectIdsInput = z.array(id).max(50).optional().describe("Only these projects, by id or slug.");
const recordIdsInput = z.array(id).max(500).optional().describe("Only these records, by id.");
/** Narrowing to sections, projects and records, as retrieval and ask take it. */
export const scopeInputs = { sections: sectionsInput, projectIds: projectIdsInput, recordIds: recordIdsInput };
export const limitInput = (fallback: number, max: number) =>
  z.coerce
    .number()
    .int("The limit must be a whole number.")
    .min(1, "The limit must be at least 1.")
    .max(max, `The limit can be at most ${max}.`)
    .default(fallback)
    .describe(`How many results (1–${max}, default ${fallback}).`);

/** The version a change is made against (read_record's `version`): a stale one is refused with 409, and nothing is written. */
export const versionInput = z
  .number("The version is a number: read_record's `version`.")
  .int("The version is a whole number.")
  .min(1, "The version is at least 1.")
  .max(2_147_483_647, "The version is not valid.")
  .describe(
    "The record's version as you read it (read_record's `version`, or the last change's). A stale version is refused with 409 conflict; read the record again.",
  );
/** A record's field values by field key, as list_sections and read_record's `fields` describe them. */
export const recordValuesInput = z
  .record(z.string().min(1).max(64), z.unknown())
  .describe(
    "Field values by field key (see read_record's `fields` or list_sections): text as strings, dates like 1962-04-18, date ranges as {from, to} years, categories one of their options, relations as record ids (an array for a multiple relation), media as media ids.",
  );

/** What a written record's audit event says about the call: the channel and the token (never its secret). */
export function auditDetailsOf(context: OperationContext): Record<string, string> {
  return context.via ? { via: context.via.channel, apiTokenId: context.via.tokenId } : {};
}

/**
 * Projects as an agent may name them: by id, or by slug when the slug names a project the
 * principal may read (canReadProject decides). Anything else is kept as written and so finds
 * nothing, exactly as an unknown id: an unreadable project's slug is never resolved.
 */
export async function projectIdsOf(prisma: PrismaClient, principal: Principal, values: readonly string[] | undefined): Promise<string[] | undefined> {
  if (!values) return undefined;
  if (values.length === 0) return [];
  const rows = await prisma.project.findMany({ where: { OR: [{ id: { in: [...values] } }, { slug: { in: [...values] } }] }, select: { id: true, slug: true } });
  const readable = rows.filter((row) => canReadProject(principal, row.id));
  return values.map((value) => (readable.some((row) => row.id === value) ? value : (readable.find((row) => row.slug === value)?.id ?? value)));
}

/** Section slugs to ids; sections are structure, not content, so an unknown slug is named. */
export async function sectionIdsOf(prisma: PrismaClient, slugs: readonly string[] | undefined): Promise<string[] | undefined> {
  if (!slugs || slugs.length === 0) return undefined;
  const rows = await prisma.section.findMany({ where: { slug: { in: [...slugs] } }, select: { id: true, slug: true } });
  const unknown = slugs.filter((slug) => !rows.some((row) => row.slug === slug));
  if (unknown.length > 0) {
    throw new AppError("bad_request", "Some values are not valid.", {
      fieldErrors: { sections: unknown.map((slug) => `There is no section "${slug.slice(0, 64)}"; list_sections names them.`) },
    });
  }
  return rows.map((row) => row.id);
}

/** Hybrid search for passages (not records), narrowed as the input says. */
export async function passageSearch(
  input: { query: string; limit: number; sections?: string[]; projectIds?: string[]; recordIds?: string[] },
  context: OperationContext,
) {
  const search = await context.runtime.search();
  const sectionIds = await sectionIdsOf(context.runtime.prisma, input.sections);
  return searchArchive(search, context.principal, {
    query: input.query,
    mode: "hybrid",
    limit: input.limit,
    sectionIds,
    projectIds: await projectIdsOf(context.runtime.prisma, context.principal, input.projectIds),
    recordIds: input.recordIds,
    collapse: "passage",
  });
}

export function hitCitation(hit: SearchHit, number: number, origin: string): ApiCitation {
  return toCitation(String(number), hit, origin);
}
