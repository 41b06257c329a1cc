import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../lib/db/database";
import { saveEmbedGroup } from "../../lib/rag/index/save-embed-group";
import { createHashEmbedder } from "../../lib/rag/embed/hash-embedder";
import { CHUNKER_VERSION } from "../../lib/rag/chunk";
import { enqueueReindex } from "../../lib/rag/index/index-queue";
import { ensureIndexSpace } from "../../lib/rag/index/index-spaces";
import { runWorker } from "../../lib/rag/index/run-worker";
import { killHard, startScript, waitFor, type ScriptProcess } from "../support/child-processes";
import { addMember, createProject, createRecord, createSection, createUser, saveAllGroup } from "../support/factories";
import { duplicatePassages, passageSnapshot } from "../support/index-checks";
import { serveTestDatabase, testDatabaseIsServer, testDatabaseMode, type ServedDatabase } from "../support/test-database";

/**
 * Real processes killed with SIGKILL, and what the data looks like afterwards:
 * - index worker processes mid-batch (server mode only: embedded mode runs the worker inside
 *   the web process, which `npm run test:faults:app` kills);
 * - a process saving records as a curator, in the suite's mode: through the Postgres protocol,
 *   or on a PGlite data directory that the test reopens after the kill.
 */
const mode = testDatabaseMode();
const dimension = 64;
const scratch = mkdtempSync(join(tmpdir(), "mnemo-crash-"));
const running: ScriptProcess[] = [];

afterAll(async () => {
  for (const process of running) await killHard(process);
  rmSync(scratch, { recursive: true, force: true });
});

const words = ["mill", "harbour", "weaver", "ledger", "storm", "lamp", "net", "sardine", "loom", "quay", "tide", "cargo", "salt", "rope", "bell"];
/** A summary long enough for several passages, different for every record. */
function longSummary(index: number): string {
  return Array.from({ length: 14 }, (_, sentence) => {
    const pick = (offset: number) => words[(index * 7 + sentence * 3 + offset) % words.length];
    return `Entry ${index}.${sentence} tells of the ${pick(0)} by the ${pick(1)}, where the ${pick(2)} kept a ${pick(4)} of ${pick(5)} and ${pick(6)}.`;
  }).join(" ");
}

describe(`crash recovery (${mode})`, () => {
  describe.skipIf(!testDatabaseIsServer())("index worker processes (server mode only: embedded mode has no worker process)", () => {
    let served: ServedDatabase;
    let db: Database;
    const recordIds: string[] = [];

    beforeAll(async () => {
      served = await serveTestDatabase({ maxConnections: 8 });
      db = served.database;
      const section = await createSection(db.prisma);
      const projectId = (await createProject(db.prisma)).id;
      for (const group of [
        { slug: "all", label: "All", fields: ["title", "summary"] },
        { slug: "summary", label: "Summary", fields: ["summary"] },
      ]) {
        await saveEmbedGroup(db.prisma, db.sql, {
          sectionSlug: section.slug,
          group: { ...group, chunking: "short", maxTokens: 48, minTokens: 1, overlap: 0 },
          requeue: false,
        });
      }
      for (let index = 0; index < 96; index++) {
        recordIds.push((await createRecord(db.prisma, section, projectId, { title: `Ledger ${index}`, summary: longSummary(index) })).id);
      }
    }, 120_000);

    afterAll(async () => {
      await served?.close();
    });

    const workerEnv = () => ({
      DATABASE_URL: served.url,
      DATABASE_POOL_SIZE: "1",
      MNEMO_DATA_DIR: scratch,
      MNEMO_EMBEDDER: "hash",
      MNEMO_ALLOW_HASH_EMBEDDER: "1",
      MNEMO_EMBEDDING_DIMENSION: String(dimension),
      MNEMO_INDEX_LEASE_SECONDS: "2",
    });
    const startWorker = (args: string[] = []) => {
      const worker = startScript("scripts/worker.ts", args, workerEnv());
      running.push(worker);
      return worker;
    };
    const count = async (sql: string, params: unknown[] = []) => (await db.sql.query<{ n: number }>(sql, params))[0]?.n ?? 0;

    it("workers killed with SIGKILL mid-batch lose nothing: the queue drains, every record is indexed once, as a clean run indexes it", async () => {
      const kills: { claimed: number; writtenButUnfinished: number }[] = [];
      // Three kills: two workers at once, then one alone, each once its batch is under way.
      for (const workers of [2, 1]) {
        const chunksBefore = await count(`SELECT count(*)::int AS n FROM chunks`);
        const processes = Array.from({ length: workers }, () => startWorker());
        await waitFor(
          "workers in the middle of a batch",
          async () =>
            (await count(`SELECT count(*)::int AS n FROM index_queue WHERE status = 'running' AND locked_at > now() - interval '2 seconds'`)) > 0 &&
            (await count(`SELECT count(*)::int AS n FROM chunks`)) > chunksBefore,
          40_000,
        );
        // Each worker lowered its CPU priority (MNEMO_WORKER_NICE, default 10) before starting its threads.
        for (const process of processes) expect(niceOf(process.child.pid!)).toBe(10);
        await Promise.all(processes.map(killHard));
        for (const process of processes) {
          // Rows the dead process still holds are the claims it was working on when it died.
          const owner = `%:${process.child.pid}:%`;
          kills.push({
            claimed: await count(`SELECT count(*)::int AS n FROM index_queue WHERE status = 'running' AND locked_by LIKE $1`, [owner]),
            writtenButUnfinished: await count(
              `SELECT count(*)::int AS n FROM index_queue q WHERE q.status = 'running' AND q.locked_by LIKE $1 AND EXISTS (SELECT 1 FROM chunks c WHERE c.record_id = q.record_id)`,
              [owner],
            ),
          });
        }
      }
      expect(kills).toHaveLength(3);
      // The kills landed mid-work: claimed rows were left behind, some of them already written.
      expect(kills.reduce((sum, kill) => sum + kill.claimed, 0)).toBeGreaterThan(0);
      const leftAfterKills = await count(`SELECT count(*)::int AS n FROM index_queue`);
      expect(leftAfterKills).toBeGreaterThan(0);

      const started = performance.now();
      const last = startWorker(["--drain"]);
      expect(await last.exited, last.errors()).toBe(0);
      const drainMs = Math.round(performance.now() - started);

      expect(await count(`SELECT count(*)::int AS n FROM index_queue`)).toBe(0);
      const indexed = await db.sql.query<{ record_id: string; groups: number }>(
        `SELECT record_id, count(DISTINCT embed_group_id)::int AS groups FROM chunks GROUP BY record_id`,
      );
      expect(indexed.map((row) => row.record_id).sort()).toEqual([...recordIds].sort());
      expect(indexed.every((row) => row.groups === 2)).toBe(true);
      const duplicates = await duplicatePassages(db.sql);
      expect(duplicates).toBe(0);

      // A clean run over the same records gives exactly the same passages and vectors.
      const recovered = await passageSnapshot(db.sql);
      const embedder = createHashEmbedder({ dimension });
      const space = await ensureIndexSpace(db.sql, { provider: embedder.provider, model: embedder.model, dimension, chunkerVersion: CHUNKER_VERSION });
      await db.sql.query(`DELETE FROM chunks`);
      await enqueueReindex(db.sql, {});
      const clean = await runWorker({ prisma: db.prisma, sql: db.sql, embedder, space, drain: true, idleMs: 10, batchSize: 32 });
      expect(clean).toMatchObject({ indexed: recordIds.length, parked: 0 });
      expect(recovered).toEqual(await passageSnapshot(db.sql));
      console.info(
        `[crash-recovery] index workers: ${recordIds.length} records, ${recovered.length} passages, ${kills.length} SIGKILLs, ` +
          `claimed at kill ${kills.map((kill) => kill.claimed).join("/")}, written but unfinished ${kills.map((kill) => kill.writtenButUnfinished).join("/")}, ` +
          `${leftAfterKills} rows left, drained by a new worker in ${drainMs} ms, duplicates ${duplicates}`,
      );
    }, 120_000);
  });

  describe("a curator's save loop", () => {
    const variant = {
      socket: "server mode, through the socket",
      postgres: "server mode, on PostgreSQL",
      pglite: "embedded, reopening the PGlite data directory",
    }[mode];
    const dataDir = join(scratch, "pgdata");
    let served: ServedDatabase | undefined;
    let db: Database;
    let section: { id: string; slug: string };
    let projectId: string;
    let curatorId: string;

    const reopen = async () => {
      if (!served) db = await openDatabase({ dataDir });
    };
    beforeAll(async () => {
      if (testDatabaseIsServer()) {
        served = await serveTestDatabase();
        db = served.database;
      } else {
        await reopen();
      }
      section = await createSection(db.prisma);
      projectId = (await createProject(db.prisma)).id;
      const curator = await createUser(db.prisma, { role: "curator" });
      await addMember(db.prisma, curator.id, projectId, "editor");
      curatorId = curator.id;
      await saveAllGroup(db.prisma, db.sql, section.slug, ["title", "summary"], 64);
    }, 120_000);

    afterAll(async () => {
      if (served) await served.close();
      else await db?.close();
    });

    it(`killed with SIGKILL mid-loop keeps every acknowledged save whole, half-writes nothing, and the queue then indexes the last versions (${variant})`, async () => {
      /** Per record: the highest acknowledged version and the title that save wrote. */
      const acknowledged = new Map<string, { version: number; title: string }>();
      const kills: { acknowledged: number; inFlight: string; committedUnacknowledged: number; reopenMs: number | null }[] = [];
      let committedUnacknowledged = 0;
      for (const round of [0, 1, 2]) {
        // Embedded: one process owns the data directory at a time, as in production.
        if (!served) await db.close();
        const saver = startScript("tests/support/save-loop.ts", [curatorId, section.slug, projectId, ...(served ? [] : [dataDir])], {
          ...(served ? { DATABASE_URL: served.url } : { DATABASE_URL: "" }),
        });
        running.push(saver);
        const acks = () => saver.lines.filter((line) => line.startsWith("ACK ")).length;
        await waitFor(`acknowledged saves (round ${round})`, () => acks() >= 20 + 15 * round, 40_000);
        // Land somewhere inside the next save rather than right after an acknowledgement.
        await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 25)));
        await killHard(saver);
        const tag = saver.child.pid;
        let acked = 0;
        let lastSaving = "";
        for (const line of saver.lines) {
          if (line.startsWith("SAVING ")) lastSaving = line.slice(7);
          const match = /^ACK (\S+) (\d+)$/.exec(line);
          if (!match) continue;
          acked++;
          const title = `Save ${tag}-${lastSaving}${Number(match[2]) > 1 ? " (an edit)" : ""}`;
          acknowledged.set(match[1]!, { version: Number(match[2]), title });
          lastSaving = "";
        }
        const started = performance.now();
        await reopen();
        const reopenMs = served ? null : Math.round(performance.now() - started);

        const records = await db.prisma.record.findMany({ where: { sectionId: section.id }, select: { id: true, version: true, title: true } });
        const byId = new Map(records.map((record) => [record.id, record]));
        // Every acknowledged save is there, with its version and its values; a save that
        // committed as the process died may have gone one further (at most one per kill).
        let unacknowledgedCommits = 0;
        for (const [id, ack] of acknowledged) {
          const record = byId.get(id);
          expect(record, `acknowledged record ${id}`).toBeDefined();
          if (record!.version === ack.version) expect(record!.title).toBe(ack.title);
          else unacknowledgedCommits += record!.version - ack.version;
          expect(record!.version).toBeGreaterThanOrEqual(ack.version);
        }
        unacknowledgedCommits += records.filter((record) => !acknowledged.has(record.id)).length;
        kills.push({
          acknowledged: acked,
          inFlight: lastSaving ? `save ${lastSaving}` : "none",
          committedUnacknowledged: unacknowledgedCommits - committedUnacknowledged,
          reopenMs,
        });
        committedUnacknowledged = unacknowledgedCommits;
        expect(unacknowledgedCommits).toBeLessThanOrEqual(kills.length);
        // Nothing half-written: every record has its outbox row and one audit event per version.
        const queued = new Set(
          (await db.prisma.indexQueueItem.findMany({ where: { status: "pending" }, select: { recordId: true } })).map((row) => row.recordId),
        );
        expect(records.filter((record) => !queued.has(record.id))).toEqual([]);
        const events = await db.prisma.auditEvent.findMany({
          where: { targetId: { in: records.map((record) => record.id) } },
          select: { targetId: true, action: true, details: true },
        });
        for (const record of records) {
          const versions = events
            .filter((event) => event.targetId === record.id)
            .map((event) => `${event.action}:${(event.details as { version: number }).version}`)
            .sort((a, b) => Number(a.split(":")[1]) - Number(b.split(":")[1]));
          expect(versions).toEqual(Array.from({ length: record.version }, (_, index) => `${index === 0 ? "record.create" : "record.update"}:${index + 1}`));
        }
      }

      // The queue then drains to the right index: each record's passages are its last version's.
      const embedder = createHashEmbedder({ dimension });
      const space = await ensureIndexSpace(db.sql, { provider: embedder.provider, model: embedder.model, dimension, chunkerVersion: CHUNKER_VERSION });
      const started = performance.now();
      const progress = await runWorker({ prisma: db.prisma, sql: db.sql, embedder, space, drain: true, idleMs: 10, batchSize: 32 });
      const drainMs = Math.round(performance.now() - started);
      const records = await db.prisma.record.findMany({ where: { sectionId: section.id }, select: { id: true, title: true } });
      expect(progress).toMatchObject({ indexed: records.length, parked: 0 });
      expect(await db.prisma.indexQueueItem.count()).toBe(0);
      // The title heads every embedded passage (a lone title beside long text is no passage of its own).
      const passages = await db.sql.query<{ record_id: string; text: string }>(
        `SELECT record_id, string_agg(embedded_text, ' ' ORDER BY ordinal) AS text FROM chunks GROUP BY record_id`,
      );
      const textOf = new Map(passages.map((row) => [row.record_id, row.text]));
      for (const record of records) expect(textOf.get(record.id), record.title).toContain(record.title);
      const duplicates = await duplicatePassages(db.sql);
      expect(duplicates).toBe(0);
      console.info(
        `[crash-recovery] save loop (${variant}): ${kills.length} SIGKILLs, acknowledged ${kills.map((kill) => kill.acknowledged).join("/")}, ` +
          `in flight ${kills.map((kill) => kill.inFlight).join("/")} (committed though unacknowledged ${kills.map((kill) => kill.committedUnacknowledged).join("/")}), ${records.length} records, ${acknowledged.size} acknowledged all present` +
          `${served ? "" : `, reopened in ${kills.map((kill) => kill.reopenMs).join("/")} ms`}, queue drained in ${drainMs} ms, duplicates ${duplicates}`,
      );
    }, 120_000);
  });
});

/** A Linux process's nice value: field 19 of /proc/<pid>/stat (after the command name in parentheses). */
function niceOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
}
