import "server-only";
import { z } from "zod";
import { type Config, getConfig } from "../../config";
import type { SqlExecutor } from "../../db/sql-executor";

/**
 * An index space is one embedding model's view of the archive: (provider, model, dimension,
 * chunker version). Each has its own partial HNSW cosine index over the chunks of that space,
 * so a new model can be built beside the active one and switched to in one update.
 */
export interface IndexSpace {
  id: string;
  name: string;
  provider: string;
  model: string;
  dimension: number;
  chunkerVersion: number;
  status: "building" | "active" | "retired";
  /** How to build its embedder (spaces registered by an admin); absent: the environment's. */
  config?: unknown;
  /** Hybrid fusion weights measured on golden sets; null: meaning and words weigh the same. */
  fusion: FusionCalibration | null;
}

export const fusionSlices = ["all", "en", "es", "ca"] as const;
export type FusionSlice = (typeof fusionSlices)[number];
const share = z.number().min(0).max(1);
const sliceFigures = z.object({
  queries: z.number().int().min(0),
  /** nDCG@10 of each leg alone, of equal weights, and of the chosen share. */
  keyword: z.number(),
  semantic: z.number(),
  equal: z.number(),
  calibrated: z.number(),
});

/**
 * How much hybrid search trusts meaning against words in one index space: the meaning leg's
 * share of the fusion (0 = words only, 0.5 = equal, 1 = meaning only), overall and for queries in
 * a language that had enough golden questions, with the figures it was chosen from. A stronger
 * embedder measures better and so gets more weight without anyone setting it.
 */
export const fusionCalibrationSchema = z.object({
  /**
   * How the share is applied: "scores", the weighted sum of each leg's scores scaled to its best.
   * A calibration without it was measured for weighted reciprocal-rank fusion, whose shares mean
   * something else: it reads as not measured, and the space is measured again.
   */
  method: z.literal("scores"),
  meaningShare: z.object({ all: share, en: share.optional(), es: share.optional(), ca: share.optional() }),
  figures: z.partialRecord(z.enum(fusionSlices), sliceFigures),
  /**
   * BM25's length normalisation b for the words leg, per query language, measured on the same
   * questions (see chooseLengthNormalisation); absent, the bm25B setting. A space of short catalogue
   * entries beside long testimonies wants less of it for some languages than a space of abstracts.
   */
  lengthNormalisation: z.object({ all: share, en: share.optional(), es: share.optional(), ca: share.optional() }).optional(),
  /**
   * What a record's second-best passage adds to its words score (see recordScores), measured on
   * the same questions for the whole space; absent, the secondPassageShare setting. Abstracts of one
   * argument want little of it; long testimonies whose evidence spans passages want it whole.
   */
  secondPassage: share.optional(),
  /** The words leg's nDCG@10 (each question at its language's b) at each share tried. */
  secondPassageFigures: z.array(z.object({ share, keyword: z.number() })).optional(),
  /** The words leg's nDCG@10 at each b tried, per slice. */
  lengthFigures: z.partialRecord(z.enum(fusionSlices), z.array(z.object({ b: share, keyword: z.number() }))).optional(),
  /** Hybrid nDCG@10 at each meaning share tried, per slice (the slice's own questions, not shrunk). */
  shareFigures: z.partialRecord(z.enum(fusionSlices), z.array(z.object({ share, hybrid: z.number() }))).optional(),
  /** Where the questions came from, e.g. golden set names. */
  source: z.string().max(500),
  measuredAt: z.string(),
});
export type FusionCalibration = z.infer<typeof fusionCalibrationSchema>;

function parseFusion(value: unknown): FusionCalibration | null {
  if (value === null || value === undefined) return null;
  const parsed = fusionCalibrationSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** Stores a space's measured fusion weights (null returns it to equal weights). */
export async function saveFusionCalibration(sql: SqlExecutor, spaceId: string, fusion: FusionCalibration | null): Promise<void> {
  await sql.query(`UPDATE index_spaces SET fusion = $2::jsonb WHERE id = $1`, [
    spaceId,
    fusion === null ? null : JSON.stringify(fusionCalibrationSchema.parse(fusion)),
  ]);
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** How an HNSW index is built: pgvector's defaults unless the configuration says otherwise. */
export interface HnswBuild {
  m: number;
  efConstruction: number;
}

/** The configured build (MNEMO_HNSW_M, MNEMO_HNSW_EF_CONSTRUCTION). */
export function configuredHnswBuild(config: Pick<Config, "MNEMO_HNSW_M" | "MNEMO_HNSW_EF_CONSTRUCTION"> = getConfig()): HnswBuild {
  return { m: config.MNEMO_HNSW_M, efConstruction: config.MNEMO_HNSW_EF_CONSTRUCTION };
}

/** A graph pgvector will build: whole numbers, ef_construction at least twice m and at most 1,000. */
export function isValidHnswBuild({ m, efConstruction }: HnswBuild): boolean {
  return Number.isInteger(m) && Number.isInteger(efConstruction) && m >= 2 && efConstruction >= 2 * m && efConstruction <= 1000;
}

/**
 * The index's name and DDL; DDL cannot bind parameters, so the id, dimension and build are
 * checked. The build is the configured one unless given.
 */
export function hnswIndexStatement(space: Pick<IndexSpace, "id" | "dimension">, build: HnswBuild = configuredHnswBuild()): { name: string; sql: string } {
  if (!uuidPattern.test(space.id)) throw new Error(`unexpected index space id: ${space.id}`);
  if (!Number.isInteger(space.dimension) || space.dimension < 1 || space.dimension > 4000) {
    throw new Error(`unsupported vector dimension: ${space.dimension}`);
  }
  if (!isValidHnswBuild(build)) {
    throw new Error(`unsupported HNSW build: m ${build.m}, ef_construction ${build.efConstruction}`);
  }
  const name = `chunks_embedding_${space.id.replace(/-/g, "")}_idx`;
  return {
    name,
    sql: `CREATE INDEX IF NOT EXISTS "${name}" ON "chunks" USING hnsw ((embedding::vector(${space.dimension})) vector_cosine_ops) WITH (m = ${build.m}, ef_construction = ${build.efConstruction}) WHERE index_space_id = '${space.id}'`,
  };
}

export function toSpace(row: Record<string, unknown>): IndexSpace {
  return {
    id: String(row.id),
    name: String(row.name),
    provider: String(row.provider),
    model: String(row.model),
    dimension: Number(row.dimension),
    chunkerVersion: Number(row.chunker_version),
    status: row.status as IndexSpace["status"],
    config: row.config ?? undefined,
    fusion: parseFusion(row.fusion),
  };
}

export function spaceName(input: { provider: string; model: string; dimension: number; chunkerVersion: number }): string {
  return `${input.provider}/${input.model}/${input.dimension}/c${input.chunkerVersion}`;
}

/** Registers a space (idempotent by name) and creates its partial HNSW index. */
export async function registerIndexSpace(
  sql: SqlExecutor,
  input: { provider: string; model: string; dimension: number; chunkerVersion: number },
): Promise<IndexSpace> {
  const name = spaceName(input);
  await sql.query(
    `INSERT INTO index_spaces (id, name, provider, model, dimension, chunker_version, status)
     VALUES (gen_random_uuid()::text, $1, $2, $3, $4, $5, 'building')
     ON CONFLICT (name) DO NOTHING`,
    [name, input.provider, input.model, input.dimension, input.chunkerVersion],
  );
  const [row] = await sql.query(`SELECT * FROM index_spaces WHERE name = $1`, [name]);
  if (!row) throw new Error(`index space ${name} was not registered`);
  const space = toSpace(row);
  await sql.exec(hnswIndexStatement(space).sql);
  return space;
}

/** Makes a space the active one in one transaction; the previous active space is retired. */
export async function activateIndexSpace(sql: SqlExecutor, spaceId: string): Promise<void> {
  await sql.transaction(async (tx) => {
    await tx.query(`UPDATE index_spaces SET status = 'retired' WHERE status = 'active' AND id <> $1`, [spaceId]);
    await tx.query(`UPDATE index_spaces SET status = 'active', activated_at = now() WHERE id = $1`, [spaceId]);
  });
}

export async function getActiveIndexSpace(sql: SqlExecutor): Promise<IndexSpace | null> {
  const [row] = await sql.query(`SELECT * FROM index_spaces WHERE status = 'active'`);
  return row ? toSpace(row) : null;
}

/**
 * The space the configured embedder writes to: registered if new; made active when no space
 * is active yet (a fresh install). A different active space stays active until an admin
 * switches, so configuring a new model builds beside the old one.
 */
export async function ensureIndexSpace(
  sql: SqlExecutor,
  input: { provider: string; model: string; dimension: number; chunkerVersion: number },
): Promise<IndexSpace> {
  const space = await registerIndexSpace(sql, input);
  if (!(await getActiveIndexSpace(sql))) {
    await activateIndexSpace(sql, space.id);
    return { ...space, status: "active" };
  }
  return space;
}
