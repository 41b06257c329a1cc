import "server-only";
import pgvector from "pgvector";
import { type EgressPolicy, type Principal, canRead, projectScopeSql } from "../../acl";
import type { FieldDefinition } from "../../archive/field-definitions";
import { isUuid } from "../../ids";
import type { SqlExecutor } from "../../db/sql-executor";
import { AppError, notFound } from "../../errors";
import { reciprocalRankFusion, defaultRrfK } from "../search/reciprocal-rank-fusion";
import { dot } from "../embed/embedder";
import { type ObjectContext, type ProposalRole, dateRangeOf, proposalRoles, readObjectContext, roleValue } from "../config/object-context";

/**
 * Neighbours of an object, the core of "similar objects" and of proposals. Each leg is one
 * nearest-neighbour list, scoped to readable projects IN the SQL: one per image view the object
 * has (its obverse against obverses, its reverse against reverses) and, in hybrid mode, one of
 * the catalogue context (material, typology, period as text). The legs are fused by reciprocal
 * rank, so an object close on both faces ranks above one close on a single face, and each
 * fused candidate then gets its exact similarity on every leg. Its details are read again with
 * the access predicate and gated before they leave.
 */
export interface ObjectSubject {
  recordId: string;
  projectId: string;
  title: string;
  sectionId: string;
  sectionSlug: string;
  sectionName: string;
  fields: FieldDefinition[];
  values: Record<string, unknown>;
  context: ObjectContext;
  compareSectionIds: string[];
  egressPolicy: EgressPolicy;
}

export interface QueryLeg {
  /** "view:obverse" or "context" */
  leg: string;
  /** The leg's weight in the fusion (default 1). */
  weight?: number;
  space: string;
  view: string;
  dimension: number;
  vector: number[];
}

export interface Neighbour {
  recordId: string;
  title: string;
  projectId: string;
  sectionSlug: string;
  sectionName: string;
  /** Fused score over the legs, 1 = first in every leg. */
  score: number;
  /** Exact cosine similarity per leg the candidate has a vector for. */
  similarities: Record<string, number>;
  /** Mean of the image legs' similarities (null when it shares no view). */
  visualSimilarity: number | null;
  contextSimilarity: number | null;
  /** Thumbnail media per view. */
  images: { view: string; mediaId: string }[];
  roles: Partial<Record<ProposalRole, string>>;
  date: { from: number; to: number } | null;
}

/** Candidates per leg before fusion. */
export const legPool = 60;

const notObject = () => new AppError("bad_request", "This record is not an object: its section has no object context.");

export async function loadObjectSubject(sql: SqlExecutor, principal: Principal, recordId: string): Promise<ObjectSubject> {
  if (!isUuid(recordId)) throw notFound();
  // Access in the SQL (an unreadable record reads as no row, like a missing one) and again below.
  const lookup: unknown[] = [recordId];
  const [row] = await sql.query<{
    id: string;
    project_id: string;
    title: string;
    values: Record<string, unknown>;
    section_id: string;
    slug: string;
    name: string;
    fields: FieldDefinition[];
    object_context: unknown;
    egress_policy: EgressPolicy;
  }>(
    `SELECT r.id, r.project_id, r.title, r."values", r.section_id, s.slug, s.name, s.fields, s.object_context, s.egress_policy
       FROM records r JOIN sections s ON s.id = r.section_id WHERE r.id = $1 AND ${projectScopeSql(principal, "r.project_id", lookup)}`,
    lookup,
  );
  if (!row || !canRead(principal, { projectId: row.project_id })) throw notFound();
  const context = readObjectContext(row.object_context);
  if (!context) throw notObject();
  const compared = await sql.query<{ id: string }>(`SELECT id FROM sections WHERE slug = ANY($1::text[]) AND object_context IS NOT NULL`, [
    context.compareWith,
  ]);
  return {
    recordId: row.id,
    projectId: row.project_id,
    title: row.title,
    sectionId: row.section_id,
    sectionSlug: row.slug,
    sectionName: row.name,
    fields: row.fields,
    values: row.values,
    context,
    compareSectionIds: compared.map((section) => section.id),
    egressPolicy: row.egress_policy,
  };
}

/** Whether a record's section has an object context (the record page shows the object views). */
export async function isObjectRecord(sql: SqlExecutor, recordId: string): Promise<boolean> {
  if (!isUuid(recordId)) return false;
  const [row] = await sql.query<{ object_context: unknown }>(`SELECT s.object_context FROM records r JOIN sections s ON s.id = r.section_id WHERE r.id = $1`, [
    recordId,
  ]);
  return Boolean(row && readObjectContext(row.object_context));
}

/** The subject's own image vectors in a space, one leg per view. */
export async function imageLegs(sql: SqlExecutor, recordId: string, space: string): Promise<QueryLeg[]> {
  const rows = await sql.query<{ view: string; vector: string }>(
    `SELECT view, embedding::text AS vector FROM object_vectors WHERE record_id = $1 AND space = $2 AND kind = 'image' ORDER BY field_key`,
    [recordId, space],
  );
  const seen = new Set<string>();
  const legs: QueryLeg[] = [];
  for (const row of rows) {
    if (seen.has(row.view)) continue;
    seen.add(row.view);
    const vector = pgvector.fromSql(row.vector) as number[];
    legs.push({ leg: `view:${row.view}`, space, view: row.view, dimension: vector.length, vector });
  }
  return legs;
}

export function contextLeg(space: string, vector: Float32Array | number[], weight?: number): QueryLeg {
  return { leg: "context", space, view: "", dimension: vector.length, vector: Array.from(vector), weight };
}

function checkedDimension(dimension: number): number {
  if (!Number.isInteger(dimension) || dimension < 1 || dimension > 4000) throw new Error(`unsupported vector dimension: ${dimension}`);
  return dimension;
}

async function legList(sql: SqlExecutor, principal: Principal, subject: ObjectSubject, leg: QueryLeg, pool: number): Promise<string[]> {
  const dimension = checkedDimension(leg.dimension);
  const params: unknown[] = [pgvector.toSql(leg.vector), leg.space, leg.view, subject.compareSectionIds, subject.recordId, pool];
  const scope = projectScopeSql(principal, "r.project_id", params);
  const rows = await sql.query<{ record_id: string }>(
    `SELECT v.record_id
       FROM object_vectors v JOIN records r ON r.id = v.record_id
      WHERE v.space = $2 AND v.view = $3 AND r.section_id = ANY($4::text[]) AND r.id <> $5 AND ${scope}
      ORDER BY v.embedding::vector(${dimension}) <=> $1::vector(${dimension}), v.record_id
      LIMIT $6`,
    params,
  );
  return rows.map((row) => row.record_id);
}

function cosine(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) return 0;
  const na = dot(a, a);
  const nb = dot(b, b);
  return na > 0 && nb > 0 ? dot(a, b) / Math.sqrt(na * nb) : 0;
}

type VectorRow = { record_id: string; space: string; view: string; kind: string; media_id: string | null; vector: string };
type DetailRow = { id: string; title: string; project_id: string; values: Record<string, unknown>; slug: string; name: string; object_context: unknown };

/**
 * What findNeighbours has read for one subject and one principal, so that another call for the
 * same subject (a characterisation's role groups, which share the image legs) reads only what is
 * new: a leg's candidate list once, a candidate's vectors and details once. Made per request,
 * never shared between principals.
 */
export interface NeighbourReads {
  lists: Map<string, Promise<string[]>>;
  vectors: Map<string, VectorRow[]>;
  details: Map<string, DetailRow | null>;
}

export function neighbourReads(): NeighbourReads {
  return { lists: new Map(), vectors: new Map(), details: new Map() };
}

export interface NeighbourOptions {
  legs: QueryLeg[];
  /** Fused candidates to keep. */
  limit: number;
  /** Candidates per leg (default legPool). */
  pool?: number;
  k?: number;
  /** Keep only candidates at least this similar on every shared view (near-duplicates). */
  floor?: number;
  /** Reads kept from an earlier call for the same subject and principal. */
  reads?: NeighbourReads;
}

export async function findNeighbours(sql: SqlExecutor, principal: Principal, subject: ObjectSubject, options: NeighbourOptions): Promise<Neighbour[]> {
  if (options.legs.length === 0 || subject.compareSectionIds.length === 0) return [];
  const pool = options.pool ?? legPool;
  const k = options.k ?? defaultRrfK;
  const reads = options.reads ?? neighbourReads();
  const listOf = (leg: QueryLeg) => {
    const key = [leg.space, leg.view, pool, leg.vector.join(",")].join("\u0000");
    const list = reads.lists.get(key) ?? legList(sql, principal, subject, leg, pool);
    reads.lists.set(key, list);
    return list;
  };
  const lists = await Promise.all(options.legs.map(async (leg) => ({ leg: leg.leg, weight: leg.weight, ids: await listOf(leg) })));
  const fused = reciprocalRankFusion(lists, k);
  // Near-duplicates are judged on every candidate any view found; the others keep the fused head.
  const shortlist = options.floor === undefined ? fused.slice(0, options.limit) : fused;
  if (shortlist.length === 0) return [];
  const ids = shortlist.map((item) => item.id);

  // Exact similarities on every leg, and the thumbnails, for the shortlist.
  const spaces = [...new Set(options.legs.map((leg) => leg.space))].sort();
  const vectorKey = (id: string) => `${id}\u0000${spaces.join("\u0000")}`;
  const unreadVectors = ids.filter((id) => !reads.vectors.has(vectorKey(id)));
  if (unreadVectors.length > 0) {
    const rows = await sql.query<VectorRow>(
      `SELECT record_id, space, view, kind, media_id, embedding::text AS vector FROM object_vectors
        WHERE record_id = ANY($1::text[]) AND space = ANY($2::text[])`,
      [unreadVectors, spaces],
    );
    for (const id of unreadVectors) reads.vectors.set(vectorKey(id), []);
    for (const row of rows) reads.vectors.get(vectorKey(row.record_id))!.push(row);
  }
  const vectors = ids.flatMap((id) => reads.vectors.get(vectorKey(id))!);
  const similarities = new Map<string, Record<string, number>>();
  const images = new Map<string, { view: string; mediaId: string }[]>();
  for (const row of vectors) {
    const leg = options.legs.find((candidate) => candidate.space === row.space && candidate.view === row.view);
    if (row.kind === "image" && row.media_id) images.set(row.record_id, [...(images.get(row.record_id) ?? []), { view: row.view, mediaId: row.media_id }]);
    if (!leg) continue;
    const entry = similarities.get(row.record_id) ?? {};
    entry[leg.leg] = Math.max(entry[leg.leg] ?? -1, cosine(leg.vector, pgvector.fromSql(row.vector) as number[]));
    similarities.set(row.record_id, entry);
  }

  // The gate: details read with the access predicate again, and checked once more.
  const unreadDetails = ids.filter((id) => !reads.details.has(id));
  if (unreadDetails.length > 0) {
    const params: unknown[] = [unreadDetails];
    const scope = projectScopeSql(principal, "r.project_id", params);
    const rows = await sql.query<DetailRow>(
      `SELECT r.id, r.title, r.project_id, r."values", s.slug, s.name, s.object_context
         FROM records r JOIN sections s ON s.id = r.section_id WHERE r.id = ANY($1::text[]) AND ${scope}`,
      params,
    );
    for (const id of unreadDetails) reads.details.set(id, null);
    for (const row of rows) reads.details.set(row.id, row);
  }
  const byId = new Map(ids.flatMap((id) => (reads.details.get(id) ? [[id, reads.details.get(id)!] as const] : [])));
  const imageLegNames = options.legs.filter((leg) => leg.leg.startsWith("view:")).map((leg) => leg.leg);
  const maxScore = options.legs.reduce((sum, leg) => sum + (leg.weight ?? 1), 0) / (k + 1);
  const neighbours: Neighbour[] = [];
  for (const item of shortlist) {
    const detail = byId.get(item.id);
    if (!detail || !canRead(principal, { projectId: detail.project_id })) continue;
    const sims = similarities.get(item.id) ?? {};
    const visual = imageLegNames.map((leg) => sims[leg]).filter((value): value is number => value !== undefined);
    const context = readObjectContext(detail.object_context);
    const roles: Partial<Record<ProposalRole, string>> = {};
    if (context)
      for (const role of proposalRoles) {
        const value = roleValue(context, role, detail.values);
        if (value) roles[role] = value;
      }
    neighbours.push({
      recordId: item.id,
      title: detail.title,
      projectId: detail.project_id,
      sectionSlug: detail.slug,
      sectionName: detail.name,
      score: item.score / maxScore,
      similarities: sims,
      visualSimilarity: visual.length ? visual.reduce((sum, value) => sum + value, 0) / visual.length : null,
      contextSimilarity: sims.context ?? null,
      images: (images.get(item.id) ?? []).sort((a, b) => a.view.localeCompare(b.view)),
      roles,
      date: context?.roles.date ? dateRangeOf(detail.values[context.roles.date]) : null,
    });
  }
  if (options.floor === undefined) return neighbours;
  const floor = options.floor;
  return neighbours
    .filter((neighbour) => {
      const shared = imageLegNames.map((leg) => neighbour.similarities[leg]).filter((value): value is number => value !== undefined);
      return shared.length > 0 && shared.every((value) => value >= floor);
    })
    .sort((a, b) => (b.visualSimilarity ?? 0) - (a.visualSimilarity ?? 0) || a.recordId.localeCompare(b.recordId))
    .slice(0, options.limit);
}
