import "server-only";
import pgvector from "pgvector";
import { z } from "zod";
import type { Principal } from "../../acl";
import type { SqlExecutor } from "../../db/sql-executor";
import type { Embedder } from "../embed/embedder";
import type { IndexSpace } from "../index/index-spaces";
import { contextSpaceName } from "../embed/descriptor-embedder";
import type { ImageEmbedder } from "../embed/image-embedder";
import { type Neighbour, type NeighbourReads, type ObjectSubject, type QueryLeg, findNeighbours, imageLegs, loadObjectSubject } from "./object-neighbours";
import { defaultNearDuplicateFloor } from "../config/object-context";

/**
 * Similar objects of one object: hybrid (every image view plus the catalogue context, the
 * default — a bronze coin is not matched with a bronze button), visual only, or near-duplicates
 * (at least the floor on every shared view). Visual similarity uses the offline descriptor space,
 * which every section's images are in whatever their egress policy.
 */
export interface ObjectsRuntime {
  sql: SqlExecutor;
  /** The text embedder of the active space (context of proposals, text search). */
  embedder: Embedder;
  textSpace: IndexSpace | null;
  descriptor: ImageEmbedder;
  multimodal: ImageEmbedder | null;
  /** Near-duplicate floor instead of the nearDuplicateFloor setting, unless the section sets its own. */
  nearDuplicateFloor?: number;
}

export const similarObjectModes = ["hybrid", "visual", "near_duplicate"] as const;
export type SimilarObjectMode = (typeof similarObjectModes)[number];

export const maxSimilarObjects = 48;

export const similarObjectsRequestSchema = z.object({
  recordId: z.string().max(64),
  mode: z.enum(similarObjectModes).catch("hybrid").default("hybrid"),
  limit: z.coerce
    .number()
    .int()
    .catch(12)
    .default(12)
    .transform((value) => Math.max(1, Math.min(maxSimilarObjects, value))),
});
export type SimilarObjectsRequest = z.input<typeof similarObjectsRequestSchema>;

export interface SimilarObjectsResult {
  /** "pending": the object's images have not been described yet (the worker will). */
  status: "ok" | "pending";
  mode: SimilarObjectMode;
  views: string[];
  usedContext: boolean;
  floor: number | null;
  neighbours: Neighbour[];
}

export function descriptorSpace(runtime: Pick<ObjectsRuntime, "descriptor">): string {
  const { provider, model, dimension } = runtime.descriptor;
  return `${provider}/${model}/${dimension}`;
}

/** The object's stored context vector (all its catalogued roles) as a leg. */
export async function storedContextLeg(runtime: ObjectsRuntime, recordId: string): Promise<QueryLeg | null> {
  if (!runtime.textSpace) return null;
  const space = contextSpaceName(runtime.textSpace.id);
  const [row] = await runtime.sql.query<{ vector: string }>(
    `SELECT embedding::text AS vector FROM object_vectors WHERE record_id = $1 AND space = $2 AND kind = 'context'`,
    [recordId, space],
  );
  if (!row) return null;
  const vector = pgvector.fromSql(row.vector) as number[];
  return { leg: "context", space, view: "", dimension: vector.length, vector };
}

/**
 * `shared` lets a page's panels for one principal and one object read the subject and the
 * neighbours' lists, vectors and details once (findNeighbours' NeighbourReads); never shared
 * between principals.
 */
export async function findSimilarObjects(
  runtime: ObjectsRuntime,
  principal: Principal,
  request: SimilarObjectsRequest,
  shared: { subject?: ObjectSubject; reads?: NeighbourReads } = {},
): Promise<SimilarObjectsResult & { subject: ObjectSubject }> {
  const input = similarObjectsRequestSchema.parse(request);
  const subject = shared.subject?.recordId === input.recordId ? shared.subject : await loadObjectSubject(runtime.sql, principal, input.recordId);
  const views = await imageLegs(runtime.sql, subject.recordId, descriptorSpace(runtime));
  const base = { subject, mode: input.mode, views: views.map((leg) => leg.view) };
  if (views.length === 0) return { ...base, status: "pending", usedContext: false, floor: null, neighbours: [] };
  if (input.mode === "near_duplicate") {
    const floor = subject.context.nearDuplicateFloor ?? runtime.nearDuplicateFloor ?? defaultNearDuplicateFloor;
    const neighbours = await findNeighbours(runtime.sql, principal, subject, { legs: views, limit: input.limit, floor, reads: shared.reads });
    return { ...base, status: "ok", usedContext: false, floor, neighbours };
  }
  const context = input.mode === "hybrid" ? await storedContextLeg(runtime, subject.recordId) : null;
  const legs = context ? [...views, context] : views;
  const neighbours = await findNeighbours(runtime.sql, principal, subject, { legs, limit: input.limit, reads: shared.reads });
  return { ...base, status: "ok", usedContext: Boolean(context), floor: null, neighbours };
}
