import "server-only";
import { getDatabase } from "./db";
import { calibrateUnmeasuredSpace } from "./admin/fusion-calibration";
import { startBackgroundWorker } from "./rag/index/background-worker";
import { checkConfigurationOrExit } from "./runtime";

/**
 * Validates the configuration (a bad variable stops the process with its name and value) and
 * opens the database, which applies pending migrations, so a fresh install provisions itself
 * before the first request. Then, in embedded mode, starts the index worker in the background;
 * when its queue drains, an active space nobody has measured gets its fusion weights from the
 * demo's tuning golden set.
 */
export async function startUp(): Promise<void> {
  const config = checkConfigurationOrExit();
  // `next build` loads this file too; it must neither migrate nor index.
  if (config.NEXT_PHASE === "phase-production-build") return;
  const database = await getDatabase();
  startBackgroundWorker(database, { onDrained: () => calibrateUnmeasuredSpace(database.prisma, database.sql) }).catch((error: unknown) =>
    console.error("[index] the worker could not start", error),
  );
}
