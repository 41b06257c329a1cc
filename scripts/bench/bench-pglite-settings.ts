/**
 * `npm run bench:pglite-settings`: does the embedded database serve page queries faster with
 * more memory (shared_buffers, work_mem) than PGlite's defaults (128MB, 4MB)? On a copy of the
 * indexed small demo that `npm run bench:load` leaves in .bench/load/indexed (or
 * BENCH_PGLITE_DATA, a MNEMO_DATA_DIR), opened on disk as the web process opens it, each
 * configuration in turn (defaults, tuned, defaults again): the record list's queries (a page in
 * two orders, a section's page, the facets) and record pages, as the admin and as a researcher,
 * one after another. Figures only. BENCH_PGLITE_ROUNDS (default 40).
 */
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { type Principal, systemPrincipal } from "../../lib/acl";
import { getRecord } from "../../lib/archive/get-record";
import { listRecords, listRecordsQuerySchema } from "../../lib/archive/list-records";
import { recordFacets } from "../../lib/archive/record-facets";
import { loadPrincipal } from "../../lib/auth/load-principal";
import { openDatabase } from "../../lib/db/database";

const source = join(process.env.BENCH_PGLITE_DATA ?? join(".bench", "load", "indexed"), "pgdata");
const rounds = Number(process.env.BENCH_PGLITE_ROUNDS ?? 40);
if (!existsSync(source)) {
  console.error(`${source} is missing: run npm run bench:load once (it seeds and indexes the small demo), or set BENCH_PGLITE_DATA.`);
  process.exit(2);
}

const configurations: { label: string; settings: Record<string, string> }[] = [
  { label: "PGlite defaults (shared_buffers 128MB, work_mem 4MB)", settings: {} },
  { label: "shared_buffers 256MB, work_mem 16MB", settings: { shared_buffers: "256MB", work_mem: "16MB" } },
  { label: "PGlite defaults, again", settings: {} },
];

const percentile = (sorted: number[], share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!;

console.log(
  `bench:pglite-settings — ${source} copied per run; ${rounds} rounds; ${cpus().length} × ${cpus()[0]?.model.trim() ?? "cpu"}; Node ${process.version}`,
);
console.log("| configuration | kind | runs | mean ms | p50 ms | p95 ms |");
console.log("|---|---|---|---|---|---|");
for (const configuration of configurations) {
  const copy = mkdtempSync(join(tmpdir(), "mnemo-bench-pglite-"));
  cpSync(source, join(copy, "pgdata"), { recursive: true });
  const db = await openDatabase({ dataDir: join(copy, "pgdata"), pgliteSettings: configuration.settings, migrateOnOpen: false });
  try {
    // The settings took, and the extensions load as on the normal path (startParams replace PGlite's own).
    const shown = await db.sql.query<{ shared_buffers: string; work_mem: string }>(
      `SELECT current_setting('shared_buffers') AS shared_buffers, current_setting('work_mem') AS work_mem, '[1,2]'::vector <-> '[1,2]'::vector AS distance, unaccent('Romà') AS plain, similarity('mill', 'mills') AS trigram`,
    );
    const researcherRow = await db.prisma.user.findFirst({ where: { role: "researcher", memberships: { some: {} } }, orderBy: { email: "asc" } });
    const researcher = researcherRow ? await loadPrincipal(db.prisma, researcherRow.id, researcherRow.sessionVersion) : null;
    const principals: Principal[] = [systemPrincipal, ...(researcher ? [researcher] : [])];
    const section = (await db.prisma.section.findFirst({ orderBy: { position: "asc" } }))!.slug;
    const recordIds = (await db.prisma.record.findMany({ select: { id: true }, orderBy: { id: "asc" }, take: 50 })).map((row) => row.id);
    const kinds: Record<string, (principal: Principal, round: number) => Promise<unknown>> = {
      "list page (title)": (principal, round) => listRecords(db.sql, principal, listRecordsQuerySchema.parse({ sort: "title", page: 1 + (round % 4) })),
      "list page (recently updated)": (principal) => listRecords(db.sql, principal, listRecordsQuerySchema.parse({ sort: "-updated" })),
      "section page": (principal) => listRecords(db.sql, principal, listRecordsQuerySchema.parse({ section, sort: "title" })),
      facets: (principal) => recordFacets(db.sql, principal, listRecordsQuerySchema.parse({})),
      "record page": (principal, round) => getRecord(db.prisma, principal, recordIds[round % recordIds.length]!).catch(() => null),
    };
    const times: Record<string, number[]> = Object.fromEntries(Object.keys(kinds).map((kind) => [kind, []]));
    for (let round = -5; round < rounds; round++) {
      for (const principal of principals) {
        for (const [kind, run] of Object.entries(kinds)) {
          const start = performance.now();
          await run(principal, round);
          if (round >= 0) times[kind]!.push(performance.now() - start);
        }
      }
    }
    const label = `${configuration.label} [${shown[0]?.shared_buffers}, ${shown[0]?.work_mem}]`;
    const all: number[] = [];
    for (const [kind, values] of Object.entries(times)) {
      all.push(...values);
      values.sort((a, b) => a - b);
      const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
      console.log(
        `| ${label} | ${kind} | ${values.length} | ${mean.toFixed(2)} | ${percentile(values, 0.5).toFixed(2)} | ${percentile(values, 0.95).toFixed(2)} |`,
      );
    }
    all.sort((a, b) => a - b);
    console.log(
      `| ${label} | **all** | ${all.length} | ${(all.reduce((sum, value) => sum + value, 0) / all.length).toFixed(2)} | ${percentile(all, 0.5).toFixed(2)} | ${percentile(all, 0.95).toFixed(2)} |`,
    );
  } finally {
    await db.close();
    rmSync(copy, { recursive: true, force: true });
  }
}
