/**
 * `npm run import-project -- --file backup.zip [--as-slug <slug>] [--index] [--key <hex>] [--trust-unsigned]`
 *
 * Restores a backup written by `npm run export-project` (or the admin's "Download backup") into
 * this installation: every entry is checked against the manifest's SHA-256 and the manifest
 * against its signature before anything is written, then one transaction upserts the rows;
 * running it twice changes nothing more. The signature is checked with this installation's key
 * (MNEMO_BACKUP_KEY, else its own) and any --key given: another installation's key, as
 * `npm run backup:key` prints it there. An unsigned archive (made before backups were signed), or
 * one signed by a key not given, is refused unless --trust-unsigned; a signature that does not
 * match is always refused. Records
 * are queued for indexing; with --index the queue is drained here (embeddings in the backup are
 * used when the active index space has its model). Members map by email; unknown emails are
 * listed, never created. In embedded mode stop the app first (PGlite has one owner).
 * Exit codes: 0 restored; 2 bad arguments or a refused archive (nothing written).
 */
import { readFileSync } from "node:fs";
import { exitWithUsage, parseArgsOrExit } from "./command-line";
import { systemPrincipal } from "../lib/acl";
import { BackupKey } from "../lib/admin/backup/backup-signature";
import { restoreProject } from "../lib/admin/backup/restore-project";
import { getConfig } from "../lib/config";
import { configuredDatabaseOptions, openDatabase } from "../lib/db/database";
import { configuredWorker } from "../lib/rag/index/configured-indexer";
import { runWorker } from "../lib/rag/index/run-worker";

const usage = "usage: npm run import-project -- --file backup.zip [--as-slug <slug>] [--index] [--key <64 hex characters>]… [--trust-unsigned]";
const { values } = parseArgsOrExit(
  {
    options: {
      file: { type: "string" },
      "as-slug": { type: "string" },
      index: { type: "boolean" },
      key: { type: "string", multiple: true },
      "trust-unsigned": { type: "boolean" },
    },
    strict: true,
  },
  usage,
);
if (!values.file) exitWithUsage(usage);
let keys: BackupKey[];
try {
  keys = (values.key ?? []).map((hex) => BackupKey.fromHex(hex, "--key"));
} catch (error) {
  // Never the value itself: it is meant to be a secret.
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(2);
}
let bytes: Uint8Array;
try {
  bytes = new Uint8Array(readFileSync(values.file));
} catch (error) {
  console.error(`Cannot read ${values.file}: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
}

const database = await openDatabase(configuredDatabaseOptions());
let exitCode = 0;
try {
  // The configured index space first (created, and active when none is, as the worker would):
  // archived embeddings are restored into it when it has their model.
  const worker = await configuredWorker(database);
  const report = await restoreProject(database.prisma, systemPrincipal, {
    bytes,
    storageDir: getConfig().storageDir,
    asSlug: values["as-slug"],
    keys,
    trustUnsigned: values["trust-unsigned"],
  });
  const { signature } = report;
  console.log(
    signature.status === "signed"
      ? `signature: valid (key id ${signature.keyId})`
      : `signature: NOT checked — ${signature.reason}; restored because of --trust-unsigned`,
  );
  console.log(
    `${report.createdProject ? "created" : "updated"} project ${report.slug}: ${report.records} records, ${report.links} links, ${report.media} media (${report.mediaFilesWritten} files written), ${report.auditEvents} audit events, ${report.memberships} memberships`,
  );
  if (report.danglingLinks > 0) {
    const projects = report.missingProjects.map((project) =>
      project.slug ? `“${project.name}” (${project.slug}): ${project.links}` : `a project the backup does not name: ${project.links}`,
    );
    console.log(
      `${report.danglingLinks} links point into projects this installation does not hold yet — ${projects.join("; ")}. They are kept in the records' values and resolve when those projects are restored.`,
    );
  }
  if (report.relinked > 0) console.log(`${report.relinked} links from records already here now point into this project (queued for indexing again)`);
  if (report.sectionsCreated.length) console.log(`sections created: ${report.sectionsCreated.join(", ")}`);
  if (report.sectionsMerged.length) console.log(`sections already here (fields agree): ${report.sectionsMerged.join(", ")}`);
  if (report.unknownMembers.length) {
    console.log(`members without an account here (their memberships left out): ${report.unknownMembers.join(", ")}`);
    console.log(
      "  create their accounts (an admin: npm run create-admin -- --email … --name …; others on /admin/people), then restore again to give them their memberships",
    );
  }
  console.log(`vectors: ${report.vectors}; ${report.queued} records queued for indexing`);
  if (values.index) {
    const progress = await runWorker({ ...worker, drain: true, idleMs: 500 });
    console.log(`indexed ${progress.indexed}, parked ${progress.parked}; embedded ${progress.embedded} passages, from cache ${progress.cached}`);
  } else {
    console.log("run `npm run worker` (or start the app) to index them");
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  exitCode = 2;
} finally {
  await database.close();
}
process.exit(exitCode);
