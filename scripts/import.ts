/**
 * `npm run import -- --section <slug> --project <slug, name or id> --file <path> --as <email>
 *    [--map column=field ...] [--map column= ...] [--external-id column] [--media-folder dir | --media-zip file.zip] [--dry-run]`
 *
 * Imports a CSV, JSON array or JSON Lines file through the same service as the /import page and
 * the API, acting as the named user (an admin, or a curator who may edit the project): there is
 * no anonymous import, so every record and audit entry names a person. Columns are mapped as the
 * page suggests (labels and keys, ignoring case and accents); `--map` overrides one, and
 * `--map column=` ignores it. Image and media cells name files in `--media-folder` (admins; under
 * MNEMO_IMPORT_MEDIA_ROOT) or in `--media-zip` (anyone who may import; read in memory within the
 * MNEMO_IMPORT_MAX_ZIP_* limits, never extracted; kept with the job until it ends). Prints the dry run's problems, then runs the job here with a
 * progress line. Exit codes: 0 done; 1 the dry run found problems (with --dry-run) or the job
 * failed; 2 bad arguments or a file refused whole. In embedded mode stop the app first (PGlite
 * has one owner); in server mode running workers may share the job.
 */
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgsOrExit } from "./command-line";
import { dryRunImport, getImportJob, previewImport, problemsCsv, runImportJobs, startImport, type ImportPlan } from "../lib/archive/import";
import { loadPrincipal } from "../lib/auth/load-principal";
import { configuredDatabaseOptions, openDatabase } from "../lib/db/database";
import { getConfig } from "../lib/config";
import { isAppError } from "../lib/errors";
import { formatBytes } from "../lib/format";

const usage =
  "usage: npm run import -- --section <slug> --project <slug, name or id> --file <path> --as <email>\n" +
  "         [--map column=field ...] [--external-id column] [--media-folder dir | --media-zip file.zip] [--dry-run] [--problems-csv path]";

const { values } = parseArgsOrExit(
  {
    options: {
      section: { type: "string" },
      project: { type: "string" },
      file: { type: "string" },
      as: { type: "string" },
      map: { type: "string", multiple: true },
      "external-id": { type: "string" },
      "media-folder": { type: "string" },
      "media-zip": { type: "string" },
      "dry-run": { type: "boolean" },
      "problems-csv": { type: "string" },
    },
    strict: true,
  },
  usage,
);
if (!values.section || !values.project || !values.file || !values.as) {
  console.error(`${!values.as && values.section && values.project && values.file ? "--as <email> is required: an import acts as a person.\n" : ""}${usage}`);
  process.exit(2);
}

const database = await openDatabase(configuredDatabaseOptions());
const { prisma } = database;
let exitCode = 0;
try {
  const user = await prisma.user.findUnique({ where: { email: values.as.trim().toLowerCase() } });
  const principal = user ? await loadPrincipal(prisma, user.id, user.sessionVersion) : null;
  if (!principal) throw new Error(`There is no active user ${values.as}.`);
  const projects = await prisma.project.findMany({
    where: { OR: [{ id: values.project }, { slug: values.project }, { name: values.project }] },
    select: { id: true, name: true },
  });
  if (projects.length !== 1)
    throw new Error(projects.length ? `Several projects are called "${values.project}"; give its id.` : `There is no project "${values.project}".`);
  const projectId = (projects[0] as { id: string }).id;
  const file = { fileName: basename(values.file), bytes: new Uint8Array(readFileSync(values.file)) };
  let mediaZip: { fileName: string; bytes: Uint8Array } | undefined;
  if (values["media-zip"] !== undefined) {
    // The size first: a zip over the limit is refused before it is read into memory.
    const size = statSync(values["media-zip"]).size;
    const maxBytes = getConfig().MNEMO_IMPORT_MAX_ZIP_BYTES;
    if (size > maxBytes) throw new Error(`The media zip is ${formatBytes(size)}; a zip is limited to ${formatBytes(maxBytes)} (MNEMO_IMPORT_MAX_ZIP_BYTES).`);
    mediaZip = { fileName: basename(values["media-zip"]), bytes: new Uint8Array(readFileSync(values["media-zip"])) };
  }

  const preview = await previewImport(prisma, principal, file, values.section);
  const mapping = preview.suggestedMapping;
  for (const pair of values.map ?? []) {
    const at = pair.lastIndexOf("=");
    if (at <= 0) throw new Error(`--map ${pair}: expected column=field (or column= to ignore the column).`);
    mapping.columns[pair.slice(0, at)] = pair.slice(at + 1) || null;
  }
  if (values["external-id"] !== undefined) mapping.externalIdColumn = values["external-id"] || undefined;
  const plan: ImportPlan = { sectionSlug: values.section, projectId, mapping, mediaFolder: values["media-folder"] };
  console.log(`${preview.format.toUpperCase()}, ${preview.rowCount} rows; external id: ${mapping.externalIdColumn ?? "none (every row creates a record)"}`);
  for (const [column, field] of Object.entries(mapping.columns)) console.log(`  ${column} → ${field ?? "(ignored: --map column=field imports it)"}`);

  const dryRun = await dryRunImport(prisma, principal, file, plan, { mediaZip });
  console.log(
    `dry run: ${dryRun.valid} of ${dryRun.rows} rows valid — ${dryRun.creates} new, ${dryRun.updates} updated, ${dryRun.unchanged} unchanged; ${dryRun.problems.length} problems`,
  );
  for (const problem of dryRun.problems.slice(0, 50)) {
    console.log(`  row ${problem.row}${problem.column ? ` [${problem.column}]` : ""}: ${problem.message}`);
  }
  if (dryRun.problems.length > 50)
    console.log(`  … and ${dryRun.problems.length - 50} more${values["problems-csv"] ? "" : " (--problems-csv <path> writes them all)"}`);
  if (values["problems-csv"]) writeFileSync(values["problems-csv"], problemsCsv(dryRun.problems));
  if (values["dry-run"]) {
    exitCode = dryRun.problems.length > 0 ? 1 : 0;
  } else {
    const { jobId } = await startImport(prisma, principal, file, plan, { mediaZip });
    console.log(`job ${jobId}`);
    const started = Date.now();
    const progress = (processed: number, total: number) => {
      const width = 30;
      const filled = total ? Math.round((processed / total) * width) : width;
      const rate = processed / Math.max(0.001, (Date.now() - started) / 1000);
      process.stdout.write(`\r[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${processed}/${total} rows  ${rate.toFixed(0)}/s `);
    };
    await runImportJobs(prisma, { onProgress: (job) => job.id === jobId && progress(job.processed, job.total) });
    // Another worker (server mode) may hold the job: wait for it.
    let job = await getImportJob(prisma, principal, jobId);
    while (job.status === "queued" || job.status === "running") {
      await sleep(1000);
      job = await getImportJob(prisma, principal, jobId);
      progress(job.processed, job.total);
    }
    process.stdout.write("\n");
    console.log(
      `${job.status}: ${job.created} new, ${job.updated} updated, ${job.unchanged} unchanged, ${job.skipped} skipped${job.error ? ` — ${job.error}` : ""}`,
    );
    exitCode = job.status === "done" ? 0 : 1;
  }
} catch (error) {
  if (isAppError(error) && error.code === "not_found") {
    console.error(
      `Not found: ${values.as} may not import into this project, or the project does not exist (imports are for admins and curators who edit the project; --media-folder for admins).`,
    );
  } else {
    console.error(isAppError(error) || error instanceof Error ? error.message : String(error));
  }
  exitCode = 2;
} finally {
  await database.close();
}
process.exit(exitCode);
