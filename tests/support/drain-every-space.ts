import type { Database } from "../../lib/db/database";
import type { Embedder } from "../../lib/rag/embed/embedder";
import type { IndexSpace } from "../../lib/rag/index/index-spaces";
import { runWorker } from "../../lib/rag/index/run-worker";
import { writableSpaces } from "../../lib/rag/index/space-embedders";

/** Runs the worker until the queue is empty, writing the space and every other writable one (a model switch in flight). */
export function drainEverySpace(db: Database, embedder: Embedder, space: IndexSpace) {
  return runWorker({ prisma: db.prisma, sql: db.sql, embedder, space, drain: true, idleMs: 10, batchSize: 8, extraSpaces: () => writableSpaces(db.sql) });
}
