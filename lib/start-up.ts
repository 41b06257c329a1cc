import "server-only";
import { getConfig } from "./config";
import { getDatabase } from "./db";

/**
 * Validates the configuration (a bad variable stops the process with its name) and opens the
 * database, which applies pending migrations, so a fresh install provisions itself before the
 * first request.
 */
export async function startUp(): Promise<void> {
  try {
    getConfig();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
  await getDatabase();
}
