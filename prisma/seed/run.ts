/**
 * `npm run db:seed`: migrates the configured database and, if it has no users yet, seeds the
 * demo archive. Safe to run again: a seeded database is left as it is.
 */
import { join } from "node:path";
import { getConfig } from "../../lib/config";
import { configuredDatabaseOptions, openDatabase } from "../../lib/db/database";
import { demoLogins, isSeeded, seedDemo } from "./seed-demo";

const started = Date.now();
const config = getConfig();
const size = process.env.MNEMO_DEMO_SIZE === "small" ? "small" : "full";
const database = await openDatabase({ ...configuredDatabaseOptions(), log: (line) => console.log(`[db] ${line}`) });
try {
  if (await isSeeded(database.prisma)) {
    console.log("[seed] the database already has users; leaving it as it is");
  } else {
    console.log(`[seed] seeding the demo archive (${size}) into the ${config.databaseMode} database…`);
    await seedDemo(database.prisma, database.sql, {
      dataDir: join(process.cwd(), "prisma", "seed", "data"),
      storageDir: config.storageDir,
      size,
      log: (line) => console.log(`[seed] ${line}`),
    });
    console.log(`[seed] done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  console.log("\nDemo logins:");
  for (const login of demoLogins) console.log(`  ${login.role.padEnd(10)} ${login.email.padEnd(28)} ${login.password.padEnd(18)} ${login.sees}`);
} finally {
  await database.close();
}
