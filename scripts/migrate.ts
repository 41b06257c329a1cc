/** `npm run db:migrate`: applies prisma/migrations to the configured database. */
import { configuredDatabaseOptions, openDatabase } from "../lib/db/database";

const database = await openDatabase({ ...configuredDatabaseOptions(), log: (line) => console.log(line) });
console.log(`database (${database.mode}) is up to date`);
await database.close();
