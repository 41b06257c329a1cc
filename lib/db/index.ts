import "server-only";
import { configuredDatabaseOptions, openDatabase, type Database } from "./database";

// Survives Next.js dev-mode module reloads, so one process opens its PGlite data dir once.
const globalForDb = globalThis as unknown as { mnemoDatabase?: Promise<Database> };

export function getDatabase(): Promise<Database> {
  globalForDb.mnemoDatabase ??= openDatabase({
    ...configuredDatabaseOptions(),
    log: (line) => console.info(`[db] ${line}`),
  }).catch((error: unknown) => {
    globalForDb.mnemoDatabase = undefined;
    throw error;
  });
  return globalForDb.mnemoDatabase;
}

export async function getPrisma() {
  return (await getDatabase()).prisma;
}

export type { Database } from "./database";
