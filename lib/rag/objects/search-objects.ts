import "server-only";
import pgvector from "pgvector";
import { z } from "zod";
import { type Principal, canRead, projectScopeSql } from "../../acl";
import { AppError } from "../../errors";
import { EmbeddingError, errorMessage } from "../embed/embedder";
import { type Leg, type SearchContext, searchArchive } from "../search/search-archive";
import { queryTextSchema } from "../../query-length";
import { imageSpaceName } from "../embed/descriptor-embedder";
import type { ObjectsRuntime } from "./similar-objects";
import { type ObjectSection, listObjectSections } from "./list-object-sections";

/**
 * Objects by description ("a silver coin with a horse"). With a multimodal (CLIP-style)
 * endpoint configured, the words go through its text tower and meet the images' vectors in
 * its space — only images of sections allowed to egress were ever sent there. Without one,
 * the objects' catalogue text is searched by meaning instead, and the result says so.
 */

/** What a person is told when the image model's text tower fails; the reason goes to the log. */
export const objectsByDescriptionUnavailableMessage =
  "Finding objects by description is unavailable right now because the image model is not working. Searching the records' text still works; try again later.";

export const objectSearchSchema = z.object({
  query: queryTextSchema({ what: "A description", missing: "Describe what you are looking for." }),
  sectionSlug: z.string().max(64).optional(),
  limit: z.coerce
    .number()
    .int()
    .catch(24)
    .default(24)
    .transform((value) => Math.max(1, Math.min(48, value))),
});
export type ObjectSearchInput = z.input<typeof objectSearchSchema>;

export interface ObjectSearchHit {
  recordId: string;
  title: string;
  sectionName: string;
  similarity: number | null;
  /** What found it: the meaning leg, the words, or both (multimodal: the image model, "meaning"). */
  legs: Leg[];
  images: { view: string; mediaId: string }[];
}

export interface ObjectSearchResult {
  via: "multimodal" | "catalogue-text";
  /** The model that matched, for the label. */
  model: string;
  hits: ObjectSearchHit[];
}

async function objectSections(runtime: ObjectsRuntime, sectionSlug: string | undefined): Promise<ObjectSection[]> {
  const sections = await listObjectSections(runtime.sql);
  if (sectionSlug === undefined) return sections;
  const chosen = sections.filter((section) => section.slug === sectionSlug);
  if (chosen.length === 0) throw new AppError("bad_request", "Choose a collection of objects.");
  return chosen;
}

async function thumbnails(runtime: ObjectsRuntime, recordIds: string[]): Promise<Map<string, { view: string; mediaId: string }[]>> {
  if (recordIds.length === 0) return new Map();
  const rows = await runtime.sql.query<{ record_id: string; view: string | null; id: string }>(
    `SELECT record_id, view, id FROM media WHERE record_id = ANY($1::text[]) AND kind = 'image' ORDER BY field_key`,
    [recordIds],
  );
  const byRecord = new Map<string, { view: string; mediaId: string }[]>();
  for (const row of rows) byRecord.set(row.record_id, [...(byRecord.get(row.record_id) ?? []), { view: row.view ?? "", mediaId: row.id }]);
  return byRecord;
}

export async function searchObjectsByText(
  runtime: ObjectsRuntime,
  search: SearchContext,
  principal: Principal,
  raw: ObjectSearchInput,
): Promise<ObjectSearchResult> {
  const input = objectSearchSchema.parse(raw);
  const sections = await objectSections(runtime, input.sectionSlug);
  const multimodal = runtime.multimodal;
  if (multimodal?.embedTexts) {
    let vector: Float32Array | undefined;
    try {
      [vector] = await multimodal.embedTexts([input.query]);
    } catch (error) {
      if (!(error instanceof EmbeddingError)) throw error;
      console.warn(`[objects] the description could not be embedded: ${errorMessage(error)}`);
      throw new AppError("unavailable", objectsByDescriptionUnavailableMessage, { cause: error });
    }
    if (!vector) throw new AppError("unavailable", "The image model returned nothing for this description.");
    const dimension = multimodal.dimension;
    if (!Number.isInteger(dimension) || dimension < 1 || dimension > 4000) throw new Error(`unsupported dimension ${dimension}`);
    const params: unknown[] = [pgvector.toSql(Array.from(vector)), imageSpaceName(multimodal), sections.map((section) => section.id), input.limit];
    const scope = projectScopeSql(principal, "r.project_id", params);
    const rows = await runtime.sql.query<{ record_id: string; title: string; project_id: string; name: string; similarity: number }>(
      `SELECT DISTINCT ON (best.record_id) best.* FROM (
         SELECT v.record_id, r.title, r.project_id, s.name, 1 - (v.embedding::vector(${dimension}) <=> $1::vector(${dimension})) AS similarity
           FROM object_vectors v JOIN records r ON r.id = v.record_id JOIN sections s ON s.id = r.section_id
          WHERE v.space = $2 AND v.kind = 'image' AND r.section_id = ANY($3::text[]) AND ${scope}
          ORDER BY v.embedding::vector(${dimension}) <=> $1::vector(${dimension})
          LIMIT $4 * 4) best
       ORDER BY best.record_id, best.similarity DESC`,
      params,
    );
    const ranked = rows
      .filter((row) => canRead(principal, { projectId: row.project_id }))
      .sort((a, b) => b.similarity - a.similarity)
      .slice(0, input.limit);
    const images = await thumbnails(
      runtime,
      ranked.map((row) => row.record_id),
    );
    return {
      via: "multimodal",
      model: multimodal.model,
      hits: ranked.map((row) => ({
        recordId: row.record_id,
        title: row.title,
        sectionName: row.name,
        similarity: Number(row.similarity),
        legs: ["meaning"],
        images: images.get(row.record_id) ?? [],
      })),
    };
  }
  const result = await searchArchive(search, principal, {
    query: input.query,
    mode: search.space ? "hybrid" : "keyword",
    limit: input.limit,
    sectionIds: sections.map((section) => section.id),
    collapse: "record",
  });
  const images = await thumbnails(
    runtime,
    result.hits.map((hit) => hit.recordId),
  );
  return {
    via: "catalogue-text",
    model: search.space?.model ?? "keyword index",
    hits: result.hits.map((hit) => ({
      recordId: hit.recordId,
      title: hit.recordTitle,
      sectionName: hit.sectionName,
      similarity: hit.similarity,
      legs: hit.legs,
      images: images.get(hit.recordId) ?? [],
    })),
  };
}
