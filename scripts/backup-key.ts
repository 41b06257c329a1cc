/**
 * `npm run backup:key [-- --id]`
 *
 * Prints the key this installation signs project backups with (64 hex characters) on standard
 * output, and its id and where it comes from on standard error; with --id, the id only. The key
 * is MNEMO_BACKUP_KEY when set, else the installation's own (made on first use and kept in its
 * database, so `npm run move-to-server` and a database backup carry it). To restore this
 * installation's backups on another one, give the key there: `npm run import-project -- --key …`
 * or MNEMO_BACKUP_KEY. Whoever holds it can sign archives this installation restores: run it only
 * as the installation's administrator and keep it as secret as the database. The app itself never
 * shows it (no page, no API response, no log line). In embedded mode stop the app first (PGlite
 * has one owner). Exit codes: 0 printed; 2 bad arguments; 1 anything else.
 */
import { parseArgsOrExit } from "./command-line";
import { installationBackupKey } from "../lib/admin/backup/backup-key";
import { configuredDatabaseOptions, openDatabase } from "../lib/db/database";

const usage = "usage: npm run backup:key [-- --id]";
const { values } = parseArgsOrExit({ options: { id: { type: "boolean" } }, strict: true }, usage);

const database = await openDatabase(configuredDatabaseOptions());
let exitCode = 0;
try {
  const { key, source } = await installationBackupKey(database.prisma);
  if (values.id) {
    console.log(key.id);
  } else {
    console.error(
      `backup key id ${key.id} (${source === "environment" ? "from MNEMO_BACKUP_KEY" : "this installation's own, kept in its database"}); keep it secret — whoever holds it can sign backups this installation restores`,
    );
    console.log(key.toHex());
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  exitCode = 1;
} finally {
  await database.close();
}
process.exit(exitCode);
