/**
 * `npm run move-to-server -- [--from <data dir>] [--to <postgres URL>] [--batch-rows 500]`
 *
 * Moves a whole installation from the embedded database (PGlite in <data dir>/pgdata; default
 * MNEMO_DATA_DIR) into an empty PostgreSQL with pgvector (default DATABASE_URL): users, projects,
 * records and their versions, relations, media rows, passages with their vectors, index spaces and
 * their calibration, tokens, saved searches, golden sets, the audit trail — every table, in one
 * transaction, each table's row count and checksum verified on both sides before it commits
 * (lib/db/move-installation.ts). The source is only read. Media files stay in the storage
 * directory: the server processes must see the same files (MNEMO_STORAGE_DIR).
 * Stop the app first: PGlite has one owner.
 * Exit codes: 0 moved and verified; 2 refused (arguments, a target that is not empty or lacks
 * pgvector, a source that is not a Mnemo database of this version); 1 a copy that did not verify
 * (rolled back) or another failure.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgsOrExit } from "./command-line";
import pg from "pg";
import { getConfig } from "../lib/config";
import { openDatabase } from "../lib/db/database";
import { DatabaseSetupError } from "../lib/db/migrate";
import { MoveRefused, MoveVerificationFailed, moveInstallation, type TableFigures } from "../lib/db/move-installation";

const usage = "usage: npm run move-to-server -- [--from <data dir>] [--to postgres://…] [--batch-rows 500]";
const { values } = parseArgsOrExit({ options: { from: { type: "string" }, to: { type: "string" }, "batch-rows": { type: "string" } }, strict: true }, usage);
const config = getConfig();
const dataDir = values.from ?? config.MNEMO_DATA_DIR;
const url = values.to ?? config.DATABASE_URL;
const batchRows = values["batch-rows"] === undefined ? 500 : Number(values["batch-rows"]);
if (!url || !/^postgres(ql)?:\/\//.test(url)) {
  console.error(`Give the target as --to postgres://user:password@host/database (or DATABASE_URL).\n${usage}`);
  process.exit(2);
}
if (!Number.isInteger(batchRows) || batchRows < 1 || batchRows > 5000) {
  console.error(`--batch-rows must be a whole number from 1 to 5000 (got "${values["batch-rows"]}").`);
  process.exit(2);
}
const pgdata = join(dataDir, "pgdata");
if (!existsSync(join(pgdata, "PG_VERSION"))) {
  console.error(`${resolve(dataDir)} holds no embedded database (no pgdata/PG_VERSION): give the data directory with --from.`);
  process.exit(2);
}

const shown = new URL(url);
if (shown.password) shown.password = "•••";
console.log(`Moving ${resolve(pgdata)} into ${shown.toString()}…`);
const source = await openDatabase({ dataDir: pgdata, migrateOnOpen: false });
const target = new pg.Pool({ connectionString: url, max: 2 });
// A connection the server drops while idle is the pool's to replace, not a crash (lib/db/database.ts).
target.on("error", (error) => console.warn(`  the server closed an idle connection: ${error.message}`));
let exitCode = 0;
const table = (tables: TableFigures[]) => {
  console.log("| table | rows | rows on the server | checksum | on the server | |");
  console.log("|---|---|---|---|---|---|");
  for (const row of tables)
    console.log(`| ${row.table} | ${row.rows} | ${row.targetRows} | ${row.checksum} | ${row.targetChecksum} | ${row.equal ? "equal" : "DIFFERENT"} |`);
};
try {
  const result = await moveInstallation({ source: source.sql, target, batchRows, log: (line) => console.log(`  ${line}`) });
  table(result.tables);
  const rows = result.tables.reduce((sum, row) => sum + row.rows, 0);
  console.log(`Moved ${rows.toLocaleString("en")} rows in ${result.tables.length} tables in ${result.seconds.toFixed(1)} s; every count and checksum equal.`);
  if (result.indexes.length) console.log(`Indexes built on the server: ${result.indexes.join(", ")}`);
  // The source's media: MNEMO_STORAGE_DIR when set, else the data directory's own media folder.
  const storageDir = config.MNEMO_STORAGE_DIR ?? join(dataDir, "media");
  console.log(`Media files were not copied: they are in ${resolve(storageDir)}. Give every server process that directory (or a copy) as MNEMO_STORAGE_DIR.`);
  console.log("Next: set DATABASE_URL for the web processes and run `npm run worker` beside them (docs/operations.md).");
} catch (error) {
  if (error instanceof MoveVerificationFailed) {
    table(error.tables);
    console.error(error.message);
    exitCode = 1;
  } else if (error instanceof MoveRefused || error instanceof DatabaseSetupError) {
    console.error(error.message);
    exitCode = 2;
  } else {
    console.error(error instanceof Error ? error.message : String(error));
    exitCode = 1;
  }
} finally {
  await target.end();
  await source.close();
}
process.exit(exitCode);
