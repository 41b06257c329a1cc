/**
 * A stand-in for the web process in the crash tests: a curator saves records through the real
 * service (saveRecord: record, version, outbox row and audit event in one transaction) in an
 * endless loop — mostly new records, every third save an edit of an earlier one — and prints
 * `SAVING <n>` before and `ACK <id> <version>` after each save returns, so the parent knows
 * exactly which saves were acknowledged when it kills this process.
 *
 *   node --conditions=react-server --import tsx tests/support/save-loop.ts <curator-id> <section-slug> <project-id> [<pglite-data-dir>]
 *
 * With DATABASE_URL it connects to that server; otherwise it opens the PGlite data directory.
 */
import { saveRecord } from "../../lib/archive/save-record";
import { loadPrincipal } from "../../lib/auth/load-principal";
import { openDatabase } from "../../lib/db/database";

const [curatorId, sectionSlug, projectId, dataDir] = process.argv.slice(2);
if (!curatorId || !sectionSlug || !projectId) throw new Error("usage: save-loop.ts <curator-id> <section-slug> <project-id> [<data-dir>]");
const url = process.env.DATABASE_URL;
if (!url && !dataDir) throw new Error("save-loop.ts needs DATABASE_URL or a data directory");

const database = await openDatabase(url ? { url, poolSize: 1 } : { dataDir });
const principal = await loadPrincipal(database.prisma, curatorId, 0);
if (!principal) throw new Error(`no principal for ${curatorId}`);
const saved: { id: string; version: number }[] = [];
const tag = process.pid;
console.log("READY");
for (let n = 0; ; n++) {
  console.log(`SAVING ${n}`);
  const edited = n % 3 === 2 ? saved[n % saved.length] : undefined;
  const result = await saveRecord(database.prisma, principal, {
    id: edited?.id,
    version: edited?.version,
    sectionSlug,
    projectId,
    values: edited
      ? { title: `Save ${tag}-${n} (an edit)`, summary: `Edited by save ${tag}-${n}: the keeper corrected the tide table.` }
      : { title: `Save ${tag}-${n}`, summary: `Written by save ${tag}-${n}: the harbour log for the day.` },
  });
  if (edited) edited.version = result.version;
  else saved.push({ id: result.id, version: result.version });
  console.log(`ACK ${result.id} ${result.version}`);
}
