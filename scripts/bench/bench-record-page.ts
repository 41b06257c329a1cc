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
 * much of a page a cache keyed by the record's version could skip, and which part.
 *
 * Then the pages as a browser gets them: the production server (server.ts, built first when
 * .next has no build) on another copy, signed in as the researcher, opening up to ten records of
 * each section BENCH_RECORD_PAGE_ROUNDS times: the time to the first byte of the body (the record
 * itself: the slow panels — similar records, similar objects, proposals — are streamed after it
 * inside Suspense boundaries) and to the whole page. BENCH_RECORD_PAGE_DEMO=full measures the full
 * demo that `npm run eval:archive` indexes into .data/eval-cache instead (run that first).
 * Figures only, no assertions.
 */
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { request } from "node:http";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { getRecord } from "../../lib/archive/get-record";
import { getScanPages } from "../../lib/archive/scan-pages";
import { loadPrincipal } from "../../lib/auth/load-principal";
import { openDatabase } from "../../lib/db/database";
import { recordCaptions } from "../../lib/http/captions-response";
import { recordTextTranslations } from "../../lib/http/english-text-response";
import { processCaptionTranslator } from "../../lib/rag/embed/caption-translation";
import { processTextTranslator } from "../../lib/rag/embed/text-translation";
import { characteriseObject } from "../../lib/rag/objects/characterise";
import { isObjectRecord, loadObjectSubject, neighbourReads } from "../../lib/rag/objects/object-neighbours";
import { proposalsForRecord } from "../../lib/rag/objects/proposals";
import { findSimilarObjects } from "../../lib/rag/objects/similar-objects";
import { findSimilarRecords, similarityFacets } from "../../lib/rag/search/find-similar";
import { runtimeOver } from "../../lib/runtime";
import { ensureSmallDemo } from "./bench-small-demo";

const rounds = Math.max(2, Number(process.env.BENCH_RECORD_PAGE_ROUNDS ?? 3));
const root = ".bench/load";

const demo = process.env.BENCH_RECORD_PAGE_DEMO === "full" ? "full" : "small";
/** The full demo as eval:archive keeps it indexed (the USE lite space's folder). */
function fullDemoDir(): string {
  const cache = join(".data", "eval-cache");
  const folder = existsSync(cache)
    ? readdirSync(cache).find((name) => name.startsWith("archive-") && existsSync(join(cache, name, "indexed.json")))
    : undefined;
  if (!folder) {
    console.error("BENCH_RECORD_PAGE_DEMO=full needs the full demo indexed by `npm run eval:archive` (.data/eval-cache/archive-*/indexed.json)");
    process.exit(2);
  }
  return join(cache, folder);
}
// The same small demo bench:load measures (seeded once, indexed once from a copy), or the full one.
const indexedDir = demo === "full" ? fullDemoDir() : ensureSmallDemo(root, process.env, { label: "bench:record-page" }).indexedDir;

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
  // At most 400 records, spread evenly over the title order (the full demo has over 4,000).
  const every = (await database.sql.query<{ id: string }>(`SELECT id FROM records ORDER BY title, id`)).map((row) => row.id);
  const ids = every.filter((_, index) => index % Math.ceil(every.length / 400) === 0);

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
        // As the page's two object panels share them (object-panels.tsx): the object and the neighbours' reads.
        const reads = neighbourReads();
        const subject = await timed("similar objects", keep, async () => {
          const loaded = await loadObjectSubject(objects.sql, principal, record.id);
          await findSimilarObjects(objects, principal, { recordId: record.id, mode: "hybrid", limit: 12 }, { subject: loaded, reads });
          return loaded;
        });
        await timed("proposals", keep, () =>
          Promise.all([characteriseObject(objects, principal, { recordId: record.id, subject, reads }), proposalsForRecord(objects, principal, record.id)]),
        );
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
    `\nbench:record-page — ${demo} demo (${ids.length} of its ${every.length} records, ${readable} readable by the researcher), ${rounds - 1} measured rounds after one warm-up; ` +
      `${cpus().length} × ${cpus()[0]?.model ?? "unknown"}, Node ${process.version}; embedded database`,
  );
  console.log("| part | calls | mean ms | p50 ms | p95 ms | share of the pages' time |");
  console.log("|---|---|---|---|---|---|");
  for (const part of parts) {
    const values = times.get(part)!;
    if (values.length === 0) continue;
    console.log(
      `| ${part} | ${values.length} | ${ms(sum(values) / values.length)} | ${ms(pct(values, 50))} | ${ms(pct(values, 95))} | ${((100 * sum(values)) / all).toFixed(1)}% |`,
    );
  }
  console.log(`| **page (all parts)** | ${totals.length} | ${ms(all / Math.max(1, totals.length))} | ${ms(pct(totals, 50))} | ${ms(pct(totals, 95))} | 100% |`);

  // Over HTTP: pick the pages now, then give the data directory to the server.
  const bySection = await database.sql.query<{ slug: string; ids: string[] }>(
    `SELECT s.slug, (array_agg(r.id ORDER BY r.title, r.id))[1:10] AS ids FROM records r JOIN sections s ON s.id = r.section_id
      WHERE r.project_id = ANY($1::text[]) GROUP BY s.slug ORDER BY s.slug`,
    [[...principal.readableProjectIds]],
  );
  await database.close();
  const http = await pagesOverHttp(bySection);
  console.log(
    `\nThe same pages over HTTP from the production server (${demo} demo, embedded database), as the researcher; ${rounds - 1} measured rounds after one warm-up:`,
  );
  console.log("| section | pages | first byte p50 ms | first byte p95 ms | whole page p50 ms | whole page p95 ms |");
  console.log("|---|---|---|---|---|---|");
  for (const row of http)
    console.log(`| ${row.slug} | ${row.pages} | ${ms(pct(row.ttfb, 50))} | ${ms(pct(row.ttfb, 95))} | ${ms(pct(row.total, 50))} | ${ms(pct(row.total, 95))} |`);
  const everyTtfb = http.flatMap((row) => row.ttfb);
  console.log(
    `every record page: first byte p95 ${ms(pct(everyTtfb, 95))} ms, whole page p95 ${ms(
      pct(
        http.flatMap((row) => row.total),
        95,
      ),
    )} ms`,
  );
} finally {
  await database.close().catch(() => undefined);
  rmSync(copy, { recursive: true, force: true });
}

/** Each section's pages, opened over HTTP `rounds` times: time to the body's first byte and to its end. */
async function pagesOverHttp(bySection: { slug: string; ids: string[] }[]): Promise<{ slug: string; pages: number; ttfb: number[]; total: number[] }[]> {
  if (!existsSync(join(".next", "BUILD_ID"))) {
    console.log("[bench:record-page] building the app…");
    const built = spawnSync("npx", ["next", "build"], { stdio: "inherit" });
    if (built.status !== 0) throw new Error("next build failed");
  }
  const port = Number(process.env.BENCH_RECORD_PAGE_PORT ?? 3340);
  const base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    MNEMO_DATA_DIR: copy,
    MNEMO_STORAGE_DIR: join(indexedDir, "media"),
    AUTH_SECRET: "bench-record-page-secret-0123456789abcdef",
    NODE_ENV: "production",
    MNEMO_INDEX_WORKER: "off",
  };
  delete env.DATABASE_URL;
  const server = spawn(process.execPath, ["--import", "tsx", "server.ts", "-H", "127.0.0.1", "-p", String(port)], { env, stdio: "ignore" });
  try {
    for (let waited = 0; ; waited += 500) {
      if (waited > 180_000) throw new Error("the server did not start within 3 minutes");
      const up = await fetch(`${base}/api/health`).then(
        (response) => response.ok,
        () => false,
      );
      if (up) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const csrf = await fetch(`${base}/api/auth/csrf`);
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const signIn = await fetch(`${base}/api/auth/callback/credentials`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        cookie: csrf.headers
          .getSetCookie()
          .map((cookie) => cookie.split(";")[0])
          .join("; "),
      },
      body: new URLSearchParams({ csrfToken, email: "researcher@mnemo.demo", password: "mnemo-researcher", callbackUrl: `${base}/records` }),
    });
    const cookie = signIn.headers
      .getSetCookie()
      .find((value) => value.startsWith("authjs.session-token="))
      ?.split(";")[0];
    if (!cookie) throw new Error("the researcher could not sign in");
    const open = (path: string) =>
      new Promise<{ ttfb: number; total: number }>((resolve, reject) => {
        const started = performance.now();
        let ttfb = 0;
        request(`${base}${path}`, { headers: { cookie, "user-agent": "Mozilla/5.0 (bench:record-page)" } }, (response) => {
          if (response.statusCode !== 200) reject(new Error(`${path}: HTTP ${response.statusCode}`));
          response.on("data", () => (ttfb ||= performance.now() - started));
          response.on("end", () => resolve({ ttfb, total: performance.now() - started }));
        })
          .on("error", reject)
          .end();
      });
    const results = bySection.map((section) => ({ slug: section.slug, pages: section.ids.length, ttfb: [] as number[], total: [] as number[] }));
    for (let round = 0; round < rounds; round++) {
      for (const [index, section] of bySection.entries()) {
        for (const id of section.ids) {
          const timing = await open(`/records/${id}`);
          if (round > 0) {
            results[index]!.ttfb.push(timing.ttfb);
            results[index]!.total.push(timing.total);
          }
        }
      }
    }
    return results;
  } finally {
    server.kill("SIGTERM");
    await new Promise((resolve) => server.once("exit", resolve));
  }
}
