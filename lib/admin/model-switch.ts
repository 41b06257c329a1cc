import "server-only";
import { type Principal, actorIdOf, assertAdmin } from "../acl";
import { auditSql } from "../db/audit";
import type { PrismaClient } from "../db/generated/client";
import type { SqlExecutor } from "../db/sql-executor";
import { getConfig } from "../config";
import { AppError, notFound, parseInput } from "../errors";
import { enqueueReindex } from "../rag/index/index-queue";
import { type FusionCalibration, activateIndexSpace, getActiveIndexSpace } from "../rag/index/index-spaces";
import { embedderForSpace, listSpaces, registerConfiguredSpace, spaceConfigSchema } from "../rag/index/space-embedders";
import { passThroughReranker } from "../rag/search/rerank";
import { type GoldenMetrics, runGoldenSet } from "./golden-sets";

/**
 * Switching the embedding model without a gap: an admin registers a new index space (its
 * provider, URL, model, dimension and the name of the variable holding its key), the worker
 * builds it beside the active one (every record is queued; unchanged passages of the active
 * space are not re-embedded), a golden set is run on both, and the switch is one update, as is
 * the rollback to the previous space. Admins only; anyone else: not found.
 */

/** An audit event about an index space (admin actions on spaces, fusion measurements). */
export async function auditIndexSpace(sql: SqlExecutor, principal: Principal, action: string, spaceId: string, details: Record<string, unknown>) {
  await auditSql(sql, { actorId: actorIdOf(principal), action, targetType: "index_space", targetId: spaceId, details });
}

export interface SpaceOverview {
  id: string;
  name: string;
  status: "building" | "active" | "retired";
  records: number;
  indexed: number;
  /** Whether this server can embed queries and passages for it. */
  usable: boolean;
  activatedAt: Date | null;
  registeredByAdmin: boolean;
  /** Measured fusion weights, or null for equal weights. */
  fusion: FusionCalibration | null;
}

export async function listSpaceOverview(sql: SqlExecutor, principal: Principal): Promise<SpaceOverview[]> {
  assertAdmin(principal);
  const [total] = await sql.query<{ count: number }>(`SELECT count(*)::int AS count FROM records`);
  const counts = await sql.query<{ index_space_id: string; records: number }>(
    `SELECT index_space_id, count(DISTINCT record_id)::int AS records FROM chunks GROUP BY index_space_id`,
  );
  return (await listSpaces(sql)).map((space) => ({
    id: space.id,
    name: space.name,
    status: space.status,
    records: total?.count ?? 0,
    indexed: counts.find((row) => row.index_space_id === space.id)?.records ?? 0,
    usable: Boolean(embedderForSpace(space)),
    activatedAt: space.activatedAt,
    registeredByAdmin: space.config !== null,
    fusion: space.fusion,
  }));
}

export async function registerCandidateSpace(sql: SqlExecutor, principal: Principal, input: unknown): Promise<{ spaceId: string; queued: number }> {
  assertAdmin(principal);
  const config = parseInput(spaceConfigSchema, input);
  if (config.provider === "hash" && !getConfig().hashEmbedderAllowed) {
    throw new AppError("bad_request", "The hash embedder is for tests; set MNEMO_ALLOW_HASH_EMBEDDER=1 to register it.");
  }
  const space = await registerConfiguredSpace(sql, config);
  if (space.status === "active") throw new AppError("bad_request", "This model is the active index space already.");
  await sql.query(`UPDATE index_spaces SET status = 'building' WHERE id = $1`, [space.id]);
  const queued = await enqueueReindex(sql, {}, "space.build");
  await auditIndexSpace(sql, principal, "index-space.register", space.id, { name: space.name, config: { ...config } });
  return { spaceId: space.id, queued };
}

/** A golden set on the active space and on a candidate, side by side. */
export async function compareSpaces(
  prisma: PrismaClient,
  sql: SqlExecutor,
  principal: Principal,
  input: { goldenSetId: string; candidateId: string; mode?: string },
): Promise<{ space: string; spaceId: string; metrics: GoldenMetrics }[]> {
  assertAdmin(principal);
  const spaces = await listSpaces(sql);
  const active = spaces.find((space) => space.status === "active");
  const candidate = spaces.find((space) => space.id === input.candidateId);
  if (!candidate) throw notFound();
  const out: { space: string; spaceId: string; metrics: GoldenMetrics }[] = [];
  for (const space of active && active.id !== candidate.id ? [active, candidate] : [candidate]) {
    const embedder = embedderForSpace(space);
    if (!embedder) throw new AppError("unavailable", `This server cannot embed queries for ${space.name}.`);
    const run = await runGoldenSet(prisma, { sql, embedder, reranker: passThroughReranker, space }, principal, {
      id: input.goldenSetId,
      mode: input.mode ?? "hybrid",
    });
    out.push({ space: space.name, spaceId: space.id, metrics: run.metrics });
  }
  return out;
}

export async function activateSpace(sql: SqlExecutor, principal: Principal, spaceId: string): Promise<void> {
  assertAdmin(principal);
  const overview = (await listSpaceOverview(sql, principal)).find((space) => space.id === spaceId);
  if (!overview) throw notFound();
  if (overview.status === "active") throw new AppError("bad_request", "This space is active already.");
  if (!overview.usable) throw new AppError("bad_request", "This server cannot embed queries for this space (its model or key is not available here).");
  if (overview.indexed < overview.records) {
    throw new AppError("bad_request", `Only ${overview.indexed} of ${overview.records} records are indexed in this space; wait for the build to finish.`);
  }
  const previous = await getActiveIndexSpace(sql);
  await activateIndexSpace(sql, spaceId);
  await auditIndexSpace(sql, principal, "index-space.activate", spaceId, { name: overview.name, previous: previous?.name ?? null });
}

/** Back to the space that was active before the current one. */
export async function rollbackSpace(sql: SqlExecutor, principal: Principal): Promise<{ spaceId: string }> {
  assertAdmin(principal);
  const active = await getActiveIndexSpace(sql);
  const [previous] = await sql.query<{ id: string }>(
    `SELECT id FROM index_spaces WHERE status = 'retired' AND activated_at IS NOT NULL ${active ? "AND id <> $1" : ""} ORDER BY activated_at DESC LIMIT 1`,
    active ? [active.id] : [],
  );
  if (!previous) throw new AppError("bad_request", "There is no earlier active space to roll back to.");
  await activateIndexSpace(sql, previous.id);
  await auditIndexSpace(sql, principal, "index-space.rollback", previous.id, { from: active?.name ?? null });
  return { spaceId: previous.id };
}
