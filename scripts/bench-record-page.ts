/**
 * `npm run bench:record-page`: where a record page's server time goes, part by part, on the
 * indexed small demo that `npm run bench:load` builds (.bench/load/indexed; built here the same
 * way when it is missing), on a copy, as the demo's researcher. Every record the researcher may
 * read is opened BENCH_RECORD_PAGE_ROUNDS times (default 3) in turn, each part timed as the page
 * (app/records/[id]/page.tsx and its panels) calls it: the record with its links and backlinks,
 * whether it is an object, its scan pages, its captions and English text offers, the similar
 * records panel (its facets and neighbours), and for objects the similar-objects and proposal
 * panels. The first round warms the models and caches and is left out of the figures.
 *
 * It answers one question of issue 21 ("cache rendered record fragments keyed by version"): how
 * much of a page a cache keyed by the record's version could skip, and which part. Figures only,
 * no assertions; React's rendering of the result is not in them (bench:load's profile has it).
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { getRecord } from "../lib/archive/get-record";
import { getScanPages } from "../lib/archive/scan-pages";
import { loadPrincipal } from "../lib/auth/load-principal";
import { openDatabase } from "../lib/db/database";
import { recordCaptions } from "../lib/http/captions-response";
import { recordTextTranslations } from "../lib/http/english-text-response";
import { processCaptionTranslator } from "../lib/rag/embed/caption-translation";
import { processTextTranslator } from "../lib/rag/embed/text-translation";
import { characteriseObject } from "../lib/rag/objects/characterise";
import { isObjectRecord } from "../lib/rag/objects/object-neighbours";
import { proposalsForRecord } from "../lib/rag/objects/proposals";
import { findSimilarObjects } from "../lib/rag/objects/similar-objects";
import { findSimilarRecords, similarityFacets } from "../lib/rag/search/find-similar";
import { runtimeOver } from "../lib/runtime";
import { ensureSmallDemo } from "./bench-small-demo";

const rounds = Math.max(2, Number(process.env.BENCH_RECORD_PAGE_ROUNDS ?? 3));
const root = ".bench/load";

// The same small demo bench:load measures: seeded once, indexed once from a copy.
const { indexedDir } = ensureSmallDemo(root, process.env, { label: "bench:record-page" });

const copy = mkdtempSync(join(tmpdir(), "mnemo-bench-record-page-"));
cpSync(join(indexedDir, "pgdata"), join(copy, "pgdata"), { recursive: true });
process.env.MNEMO_STORAGE_DIR = join(indexedDir, "media");
delete process.env.DATABASE_URL;
const database = await openDatabase({ dataDir: join(copy, "pgdata") });

type Part = "record" | "kind" | "scans" | "captions" | "english text" | "similar records" | "similar objects" | "proposals";
const parts: Part[] = ["record", "kind", "scans", "captions", "english text", "similar records", "similar objects", "proposals"];
const times = new Map<Part, number[]>(parts.map((part) => [part, []]));
const totals: number[] = [];

try {
  const researcher = await database.prisma.user.findUnique({ where: { email: "researcher@mnemo.demo" } });
  if (!researcher) throw new Error("the demo researcher is missing: is .bench/load/indexed the demo?");
  const principal = await loadPrincipal(database.prisma, researcher.id, researcher.sessionVersion);
  if (!principal) throw new Error("no principal for the demo researcher");
  const runtime = runtimeOver(database);
  const space = await runtime.space();
  if (!space) throw new Error("no active index space: the demo is not indexed");
  const objects = await runtime.objects();
  const ids = (await database.sql.query<{ id: string }>(`SELECT id FROM records ORDER BY title, id`)).map((row) => row.id);

  const timed = async <T>(part: Part, keep: boolean, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const result = await work();
    if (keep) times.get(part)!.push(performance.now() - started);
    return result;
  };

  let readable = 0;
  for (let round = 0; round < rounds; round++) {
    const keep = round > 0;
    for (const id of ids) {
      const pageStarted = performance.now();
      const record = await timed("record", keep, () => getRecord(database.prisma, principal, id).catch(() => null));
      if (!record) continue;
      if (round === 0) readable++;
      const isObject = await timed("kind", keep, () => isObjectRecord(database.sql, record.id));
      if (record.section.fields.some((field) => field.type === "scan" && typeof record.values[field.key] === "string")) {
        await timed("scans", keep, () => getScanPages(database.prisma, principal, record.id));
      }
      await timed("captions", keep, () => recordCaptions(database.prisma, principal, record, processCaptionTranslator));
      await timed("english text", keep, () => recordTextTranslations(record, processTextTranslator));
      await timed("similar records", keep, async () => {
        const facets = await similarityFacets(database.sql, principal, space, record.id);
        return facets.length > 0 ? findSimilarRecords(database.sql, principal, space, record.id, { limit: 8 }) : [];
      });
      if (isObject) {
        await timed("similar objects", keep, () => findSimilarObjects(objects, principal, { recordId: record.id, mode: "hybrid", limit: 12 }));
        await timed("proposals", keep, () => Promise.all([characteriseObject(objects, principal, { recordId: record.id }), proposalsForRecord(objects, principal, record.id)]));
      }
      if (keep) totals.push(performance.now() - pageStarted);
    }
  }

  const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
  const pct = (values: number[], p: number) => {
    const list = sorted(values);
    return list.length ? (list[Math.min(list.length - 1, Math.floor((p / 100) * list.length))] ?? 0) : Number.NaN;
  };
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  const all = sum(totals);
  const ms = (value: number) => (Number.isNaN(value) ? "–" : value.toFixed(1));
  console.log(
    `\nbench:record-page — small demo (${ids.length} records, ${readable} readable by the researcher), ${rounds - 1} measured rounds after one warm-up; ` +
      `${cpus().length} × ${cpus()[0]?.model ?? "unknown"}, Node ${process.version}; embedded database`,
  );
  console.log("| part | calls | mean ms | p50 ms | p95 ms | share of the pages' time |");
  console.log("|---|---|---|---|---|---|");
  for (const part of parts) {
    const values = times.get(part)!;
    if (values.length === 0) continue;
    console.log(`| ${part} | ${values.length} | ${ms(sum(values) / values.length)} | ${ms(pct(values, 50))} | ${ms(pct(values, 95))} | ${((100 * sum(values)) / all).toFixed(1)}% |`);
  }
  console.log(`| **page (all parts)** | ${totals.length} | ${ms(all / Math.max(1, totals.length))} | ${ms(pct(totals, 50))} | ${ms(pct(totals, 95))} | 100% |`);
} finally {
  await database.close();
  rmSync(copy, { recursive: true, force: true });
}
