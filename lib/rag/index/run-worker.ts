import "server-only";
import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { type Config, getConfig } from "../../config";
import { verifyPendingImages } from "../../archive/verify-images";
import { type AudioIntakeOptions, processRecordings } from "../../archive/audio-intake";
import { isConnectionLost } from "../../db/connection-lost";
import type { SqlExecutor } from "../../db/sql-executor";
import { listEmbedGroups, sectionShapes, type EmbedGroup } from "../config/embed-groups";
import type { PrismaClient } from "../../db/generated/client";
import { EmbeddingError, type Embedder } from "../embed/embedder";
import { runWithModelWork } from "../embed/model-work";
import { claimQueueItems, completeQueueItem, defaultQueueOptions, failQueueItem, type QueueOptions } from "./index-queue";
import { indexRecord, indexRecords, type IndexingContext, type IndexRecordResult } from "./index-record";
import type { IndexSpace } from "./index-spaces";
import type { ImageEmbedder } from "../embed/image-embedder";
import { indexObjects, type ObjectIndexing } from "./index-objects";
import { readPendingScans, type ScanReading } from "./read-scans";

export interface WorkerOptions {
  prisma: PrismaClient;
  sql: SqlExecutor;
  embedder: Embedder;
  space: IndexSpace;
  workerId?: string;
  batchSize?: number;
  /**
   * Batches in flight at once (default 1): while one waits for the model threads, OCR,
   * Apertium or image decoding, another uses the database. Each is a worker of its own on the
   * queue (id suffixed /2, /3…), so no record is taken twice.
   */
  concurrency?: number;
  /** Wait between polls of an empty queue. */
  idleMs?: number;
  /** Stop when the queue is empty instead of waiting for more. */
  drain?: boolean;
  signal?: AbortSignal;
  queue?: QueueOptions;
  onProgress?: (progress: WorkerProgress) => void;
  /**
   * Runs, one call at a time, whenever a batch leaves the queue empty (the active space's fusion
   * is measured then, in whichever process indexes); awaited before the worker returns. Its
   * failure is logged, never stops indexing.
   */
  onDrained?: () => Promise<void>;
  /** Observes each record as it is taken and finished (tests check no two workers overlap). */
  onRecord?: (event: { recordId: string; workerId: string; phase: "start" | "end" }) => void;
  log?: (line: string) => void;
  /** Other spaces to write as well (the active one after a switch, candidates being built). */
  extraSpaces?: () => Promise<{ space: IndexSpace; embedder: Embedder }[]>;
  /** Object images (thumbnails, image vectors) and context vectors; omitted, objects get text only. */
  objects?: { storageDir: string; imageEmbedders: readonly ImageEmbedder[] };
  /** Recordings: probe, streamable copy, waveform, segmentation and transcription drafts; omitted, none. */
  audio?: AudioIntakeOptions;
  /** OCR of the records' unread scans before their passages are built; omitted, scans are not read. */
  scans?: ScanReading;
}

export interface WorkerProgress {
  indexed: number;
  failed: number;
  parked: number;
  embedded: number;
  reused: number;
  cached: number;
  /** Image and object-context vectors computed. */
  objectVectors: number;
  remaining: number;
}

/** Queue tuning: the configured lease (MNEMO_INDEX_LEASE_SECONDS), the rest defaultQueueOptions. */
export function configuredQueueOptions(config: Pick<Config, "MNEMO_INDEX_LEASE_SECONDS"> = getConfig()): QueueOptions {
  return {
    maxAttempts: defaultQueueOptions.maxAttempts,
    leaseSeconds: config.MNEMO_INDEX_LEASE_SECONDS ?? defaultQueueOptions.leaseSeconds,
    backoffBaseSeconds: defaultQueueOptions.backoffBaseSeconds,
  };
}

export function newWorkerId(): string {
  return `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
}

async function loadContext(options: WorkerOptions): Promise<IndexingContext> {
  const groups = await listEmbedGroups(options.prisma);
  const groupsBySection = new Map<string, EmbedGroup[]>();
  for (const group of groups) groupsBySection.set(group.sectionId, [...(groupsBySection.get(group.sectionId) ?? []), group]);
  return { sql: options.sql, space: options.space, embedder: options.embedder, sections: await sectionShapes(options.prisma), groupsBySection };
}

async function remaining(sql: SqlExecutor): Promise<number> {
  const [row] = await sql.query<{ count: number }>(`SELECT count(*)::int AS count FROM index_queue WHERE status <> 'parked'`);
  return row?.count ?? 0;
}

/** The longest wait between two tries while the database cannot be reached. */
const maxReconnectWaitMs = 30_000;

/**
 * Whether the database has gone away, asked of the database itself: an error of the work (a model
 * endpoint refusing the connection looks much the same) is not taken for it.
 */
async function databaseLost(sql: SqlExecutor): Promise<boolean> {
  try {
    await sql.query("SELECT 1");
    return false;
  } catch (error) {
    return isConnectionLost(error);
  }
}

/** Waits `ms`, or less when `signal` aborts (a worker stopped while idle or during an outage stops at once). */
const pause = (ms: number, signal?: AbortSignal): Promise<void> => sleep(ms, undefined, { signal }).catch(() => undefined);

/** Records indexed since the last ANALYZE before the queue's end triggers another. */
const analyseAfter = 50;

/**
 * Uploads' pixels are decoded here, off the request (which read only their header), before
 * thumbnails or vectors are drawn from them; an image that does not decode is skipped.
 */
async function indexObjectsAfterDecoding(objects: ObjectIndexing, recordIds: string[]) {
  await verifyPendingImages(objects.sql, objects.storageDir, recordIds);
  return indexObjects(objects, recordIds);
}

/**
 * Drains the indexing queue: claim a batch, index each record, complete or fail each row.
 * Configuration (sections, embed groups) is reloaded every batch so admin changes apply.
 * Any number of workers may run against one server database.
 *
 * Its model work is background work: on the model threads every request's job goes first and
 * its batches shrink while requests wait. Set here, not inherited: the
 * in-process worker may be started from inside a request, whose signal must not stop it.
 */
export function runWorker(options: WorkerOptions): Promise<WorkerProgress> {
  return runWithModelWork({ priority: "background" }, async () => {
    const workerId = options.workerId ?? newWorkerId();
    const progress: WorkerProgress = { indexed: 0, failed: 0, parked: 0, embedded: 0, reused: 0, cached: 0, objectVectors: 0, remaining: 0 };
    const shared: SharedState = { progress, analysedAt: 0, draining: null };
    const lanes = Math.max(1, Math.floor(options.concurrency ?? 1));
    await Promise.all(Array.from({ length: lanes }, (_, lane) => drainQueue(options, lane === 0 ? workerId : `${workerId}/${lane + 1}`, shared)));
    await shared.draining;
    return progress;
  });
}

interface SharedState {
  progress: WorkerProgress;
  analysedAt: number;
  /** The onDrained call in flight, if any. */
  draining: Promise<void> | null;
}

/** One lane of a worker: its own claims, the worker's shared progress. */
async function drainQueue(options: WorkerOptions, workerId: string, shared: SharedState): Promise<void> {
  const queue = options.queue ?? configuredQueueOptions();
  const { progress } = shared;
  const objects: ObjectIndexing | null = options.objects
    ? {
        sql: options.sql,
        storageDir: options.objects.storageDir,
        imageEmbedders: options.objects.imageEmbedders,
        textSpace: options.space,
        embedder: options.embedder,
      }
    : null;
  const log = options.log ?? (() => undefined);
  // When the database stopped answering, and how many tries since.
  let lost: { since: number; tries: number } | null = null;
  let stop = false;
  while (!options.signal?.aborted && !stop) {
    try {
      await drainBatch();
    } catch (error) {
      // A restart or failover of the database: wait, and go on where the queue is (the claims of a
      // batch cut short come back when their lease ends). Anything else still stops the worker.
      if (!(await databaseLost(options.sql))) throw error;
      lost ??= { since: Date.now(), tries: 0 };
      const waitMs = Math.min(maxReconnectWaitMs, (options.idleMs ?? 2000) * 2 ** Math.min(lost.tries, 4));
      if (lost.tries === 0) log(`[index] the database cannot be reached (${error instanceof Error ? error.message : String(error)}); trying again`);
      lost.tries++;
      await pause(waitMs, options.signal);
    }
  }

  async function drainBatch(): Promise<void> {
    const items = await claimQueueItems(options.sql, workerId, options.batchSize ?? 16, queue);
    if (lost) {
      log(`[index] the database answers again (after ${Math.round((Date.now() - lost.since) / 1000)} s); indexing goes on`);
      lost = null;
    }
    if (items.length === 0) {
      progress.remaining = await remaining(options.sql);
      if (progress.remaining === 0 && progress.indexed - shared.analysedAt >= analyseAfter) {
        shared.analysedAt = progress.indexed;
        // PGlite never runs autovacuum: without fresh statistics the planner ignores the GIN and
        // HNSW indexes after a bulk load (keyword search measured 5× slower).
        await options.sql.exec("ANALYZE chunks; ANALYZE object_vectors");
      }
      if (options.drain && progress.remaining === 0) {
        stop = true;
        return;
      }
      await pause(options.idleMs ?? 2000, options.signal);
      return;
    }
    const context = await loadContext(options);
    for (const item of items) options.onRecord?.({ recordId: item.recordId, workerId, phase: "start" });
    const extras = (await options.extraSpaces?.().catch(() => [])) ?? [];
    const alsoIndex = async (ids: string[]) => {
      for (const extra of extras) {
        if (extra.space.id === options.space.id) continue;
        await indexRecords({ ...context, space: extra.space, embedder: extra.embedder }, ids);
      }
    };
    let batch: IndexRecordResult[] | null = null;
    if (options.scans) {
      // One page at a time, in this worker: OCR is a child process per page, never on a request.
      const budgetMs = options.scans.budgetMs ?? (queue.leaseSeconds * 1000) / 2;
      await readPendingScans(
        options.sql,
        { ...options.scans, budgetMs },
        items.map((item) => item.recordId),
        log,
      ).catch((error: unknown) => {
        log(`[ocr] scans of this batch not read: ${error instanceof Error ? error.message : String(error)}`);
      });
    }
    try {
      const ids = items.map((item) => item.recordId);
      if (options.audio) await processRecordings(options.sql, options.audio, ids);
      const results = await indexRecords(context, ids);
      await alsoIndex(ids);
      // Read after the await: another lane may have added to the shared count meanwhile.
      const described = objects ? (await indexObjectsAfterDecoding(objects, ids)).described : 0;
      progress.objectVectors += described;
      batch = results;
    } catch {
      // Something in the batch failed: go record by record so only the culprit is retried.
    }
    for (const [index, item] of items.entries()) {
      try {
        let result = batch?.[index];
        if (!result) {
          if (options.audio) await processRecordings(options.sql, options.audio, [item.recordId]);
          result = await indexRecord(context, item.recordId);
          await alsoIndex([item.recordId]);
          const described = objects ? (await indexObjectsAfterDecoding(objects, [item.recordId])).described : 0;
          progress.objectVectors += described;
        }
        await completeQueueItem(options.sql, item, workerId);
        progress.indexed++;
        progress.embedded += result.embedded;
        progress.reused += result.reused;
        progress.cached += result.cached;
      } catch (error) {
        // Not this record's fault when the database is gone: the whole batch waits for it (see above).
        if (await databaseLost(options.sql)) throw error;
        const retryable = error instanceof EmbeddingError ? error.retryable : true;
        const outcome = await failQueueItem(options.sql, item, workerId, error, queue, retryable);
        progress.failed++;
        if (outcome === "parked") progress.parked++;
        log(
          `[index] record ${item.recordId} ${outcome === "parked" ? "parked" : "will be retried"}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      options.onRecord?.({ recordId: item.recordId, workerId, phase: "end" });
    }
    progress.remaining = await remaining(options.sql);
    options.onProgress?.({ ...progress });
    if (progress.remaining === 0 && options.onDrained && !shared.draining) {
      shared.draining = options
        .onDrained()
        .catch((error: unknown) => log(`[index] after the queue drained: ${error instanceof Error ? error.message : String(error)}`))
        .finally(() => {
          shared.draining = null;
        });
    }
  }
}
