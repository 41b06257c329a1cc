/**
 * `npm run bench:principal`: what a request spends resolving its principal (session → user,
 * project sets) and reading the section definitions the record list shows (every section, and
 * the chosen one), with the per-process caches off and on (MNEMO_PRINCIPAL_CACHE_MS,
 * MNEMO_SECTION_CACHE_MS; lib/expiring-cache.ts). A fresh embedded database (PGlite, as the
 * demo runs) with the demo's seven sections, 8 projects and 60 users of one to three projects
 * each; requests one after another, users in turn, so with the caches on each user's entry is
 * reused until it expires. Figures only, no assertions. BENCH_PRINCIPAL_REQUESTS (default 2000).
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { getSectionBySlugCached, listSectionsCached, forgetSections } from "../../lib/archive/sections";
import { forgetProjectSets } from "../../lib/auth/load-principal";
import { loadSessionPrincipal } from "../../lib/auth/sessions";
import { resetConfig } from "../../lib/config";
import { openDatabase } from "../../lib/db/database";
import type { Prisma } from "../../lib/db/generated/client";
import { ceramicsSection } from "../../prisma/seed/ceramics";
import { coinSection } from "../../prisma/seed/coins";
import { museumObjectSection } from "../../prisma/seed/museum-objects";
import { oralHistorySection, peopleSection, placeSection, publicationSection } from "../../prisma/seed/text-collections";

const requests = Number(process.env.BENCH_PRINCIPAL_REQUESTS ?? 2000);
const dataDir = mkdtempSync(join(tmpdir(), "mnemo-bench-principal-"));
const started = performance.now();
const db = await openDatabase({ dataDir });
try {
  const { prisma } = db;
  const sections = [oralHistorySection, publicationSection, peopleSection, placeSection, coinSection, ceramicsSection, museumObjectSection];
  for (const [position, section] of sections.entries()) {
    await prisma.section.create({ data: { ...section, fields: section.fields as unknown as Prisma.InputJsonValue, position } });
  }
  const projects = [];
  for (let index = 0; index < 8; index++)
    projects.push(await prisma.project.create({ data: { slug: `bench-${index}`, name: `Project ${index}`, restricted: index % 2 === 0 } }));
  const users = [];
  for (let index = 0; index < 60; index++) {
    const user = await prisma.user.create({
      data: { email: `user${index}@bench.test`, name: `User ${index}`, role: index % 5 === 0 ? "curator" : "researcher" },
    });
    for (let member = 0; member <= index % 3; member++) {
      await prisma.membership.create({
        data: { userId: user.id, projectId: projects[(index + member * 3) % projects.length]!.id, role: member === 0 && index % 5 === 0 ? "editor" : "reader" },
      });
    }
    users.push(user);
  }
  const claims = users.map((user) => ({ userId: user.id, sessionVersion: 0, sessionId: randomUUID(), signedInAt: Math.floor(Date.now() / 1000) - 60 }));

  // One request's share of the record list: who asks, every section (the filters), the chosen one.
  const request = async (index: number) => {
    const principal = await loadSessionPrincipal(prisma, claims[index % claims.length]);
    if (!principal) throw new Error("no principal");
    await listSectionsCached(prisma);
    await getSectionBySlugCached(prisma, sections[index % sections.length]!.slug);
  };

  const run = async (label: string, env: { principalMs: string; sectionMs: string }) => {
    process.env.MNEMO_PRINCIPAL_CACHE_MS = env.principalMs;
    process.env.MNEMO_SECTION_CACHE_MS = env.sectionMs;
    resetConfig();
    forgetProjectSets(prisma);
    forgetSections(prisma);
    for (let index = 0; index < 200; index++) await request(index);
    const times: number[] = [];
    const runStarted = performance.now();
    for (let index = 0; index < requests; index++) {
      const start = performance.now();
      await request(index);
      times.push(performance.now() - start);
    }
    const wall = performance.now() - runStarted;
    times.sort((a, b) => a - b);
    const at = (share: number) => times[Math.min(times.length - 1, Math.floor(share * times.length))]!.toFixed(2);
    const mean = (times.reduce((sum, time) => sum + time, 0) / times.length).toFixed(2);
    console.log(
      `| ${label} | ${env.principalMs} | ${env.sectionMs} | ${requests} | ${mean} | ${at(0.5)} | ${at(0.95)} | ${at(0.99)} | ${((requests / wall) * 1000).toFixed(0)} |`,
    );
  };

  console.log(
    `bench:principal — embedded PGlite, ${users.length} users in ${projects.length} projects, ${sections.length} sections; ${requests} requests in turn per run; ${cpus().length} × ${cpus()[0]?.model.trim() ?? "cpu"}; Node ${process.version}`,
  );
  console.log("| caches | MNEMO_PRINCIPAL_CACHE_MS | MNEMO_SECTION_CACHE_MS | requests | mean ms | p50 ms | p95 ms | p99 ms | per s |");
  console.log("|---|---|---|---|---|---|---|---|---|");
  await run("off", { principalMs: "0", sectionMs: "0" });
  await run("principal only", { principalMs: "5000", sectionMs: "0" });
  await run("sections only", { principalMs: "0", sectionMs: "30000" });
  await run("both (defaults)", { principalMs: "5000", sectionMs: "30000" });
  await run("off, again", { principalMs: "0", sectionMs: "0" });
  console.log(`(${((performance.now() - started) / 1000).toFixed(0)} s in all; each run after 200 warm-up requests)`);
} finally {
  await db.close();
  rmSync(dataDir, { recursive: true, force: true });
}
