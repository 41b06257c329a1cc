/**
 * The evaluation scripts' cached index: a corpus goes through the real pipeline (sections, embed
 * groups, importRecords, the indexing worker: group documents, chunking, language detection, the
 * Apertium bridge, the configured embedder) into a persistent PGlite database under
 * .data/eval-cache/<name>-<model>/, and a later run on the unchanged files and recipe reuses it.
 * Used by `npm run eval:retrieval` for a BEIR corpus and for Tatoeba.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { openDatabase, type Database } from "../../lib/db/database";
import { CHUNKER_VERSION } from "../../lib/rag/chunk";
import { BRIDGE_VERSION } from "../../lib/rag/embed/bridge-text";
import { createEmbedder, embedderConfigFromEnv } from "../../lib/rag/embed/create-embedder";
import type { Embedder } from "../../lib/rag/embed/embedder";
import { configuredIndexer } from "../../lib/rag/index/configured-indexer";
import { spaceName, type IndexSpace } from "../../lib/rag/index/index-spaces";
import { runWorker } from "../../lib/rag/index/run-worker";

export interface CacheState {
  signature: string;
  documents: number;
  records: number;
  chunks: number;
  parked: number;
  indexSeconds: number;
  indexedAt: string;
}

export interface CachedIndex {
  db: Database;
  embedder: Embedder;
  space: IndexSpace;
  cacheDir: string;
  state: CacheState;
  reused: boolean;
  /** Why the cache was rebuilt, when it was. */
  rebuildReason: string | null;
}

export interface IndexRecipe {
  /** The cache folder's name before the model's (e.g. "scifact", "tatoeba-spa-eng"). */
  name: string;
  /** The project the records belong to. */
  projectName: string;
  /**
   * What makes the index besides the chunker and the model: the source files as they are now
   * (path, size, modification time), the sections and embed groups. Its JSON is hashed in order.
   */
  signature: Record<string, unknown>;
  /** Appended to the folder's name after the model's (e.g. "-first100" for a smoke test). */
  variant?: string;
  /** Records the build imports: a cache with another count is rebuilt. */
  records: number;
  /** Creates the sections and embed groups and imports the records into a fresh database. */
  build(db: Database, projectId: string): Promise<void>;
}

/** A source file's identity for a recipe's signature. */
export function fileSignature(path: string): { path: string; size: number; mtimeMs: number } {
  const stat = statSync(path);
  return { path: resolve(path), size: stat.size, mtimeMs: stat.mtimeMs };
}

function slugPart(value: string): string {
  return value.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "");
}

async function counts(db: Database, spaceId: string) {
  const [row] = await db.sql.query<{ records: number; chunks: number; unembedded: number; queued: number; parked: number }>(
    `SELECT (SELECT count(*) FROM records)::int AS records,
            (SELECT count(*) FROM chunks WHERE index_space_id = $1)::int AS chunks,
            (SELECT count(*) FROM chunks WHERE index_space_id = $1 AND embedding IS NULL)::int AS unembedded,
            (SELECT count(*) FROM index_queue WHERE status <> 'parked')::int AS queued,
            (SELECT count(*) FROM index_queue WHERE status = 'parked')::int AS parked`,
    [spaceId],
  );
  return row ?? { records: 0, chunks: 0, unembedded: 0, queued: 0, parked: 0 };
}

/** Opens the recipe's cached index, building it first when the files, recipe or model changed. */
export async function openCachedIndex(recipe: IndexRecipe, options: { reindex: boolean }): Promise<CachedIndex> {
  const probe = createEmbedder(embedderConfigFromEnv(process.env));
  const cacheDir = join(
    process.cwd(),
    ".data",
    "eval-cache",
    slugPart(`${recipe.name}-${probe.provider}-${probe.model}-${probe.dimension}${recipe.variant ?? ""}`),
  );
  const statePath = join(cacheDir, "state.json");
  const signature = createHash("sha256")
    .update(
      JSON.stringify({
        ...recipe.signature,
        chunker: CHUNKER_VERSION,
        bridge: BRIDGE_VERSION,
        space: spaceName({ provider: probe.provider, model: probe.model, dimension: probe.dimension, chunkerVersion: CHUNKER_VERSION }),
      }),
    )
    .digest("hex");

  let rebuildReason: string | null = options.reindex ? "--reindex" : null;
  let state: CacheState | null = null;
  if (!rebuildReason) {
    try {
      state = JSON.parse(readFileSync(statePath, "utf8")) as CacheState;
    } catch {
      rebuildReason = existsSync(cacheDir) ? "no completed index in the cache (an earlier run was interrupted?)" : "first run";
    }
  }
  if (state && state.signature !== signature) rebuildReason = "the corpus file, recipe or embedder changed";

  if (state && !rebuildReason) {
    const db = await openDatabase({ dataDir: join(cacheDir, "pgdata") });
    const { embedder, space } = await configuredIndexer(db.sql);
    const found = await counts(db, space.id);
    if (
      found.records === recipe.records &&
      found.records === state.records &&
      found.chunks === state.chunks &&
      found.unembedded === 0 &&
      found.queued === 0 &&
      space.status === "active"
    ) {
      await analyze(db);
      return { db, embedder, space, cacheDir, state, reused: true, rebuildReason: null };
    }
    rebuildReason = `the cached database does not match (${found.records} records, ${found.chunks} passages, ${found.queued} queued)`;
    await db.close();
  }

  rmSync(cacheDir, { recursive: true, force: true });
  mkdirSync(cacheDir, { recursive: true });
  const db = await openDatabase({ dataDir: join(cacheDir, "pgdata") });
  const project = await db.prisma.project.create({ data: { slug: "eval", name: recipe.projectName } });
  const importStarted = performance.now();
  await recipe.build(db, project.id);
  const importSeconds = (performance.now() - importStarted) / 1000;

  const { embedder, space } = await configuredIndexer(db.sql);
  await embedder.embed(["warm up"], "passage"); // load the model outside the timed part
  process.stderr.write(
    `indexing ${recipe.records} records with ${space.name} into ${relative(process.cwd(), cacheDir)} (imported in ${importSeconds.toFixed(1)} s)\n`,
  );
  const started = performance.now();
  let lastReport = started;
  const progress = await runWorker({
    prisma: db.prisma,
    sql: db.sql,
    embedder,
    space,
    drain: true,
    idleMs: 20,
    batchSize: 32,
    log: (line) => process.stderr.write(`${line}\n`),
    onProgress: (step) => {
      const now = performance.now();
      if (now - lastReport < 15_000) return;
      lastReport = now;
      const seconds = (now - started) / 1000;
      process.stderr.write(
        `  ${step.indexed} / ${recipe.records} records, ${step.embedded} passages embedded, ${(step.embedded / seconds).toFixed(1)}/s, ${seconds.toFixed(0)} s\n`,
      );
    },
  });
  const indexSeconds = (performance.now() - started) / 1000;
  const found = await counts(db, space.id);
  if (found.records !== recipe.records || found.queued !== 0 || found.unembedded !== 0) {
    throw new Error(`indexing did not complete: ${found.records} records, ${found.queued} still queued, ${found.unembedded} passages without a vector`);
  }
  const newState: CacheState = {
    signature,
    documents: recipe.records,
    records: found.records,
    chunks: found.chunks,
    parked: progress.parked,
    indexSeconds,
    indexedAt: new Date().toISOString(),
  };
  await analyze(db);
  writeFileSync(statePath, `${JSON.stringify(newState, null, 2)}\n`);
  return { db, embedder, space, cacheDir, state: newState, reused: false, rebuildReason };
}

/**
 * PGlite runs no autovacuum, so a freshly indexed table has no planner statistics and the
 * keyword leg's per-lexeme counts scan the whole space instead of the GIN index (about 5× slower
 * here). A server's autoanalyze would have run by now; statistics change plans, never results.
 */
async function analyze(db: Database): Promise<void> {
  await db.sql.exec(`ANALYZE chunks; ANALYZE records;`);
}
