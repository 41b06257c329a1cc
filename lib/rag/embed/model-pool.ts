import "server-only";
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { getConfig } from "../../config";
import { AppError } from "../../errors";
import { EmbeddingError } from "./embedder";
import { currentModelWork, type ModelPriority } from "./model-work";

/**
 * Model work (query and passage embedding, the answerer's sentence scoring) on worker threads,
 * so a question does not stall everyone's page loads on the thread that renders them. One
 * queue per priority: interactive jobs (a request waits for them) start before background ones
 * (the index worker's batches), with one exception so that constant traffic cannot starve the
 * index: a background job that has waited `backgroundShareMs` (default 1 s) takes the next free
 * thread, one thread at a time, while requests wait (the index worker then sends small batches,
 * see embedOnPool). Interactive jobs wait in a bounded queue; when
 * it is full the caller gets ModelPoolBusyError (503 with Retry-After). A job whose request was
 * aborted while it waited is dropped, never run. A thread that dies fails its job (retryable)
 * and is replaced when the next job needs it.
 *
 * The threads run lib/rag/embed/model-worker.mjs, plain JavaScript loaded by path: Next.js
 * bundles this file, so the worker cannot be a module it would have to resolve.
 */
export interface ModelTask {
  op: string;
  [field: string]: unknown;
}

export interface ModelJobOptions {
  priority?: ModelPriority;
  signal?: AbortSignal;
}

export interface ModelPool {
  readonly threads: number;
  run<Result>(task: ModelTask, options?: ModelJobOptions): Promise<Result>;
  /** Jobs waiting for a thread, by priority (running ones excluded). */
  waiting(priority: ModelPriority): number;
  /** Stops the threads; jobs still waiting or running fail. */
  close(): Promise<void>;
}

export interface ModelPoolOptions {
  /** The worker script; a path or file: URL. */
  workerFile: string | URL;
  threads: number;
  /** Interactive jobs that may wait for a thread; one more is refused. Background jobs are not counted: their producer (the index worker) has one record in hand at a time. */
  queueLimit: number;
  /** A background job waiting this long goes before waiting interactive ones (on one thread at a time); default 1000 ms. */
  backgroundShareMs?: number;
  /** Milliseconds for the waits above; tests pass their own. */
  clock?: () => number;
}

/** How long the index worker's next batch may wait behind requests before it gets a thread anyway. */
export const defaultBackgroundShareMs = 1000;

/** The pool is full: the request is refused now rather than queued behind minutes of work. */
export class ModelPoolBusyError extends AppError {
  constructor(retryAfterSeconds: number) {
    super("unavailable", `The server is busy with other searches and questions. Try again in ${retryAfterSeconds} s.`, { retryAfterSeconds });
    this.name = "ModelPoolBusyError";
  }
}

/** The request went away before its job started; nobody reads the answer. */
export class ModelJobCancelledError extends AppError {
  constructor() {
    super("unavailable", "The request was cancelled before its model work started.");
    this.name = "ModelJobCancelledError";
  }
}

interface Job {
  id: number;
  task: ModelTask;
  priority: ModelPriority;
  queuedAt: number;
  signal?: AbortSignal;
  onAbort?: () => void;
  resolve(result: unknown): void;
  reject(error: unknown): void;
}

interface Thread {
  worker: Worker;
  job: Job | null;
  startedAt: number;
}

export function createModelPool(options: ModelPoolOptions): ModelPool {
  const threads: Thread[] = [];
  const queues: Record<ModelPriority, Job[]> = { interactive: [], background: [] };
  let nextId = 1;
  let closed = false;
  // A running mean of a job's time, for an honest Retry-After.
  let meanJobMs = 200;

  function settle(job: Job) {
    if (job.onAbort) job.signal?.removeEventListener("abort", job.onAbort);
  }

  function spawn(): Thread {
    const worker = new Worker(options.workerFile);
    const thread: Thread = { worker, job: null, startedAt: 0 };
    worker.unref();
    worker.on("message", (message: { id: number; ok: boolean; result?: unknown; message?: string }) => {
      const job = thread.job;
      if (!job || job.id !== message.id) return;
      thread.job = null;
      worker.unref();
      meanJobMs = 0.8 * meanJobMs + 0.2 * (performance.now() - thread.startedAt);
      settle(job);
      if (message.ok) job.resolve(message.result);
      else job.reject(new EmbeddingError(`The model thread failed: ${message.message ?? "unknown error"}`, { retryable: false }));
      dispatch();
    });
    // An uncaught error ends the thread: 'exit' follows and does the cleaning up.
    worker.on("error", (error) => {
      console.warn(`[model] a model thread failed: ${error instanceof Error ? error.message : String(error)}`);
    });
    worker.on("exit", (code) => {
      const index = threads.indexOf(thread);
      if (index >= 0) threads.splice(index, 1);
      const job = thread.job;
      thread.job = null;
      if (job) {
        settle(job);
        job.reject(new EmbeddingError(`The model thread stopped (exit code ${code}) while embedding; try again.`, { retryable: true }));
      }
      // Its replacement starts when a job needs it, so a thread that cannot even start does not respawn in a loop.
      if (!closed) dispatch();
    });
    threads.push(thread);
    return thread;
  }

  const clock = options.clock ?? (() => performance.now());
  const backgroundShareMs = options.backgroundShareMs ?? defaultBackgroundShareMs;

  /**
   * Requests first; but the oldest background job, once it has waited its share, goes next
   * unless another thread already runs background work. Without it a steady stream of requests
   * could hold the index worker's batches back for as long as it lasted (bench:load, ten users on
   * two threads, saw no record indexed in a 30 s window).
   */
  function nextJob(): Job | undefined {
    const oldestBackground = queues.background[0];
    const backgroundDue =
      oldestBackground !== undefined &&
      clock() - oldestBackground.queuedAt >= backgroundShareMs &&
      !threads.some((thread) => thread.job?.priority === "background");
    if (backgroundDue) return queues.background.shift();
    return queues.interactive.shift() ?? queues.background.shift();
  }

  function dispatch() {
    while (!closed && (queues.interactive.length > 0 || queues.background.length > 0)) {
      let thread = threads.find((candidate) => candidate.job === null);
      if (!thread && threads.length < options.threads) thread = spawn();
      if (!thread) return;
      const job = nextJob()!;
      thread.job = job;
      thread.startedAt = performance.now();
      thread.worker.ref();
      thread.worker.postMessage({ id: job.id, task: job.task });
    }
  }

  function retryAfterSeconds(): number {
    const queued = queues.interactive.length + queues.background.length + options.threads;
    return Math.min(60, Math.max(1, Math.ceil((queued * meanJobMs) / Math.max(1, options.threads) / 1000)));
  }

  return {
    threads: options.threads,
    run<Result>(task: ModelTask, jobOptions: ModelJobOptions = {}): Promise<Result> {
      const context = currentModelWork();
      const priority = jobOptions.priority ?? context?.priority ?? "interactive";
      const signal = jobOptions.signal ?? context?.signal;
      if (closed) return Promise.reject(new EmbeddingError("The model threads have stopped.", { retryable: true }));
      if (signal?.aborted) return Promise.reject(new ModelJobCancelledError());
      const idle = threads.some((thread) => thread.job === null) || threads.length < options.threads;
      if (priority === "interactive" && !idle && queues.interactive.length >= options.queueLimit) {
        return Promise.reject(new ModelPoolBusyError(retryAfterSeconds()));
      }
      return new Promise<Result>((resolve, reject) => {
        const job: Job = { id: nextId++, task, priority, queuedAt: clock(), signal, resolve: resolve as (result: unknown) => void, reject };
        if (signal) {
          job.onAbort = () => {
            const queue = queues[priority];
            const index = queue.indexOf(job);
            // Running already: it finishes and its answer is dropped by whoever awaited it.
            if (index < 0) return;
            queue.splice(index, 1);
            settle(job);
            reject(new ModelJobCancelledError());
          };
          signal.addEventListener("abort", job.onAbort, { once: true });
        }
        queues[priority].push(job);
        dispatch();
      });
    },
    waiting(priority) {
      return queues[priority].length;
    },
    async close() {
      closed = true;
      for (const job of [...queues.interactive.splice(0), ...queues.background.splice(0)]) {
        settle(job);
        job.reject(new EmbeddingError("The model threads have stopped.", { retryable: true }));
      }
      await Promise.all(threads.map((thread) => thread.worker.terminate()));
    },
  };
}

/** Where the model threads' script is: beside this file in the source tree, found from the working directory (the bundle has no such file beside it). */
export function modelWorkerFile(cwd = process.cwd()): string {
  return join(cwd, "lib", "rag", "embed", "model-worker.mjs");
}

/**
 * MNEMO_MODEL_THREADS; unset, one thread per core (at most four: each holds its own copy of the
 * model): measured on two cores, bench:load served 1.5× the requests with two threads than with
 * the model on the request thread, and the first full index took half the time
 * (docs/benchmarks.md). `0` runs model work on the calling thread; `auto` (-1) one thread fewer
 * than the cores (one left for pages), at least one.
 */
export function modelThreadCount(setting: number | undefined, cores = availableParallelism()): number {
  if (setting === undefined) return Math.max(1, Math.min(4, cores));
  return setting < 0 ? Math.max(1, cores - 1) : setting;
}

/** Requests' model jobs that may wait for a thread; more would wait longer than a 503 with Retry-After serves the asker. */
const modelQueueLimit = 64;

// Kept on globalThis: one pool per process, across a development server's module reloads and
// across the chunks a bundler may copy this module into.
const poolKey = Symbol.for("mnemo.modelPool");
type PoolHolder = { [poolKey]?: ModelPool | null };

/**
 * The process's model pool, started on first use from MNEMO_MODEL_THREADS and modelQueueLimit;
 * null when model work runs on the calling thread (MNEMO_MODEL_THREADS=0, or a pool that cannot
 * start — said once in the log).
 */
export function sharedModelPool(): ModelPool | null {
  const holder = globalThis as PoolHolder;
  if (holder[poolKey] !== undefined) return holder[poolKey];
  const config = getConfig();
  const threads = modelThreadCount(config.MNEMO_MODEL_THREADS);
  let pool: ModelPool | null = null;
  if (threads > 0) {
    const workerFile = modelWorkerFile();
    if (existsSync(workerFile)) {
      pool = createModelPool({ workerFile, threads, queueLimit: modelQueueLimit });
      console.info(`[model] ${threads} model thread${threads === 1 ? "" : "s"} (MNEMO_MODEL_THREADS), ${modelQueueLimit} requests' jobs may wait`);
    } else {
      console.warn(`[model] ${workerFile} is missing: model work runs on the request thread (set MNEMO_MODEL_THREADS=0 to say so).`);
    }
  }
  holder[poolKey] = pool;
  return pool;
}
