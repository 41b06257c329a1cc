import "server-only";
import { corsFromEnv } from "./api/cors";
import { rateLimitFromEnv } from "./api/rate-limit";
import { getConfig } from "./config";
import { getDatabase } from "./db";
import { calibrateUnmeasuredSpace } from "./admin/fusion-calibration";
import { startBackgroundWorker } from "./rag/index/background-worker";

/**
 * Validates the configuration (a bad variable stops the process with its name) and opens the
 * database, which applies pending migrations, so a fresh install provisions itself before the
 * first request. Then, in embedded mode, starts the index worker in the background; when its
 * queue drains, an active space nobody has measured gets its fusion weights from the demo's
 * tuning golden set.
 */
export async function startUp(): Promise<void> {
  try {
    getConfig();
    rateLimitFromEnv(process.env);
    corsFromEnv(process.env);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
  // `next build` loads this file too; it must neither migrate nor index.
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  const database = await getDatabase();
  startBackgroundWorker(database, { onDrained: () => calibrateUnmeasuredSpace(database.prisma, database.sql) }).catch((error: unknown) => console.error("[index] the worker could not start", error));
}
