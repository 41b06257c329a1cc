/**
 * `npm run export-project -- --project <slug> [--out file.zip] [--with-vectors]`
 *
 * Writes the project's backup (docs/architecture.md, "Project backup and restore"): one zip with
 * a checksum manifest, the project's rows as JSON Lines, its media files, and with
 * --with-vectors the embeddings of its passages in the active index space. `npm run
 * import-project` restores it. In embedded mode stop the app first (PGlite has one owner).
 * Exit codes: 0 written; 2 bad arguments or a refusal.
 */
import { writeFileSync } from "node:fs";
import { exitWithUsage, parseArgsOrExit } from "./command-line";
import { systemPrincipal } from "../lib/acl";
import { exportProject } from "../lib/admin/backup/export-project";
import { getConfig } from "../lib/config";
import { configuredDatabaseOptions, openDatabase } from "../lib/db/database";
import { isAppError } from "../lib/errors";
import { formatBytes } from "../lib/format";

const usage = "usage: npm run export-project -- --project <slug> [--out file.zip] [--with-vectors]";
const { values } = parseArgsOrExit(
  { options: { project: { type: "string" }, out: { type: "string" }, "with-vectors": { type: "boolean" } }, strict: true },
  usage,
);
if (!values.project) exitWithUsage(usage);

const database = await openDatabase(configuredDatabaseOptions());
let exitCode = 0;
try {
  const backup = await exportProject(database.prisma, database.sql, systemPrincipal, {
    slug: values.project,
    storageDir: getConfig().storageDir,
    withVectors: values["with-vectors"],
  });
  const out = values.out ?? backup.fileName;
  writeFileSync(out, backup.bytes);
  const counts = Object.entries(backup.manifest.counts)
    .map(([table, count]) => `${table} ${count}`)
    .join(", ");
  console.log(`${out}: ${formatBytes(backup.bytes.byteLength)} — ${counts}${backup.manifest.vectors ? ` (vectors of ${backup.manifest.vectors.model})` : ""}`);
} catch (error) {
  console.error(
    isAppError(error) && error.code === "not_found" ? `There is no project "${values.project}".` : error instanceof Error ? error.message : String(error),
  );
  exitCode = 2;
} finally {
  await database.close();
}
process.exit(exitCode);
